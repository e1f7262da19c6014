package grpc

import (
	"net/url"
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/cloudevents/sdk-go/v2/types"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	pbv1 "open-cluster-management.io/sdk-go/pkg/cloudevents/generic/options/grpc/protobuf/v1"
)

// kindOf is the name of the member of v's oneof that is set, as
// cloudevent.proto names it (ce_string, ce_timestamp, ...).
func kindOf(v *pbv1.CloudEventAttributeValue) string {
	m := v.ProtoReflect()
	if f := m.WhichOneof(m.Descriptor().Oneofs().ByName("attr")); f != nil {
		return string(f.Name())
	}
	return ""
}

// TestEventRoundTrip converts events with every attribute and extension
// kind to the wire and back.
func TestEventRoundTrip(t *testing.T) {
	when := time.Date(2026, 11, 27, 4, 30, 0, 123456789, time.UTC)
	full := event.New()
	full.SetID("4b8f")
	full.SetSource("maestro")
	full.SetType("io.open-cluster-management.works.v1alpha1.manifestbundles.spec.create_request")
	full.SetTime(when)
	full.SetSubject("work1")
	full.SetDataSchema("https://example.com/schema")
	full.SetExtension("resourceid", "8f3c")
	full.SetExtension("resourceversion", 7)
	full.SetExtension("clustername", "cluster1")
	full.SetExtension("deletiontimestamp", when.Add(time.Hour))
	full.SetExtension("flag", true)
	full.SetExtension("blob", []byte{1, 2})
	full.SetExtension("link", &url.URL{Scheme: "https", Host: "example.com"})
	full.SetExtension("ref", types.URIRef{URL: url.URL{Path: "/a"}})
	require.NoError(t, full.SetData("application/json", []byte(`{"manifests":[{"kind":"ConfigMap"}]}`)))

	bare := event.New()
	bare.SetID("1")
	bare.SetSource("agent1")
	bare.SetType("t")

	for _, e := range []event.Event{full, bare} {
		t.Run(e.ID(), func(t *testing.T) {
			m, err := ToProto(e)
			require.NoError(t, err)
			b, err := proto.Marshal(m)
			require.NoError(t, err)
			back := &pbv1.CloudEvent{}
			require.NoError(t, proto.Unmarshal(b, back))
			got, err := FromProto(back)
			require.NoError(t, err)

			require.Equal(t, e.ID(), got.ID())
			require.Equal(t, e.Source(), got.Source())
			require.Equal(t, e.Type(), got.Type())
			require.Equal(t, e.Subject(), got.Subject())
			require.Equal(t, e.DataSchema(), got.DataSchema())
			require.Equal(t, e.DataContentType(), got.DataContentType())
			require.True(t, e.Time().Equal(got.Time()))
			require.Equal(t, e.Data(), got.Data())
			require.Equal(t, e.Extensions(), got.Extensions())
		})
	}

	// The keys and kinds on the wire are OCM's.
	m, err := ToProto(full)
	require.NoError(t, err)
	kinds := map[string]string{}
	for k, v := range m.Attributes {
		kinds[k] = kindOf(v)
	}
	require.Equal(t, map[string]string{
		"contenttype":          "ce_string",
		"ce-time":              "ce_timestamp",
		"ce-subject":           "ce_string",
		"ce-dataschema":        "ce_uri",
		"ce-resourceid":        "ce_string",
		"ce-resourceversion":   "ce_integer",
		"ce-clustername":       "ce_string",
		"ce-deletiontimestamp": "ce_timestamp",
		"ce-flag":              "ce_boolean",
		"ce-blob":              "ce_bytes",
		"ce-link":              "ce_uri",
		"ce-ref":               "ce_uri_ref",
	}, kinds)
	require.IsType(t, &pbv1.CloudEvent_BinaryData{}, m.Data)
	require.Equal(t, "1.0", m.SpecVersion)
	ts := m.Attributes["ce-time"].GetCeTimestamp()
	require.Equal(t, when.Unix(), ts.GetSeconds())
	require.Equal(t, int32(when.Nanosecond()), ts.GetNanos())
	require.Equal(t, int32(7), m.Attributes["ce-resourceversion"].GetCeInteger())
}

// TestFromProto covers what a source may send that our writer does not.
func TestFromProto(t *testing.T) {
	base := func() *pbv1.CloudEvent {
		return &pbv1.CloudEvent{Id: "1", Source: "s", SpecVersion: "1.0", Type: "t", Attributes: map[string]*pbv1.CloudEventAttributeValue{}}
	}
	with := func(f func(m *pbv1.CloudEvent)) *pbv1.CloudEvent {
		m := base()
		f(m)
		return m
	}
	tests := []struct {
		name    string
		in      *pbv1.CloudEvent
		wantErr string
		check   func(t *testing.T, e event.Event)
	}{
		{name: "text data", in: with(func(m *pbv1.CloudEvent) { m.Data = &pbv1.CloudEvent_TextData{TextData: "{}"} }),
			check: func(t *testing.T, e event.Event) { require.Equal(t, "{}", string(e.Data())) }},
		{name: "time as a string", in: with(func(m *pbv1.CloudEvent) {
			m.Attributes["ce-time"] = stringValue("2026-11-27T04:30:00Z")
		}), check: func(t *testing.T, e event.Event) {
			require.True(t, e.Time().Equal(time.Date(2026, 11, 27, 4, 30, 0, 0, time.UTC)))
		}},
		{name: "a key without the prefix is not OCM's and ignored", in: with(func(m *pbv1.CloudEvent) {
			m.Attributes["resourceid"] = stringValue("x")
		}), check: func(t *testing.T, e event.Event) { require.Empty(t, e.Extensions()) }},
		{name: "structured mode", in: with(func(m *pbv1.CloudEvent) {
			m.Attributes["contenttype"] = stringValue("application/cloudevents+json; charset=utf-8")
			m.Data = &pbv1.CloudEvent_BinaryData{
				BinaryData: []byte(`{"specversion":"1.0","id":"9","source":"src","type":"t2","resourceversion":4,"data":{"a":1}}`),
			}
		}), check: func(t *testing.T, e event.Event) {
			require.Equal(t, "9", e.ID())
			require.Equal(t, "t2", e.Type())
			require.EqualValues(t, 4, e.Extensions()["resourceversion"])
			require.JSONEq(t, `{"a":1}`, string(e.Data()))
		}},
		{name: "no id", in: with(func(m *pbv1.CloudEvent) { m.Id = "" }), wantErr: "id"},
		{name: "no source", in: with(func(m *pbv1.CloudEvent) { m.Source = "" }), wantErr: "source"},
		{name: "no type", in: with(func(m *pbv1.CloudEvent) { m.Type = "" }), wantErr: "type"},
		{name: "other spec version", in: with(func(m *pbv1.CloudEvent) { m.SpecVersion = "0.2" }), wantErr: `spec version "0.2"`},
		{name: "attribute without a value", in: with(func(m *pbv1.CloudEvent) { m.Attributes["ce-x"] = &pbv1.CloudEventAttributeValue{} }),
			wantErr: "attribute ce-x: attribute value has no member set"},
		{name: "bad extension name", in: with(func(m *pbv1.CloudEvent) {
			m.Attributes["ce-Bad_Name"] = stringValue("v")
		}), wantErr: "attribute ce-Bad_Name"},
		{name: "bad URI", in: with(func(m *pbv1.CloudEvent) {
			m.Attributes["ce-u"] = &pbv1.CloudEventAttributeValue{Attr: &pbv1.CloudEventAttributeValue_CeUri{CeUri: "%zz"}}
		}), wantErr: "ce_uri"},
		{name: "time of the wrong kind", in: with(func(m *pbv1.CloudEvent) {
			m.Attributes["ce-time"] = &pbv1.CloudEventAttributeValue{Attr: &pbv1.CloudEventAttributeValue_CeBoolean{}}
		}), wantErr: "attribute ce-time"},
		{name: "structured mode with bad JSON", in: with(func(m *pbv1.CloudEvent) {
			m.Attributes["contenttype"] = stringValue("application/cloudevents+json")
			m.Data = &pbv1.CloudEvent_BinaryData{BinaryData: []byte("{")}
		}), wantErr: "structured mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := FromProto(tt.in)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			tt.check(t, e)
		})
	}
}

func TestToProtoRefuses(t *testing.T) {
	old := event.New(event.CloudEventsVersionV03)
	old.SetID("1")
	_, err := ToProto(old)
	require.ErrorContains(t, err, "spec version")

	_, err = ToProto(event.Event{})
	require.ErrorContains(t, err, "no context")
}

func stringValue(s string) *pbv1.CloudEventAttributeValue {
	return &pbv1.CloudEventAttributeValue{Attr: &pbv1.CloudEventAttributeValue_CeString{CeString: s}}
}
