package grpc

import (
	"encoding/hex"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/cloudevents/sdk-go/v2/types"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	_ "google.golang.org/protobuf/types/known/anypb"
	_ "google.golang.org/protobuf/types/known/timestamppb"
)

// unhex reads bytes written as hex with spaces between them.
func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	require.NoError(t, err)
	return b
}

// TestGolden checks the bytes of known messages against bytes worked out by
// hand from the field numbers of OCM's cloudevent.proto, so that a slip in a
// field number or a wire type goes red.
func TestGolden(t *testing.T) {
	event := &CloudEvent{
		ID: "a", Source: "s", SpecVersion: "1.0", Type: "t",
		Attributes: map[string]AttributeValue{
			"contenttype": {Kind: AttrString, String: "x"},
			"ce-t":        {Kind: AttrTimestamp, Timestamp: Timestamp{Seconds: 1, Nanos: 2}},
			"ce-n":        {Kind: AttrInteger, Int: 5},
		},
		DataKind: DataBinary, BinaryData: []byte("{}"),
	}
	eventBytes := `
		0a 01 61                   id=1 "a"
		12 01 73                   source=2 "s"
		1a 03 31 2e 30             spec_version=3 "1.0"
		22 01 74                   type=4 "t"
		2a 0a                      attributes=5, entry of 10 bytes, keys in order
		  0a 04 63 65 2d 6e          key=1 "ce-n"
		  12 02 10 05                value=2: ce_integer=2 5
		2a 0e
		  0a 04 63 65 2d 74          key=1 "ce-t"
		  12 06 3a 04 08 01 10 02    value=2: ce_timestamp=7 {seconds=1 1, nanos=2 2}
		2a 12
		  0a 0b 63 6f 6e 74 65 6e 74 74 79 70 65   key=1 "contenttype"
		  12 03 1a 01 78                           value=2: ce_string=3 "x"
		32 02 7b 7d                binary_data=6 "{}"`
	// Drop the comments: keep the hex pairs of each line.
	var hexOnly []string
	for _, line := range strings.Split(eventBytes, "\n") {
		for _, w := range strings.Fields(line) {
			if len(w) != 2 || strings.Trim(w, "0123456789abcdef") != "" {
				break
			}
			hexOnly = append(hexOnly, w)
		}
	}
	wantEvent := unhex(t, strings.Join(hexOnly, " "))

	tests := []struct {
		name string
		msg  message
		want []byte
	}{
		{name: "cloud event", msg: event, want: wantEvent},
		{name: "publish request", msg: &PublishRequest{Event: event}, want: append([]byte{0x0a, byte(len(wantEvent))}, wantEvent...)},
		{name: "subscription request", msg: &SubscriptionRequest{ClusterName: "c", DataType: "d"},
			want: unhex(t, "12 01 63  1a 01 64")},
		{name: "subscription request with a source", msg: &SubscriptionRequest{Source: "s"}, want: unhex(t, "0a 01 73")},
		{name: "empty", msg: &Empty{}, want: []byte{}},
		{name: "attribute values", msg: &CloudEvent{Attributes: map[string]AttributeValue{
			"b": {Kind: AttrBoolean},
			"i": {Kind: AttrInteger, Int: -1},
			"u": {Kind: AttrURI, String: "h"},
			"y": {Kind: AttrBytes, Bytes: []byte{0xff}},
		}}, want: unhex(t, `
			2a 07 0a 01 62 12 02 08 00
			2a 10 0a 01 69 12 0b 10 ff ff ff ff ff ff ff ff ff 01
			2a 08 0a 01 75 12 03 2a 01 68
			2a 08 0a 01 79 12 03 22 01 ff`)},
		{name: "text data, even empty", msg: &CloudEvent{DataKind: DataText}, want: unhex(t, "3a 00")},
		{name: "proto data", msg: &CloudEvent{DataKind: DataProto, ProtoData: Any{TypeURL: "u", Value: []byte{1}}},
			want: unhex(t, "42 06 0a 01 75 12 01 01")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Codec{}.Marshal(tt.msg)
			require.NoError(t, err)
			require.Equal(t, hex.EncodeToString(tt.want), hex.EncodeToString(got))

			// And back.
			back := newLike(tt.msg)
			require.NoError(t, Codec{}.Unmarshal(tt.want, back))
			again, err := Codec{}.Marshal(back)
			require.NoError(t, err)
			require.Equal(t, hex.EncodeToString(tt.want), hex.EncodeToString(again))
		})
	}
}

func newLike(m message) message {
	switch m.(type) {
	case *CloudEvent:
		return &CloudEvent{}
	case *PublishRequest:
		return &PublishRequest{}
	case *SubscriptionRequest:
		return &SubscriptionRequest{}
	}
	return &Empty{}
}

// schema is OCM's cloudevent.proto as a descriptor, for the protobuf
// runtime to encode and decode the same messages as a generated package
// would.
const schema = `
name: "cloudevent.proto"
package: "io.cloudevents.v1"
syntax: "proto3"
dependency: "google/protobuf/any.proto"
dependency: "google/protobuf/timestamp.proto"
message_type {
  name: "CloudEvent"
  field { name: "id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "source" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "spec_version" number: 3 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "type" number: 4 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "attributes" number: 5 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".io.cloudevents.v1.CloudEvent.AttributesEntry" }
  field { name: "binary_data" number: 6 label: LABEL_OPTIONAL type: TYPE_BYTES oneof_index: 0 }
  field { name: "text_data" number: 7 label: LABEL_OPTIONAL type: TYPE_STRING oneof_index: 0 }
  field { name: "proto_data" number: 8 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.Any" oneof_index: 0 }
  nested_type {
    name: "AttributesEntry"
    field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
    field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".io.cloudevents.v1.CloudEventAttributeValue" }
    options { map_entry: true }
  }
  oneof_decl { name: "data" }
}
message_type {
  name: "CloudEventAttributeValue"
  field { name: "ce_boolean" number: 1 label: LABEL_OPTIONAL type: TYPE_BOOL oneof_index: 0 }
  field { name: "ce_integer" number: 2 label: LABEL_OPTIONAL type: TYPE_INT32 oneof_index: 0 }
  field { name: "ce_string" number: 3 label: LABEL_OPTIONAL type: TYPE_STRING oneof_index: 0 }
  field { name: "ce_bytes" number: 4 label: LABEL_OPTIONAL type: TYPE_BYTES oneof_index: 0 }
  field { name: "ce_uri" number: 5 label: LABEL_OPTIONAL type: TYPE_STRING oneof_index: 0 }
  field { name: "ce_uri_ref" number: 6 label: LABEL_OPTIONAL type: TYPE_STRING oneof_index: 0 }
  field { name: "ce_timestamp" number: 7 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.Timestamp" oneof_index: 0 }
  oneof_decl { name: "attr" }
}
message_type {
  name: "PublishRequest"
  field { name: "event" number: 1 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".io.cloudevents.v1.CloudEvent" }
}
message_type {
  name: "SubscriptionRequest"
  field { name: "source" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "cluster_name" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "data_type" number: 3 label: LABEL_OPTIONAL type: TYPE_STRING }
}
`

func schemaFile(t *testing.T) protoreflect.FileDescriptor {
	t.Helper()
	fdp := &descriptorpb.FileDescriptorProto{}
	require.NoError(t, prototext.Unmarshal([]byte(schema), fdp))
	fd, err := protodesc.NewFile(fdp, protoregistry.GlobalFiles)
	require.NoError(t, err)
	return fd
}

// dynamicEvent is m built field by field by name with the protobuf runtime.
func dynamicEvent(fd protoreflect.FileDescriptor, m *CloudEvent) *dynamicpb.Message {
	desc := fd.Messages().ByName("CloudEvent")
	d := dynamicpb.NewMessage(desc)
	set := func(name, v string) {
		if v != "" {
			d.Set(desc.Fields().ByName(protoreflect.Name(name)), protoreflect.ValueOfString(v))
		}
	}
	set("id", m.ID)
	set("source", m.Source)
	set("spec_version", m.SpecVersion)
	set("type", m.Type)
	attrs := d.Mutable(desc.Fields().ByName("attributes")).Map()
	avDesc := fd.Messages().ByName("CloudEventAttributeValue")
	for k, v := range m.Attributes {
		av := dynamicpb.NewMessage(avDesc)
		f := avDesc.Fields().ByNumber(protoreflect.FieldNumber(v.Kind))
		switch v.Kind {
		case AttrBoolean:
			av.Set(f, protoreflect.ValueOfBool(v.Bool))
		case AttrInteger:
			av.Set(f, protoreflect.ValueOfInt32(v.Int))
		case AttrString, AttrURI, AttrURIRef:
			av.Set(f, protoreflect.ValueOfString(v.String))
		case AttrBytes:
			av.Set(f, protoreflect.ValueOfBytes(v.Bytes))
		case AttrTimestamp:
			ts := av.Mutable(f).Message()
			ts.Set(ts.Descriptor().Fields().ByName("seconds"), protoreflect.ValueOfInt64(v.Timestamp.Seconds))
			ts.Set(ts.Descriptor().Fields().ByName("nanos"), protoreflect.ValueOfInt32(v.Timestamp.Nanos))
		}
		attrs.Set(protoreflect.ValueOfString(k).MapKey(), protoreflect.ValueOfMessage(av))
	}
	switch m.DataKind {
	case DataBinary:
		d.Set(desc.Fields().ByName("binary_data"), protoreflect.ValueOfBytes(m.BinaryData))
	case DataText:
		d.Set(desc.Fields().ByName("text_data"), protoreflect.ValueOfString(m.TextData))
	case DataProto:
		anyMsg := d.Mutable(desc.Fields().ByName("proto_data")).Message()
		anyMsg.Set(anyMsg.Descriptor().Fields().ByName("type_url"), protoreflect.ValueOfString(m.ProtoData.TypeURL))
		anyMsg.Set(anyMsg.Descriptor().Fields().ByName("value"), protoreflect.ValueOfBytes(m.ProtoData.Value))
	}
	return d
}

// TestSameBytesAsProtobuf encodes messages with every attribute kind both
// ways, here and with the protobuf runtime from OCM's schema, and checks
// that the bytes are the same and read back the same.
func TestSameBytesAsProtobuf(t *testing.T) {
	fd := schemaFile(t)
	full := &CloudEvent{
		ID: "4b8f", Source: "maestro", SpecVersion: "1.0", Type: "io.open-cluster-management.works.v1alpha1.manifestbundles.spec.create_request",
		Attributes: map[string]AttributeValue{
			"ce-bool":     {Kind: AttrBoolean, Bool: true},
			"ce-false":    {Kind: AttrBoolean},
			"ce-int":      {Kind: AttrInteger, Int: 2147483647},
			"ce-negative": {Kind: AttrInteger, Int: -42},
			"ce-zero":     {Kind: AttrInteger},
			"ce-string":   {Kind: AttrString, String: "ünïcode"},
			"ce-empty":    {Kind: AttrString},
			"ce-bytes":    {Kind: AttrBytes, Bytes: []byte{0, 1, 2}},
			"ce-uri":      {Kind: AttrURI, String: "https://example.com/a"},
			"ce-uriref":   {Kind: AttrURIRef, String: "/a/b"},
			"ce-time":     {Kind: AttrTimestamp, Timestamp: Timestamp{Seconds: 1795753800, Nanos: 123456789}},
			"ce-epoch":    {Kind: AttrTimestamp},
			"ce-before":   {Kind: AttrTimestamp, Timestamp: Timestamp{Seconds: -5}},
			"contenttype": {Kind: AttrString, String: "application/json"},
		},
		DataKind: DataBinary, BinaryData: []byte(`{"manifests":[]}`),
	}
	tests := []struct {
		name string
		msg  *CloudEvent
	}{
		{name: "every attribute kind", msg: full},
		{name: "nothing", msg: &CloudEvent{}},
		{name: "empty binary data", msg: &CloudEvent{ID: "x", DataKind: DataBinary, BinaryData: []byte{}}},
		{name: "text data", msg: &CloudEvent{Type: "t", DataKind: DataText, TextData: "{}"}},
		{name: "proto data", msg: &CloudEvent{DataKind: DataProto, ProtoData: Any{TypeURL: "type.googleapis.com/x", Value: []byte{8, 1}}}},
	}
	opts := proto.MarshalOptions{Deterministic: true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ours, err := tt.msg.Marshal()
			require.NoError(t, err)
			theirs, err := opts.Marshal(dynamicEvent(fd, tt.msg))
			require.NoError(t, err)
			require.Equal(t, hex.EncodeToString(theirs), hex.EncodeToString(ours))

			back := &CloudEvent{}
			require.NoError(t, back.Unmarshal(theirs))
			if tt.msg.DataKind == DataBinary && len(tt.msg.BinaryData) == 0 {
				require.Equal(t, DataBinary, back.DataKind)
				back.BinaryData = tt.msg.BinaryData
			}
			if tt.msg.Attributes == nil {
				require.Empty(t, back.Attributes)
				back.Attributes = nil
			}
			require.Equal(t, tt.msg, back)

			// The publish request wraps it as field 1.
			req, err := (&PublishRequest{Event: tt.msg}).Marshal()
			require.NoError(t, err)
			dreq := dynamicpb.NewMessage(fd.Messages().ByName("PublishRequest"))
			require.NoError(t, proto.Unmarshal(req, dreq))
			inner, err := opts.Marshal(dreq.Get(dreq.Descriptor().Fields().ByName("event")).Message().Interface())
			require.NoError(t, err)
			require.Equal(t, hex.EncodeToString(ours), hex.EncodeToString(inner))
		})
	}

	sub, err := (&SubscriptionRequest{Source: "s", ClusterName: "cluster1", DataType: "dt"}).Marshal()
	require.NoError(t, err)
	dsub := dynamicpb.NewMessage(fd.Messages().ByName("SubscriptionRequest"))
	require.NoError(t, proto.Unmarshal(sub, dsub))
	require.Equal(t, "cluster1", dsub.Get(dsub.Descriptor().Fields().ByName("cluster_name")).String())
	require.Equal(t, "dt", dsub.Get(dsub.Descriptor().Fields().ByName("data_type")).String())
	require.Equal(t, "s", dsub.Get(dsub.Descriptor().Fields().ByName("source")).String())
}

// TestUnmarshalBadInput checks that bytes that are not a message give an
// error, never a panic, and that unknown fields are skipped.
func TestUnmarshalBadInput(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		wantErr string
		want    *CloudEvent
	}{
		{name: "truncated length", in: unhex(t, "0a 05 61"), wantErr: "field 1"},
		{name: "truncated tag", in: unhex(t, "80"), wantErr: "unexpected EOF"},
		{name: "field number zero", in: unhex(t, "00 01"), wantErr: "invalid field number"},
		{name: "invalid UTF-8 in id", in: unhex(t, "0a 01 ff"), wantErr: "id: invalid UTF-8"},
		{name: "broken attribute", in: unhex(t, "2a 03 0a 05 61"), wantErr: "attributes"},
		{name: "broken timestamp", in: unhex(t, "2a 05 12 03 3a 01 08"), wantErr: "attributes"},
		{name: "unknown fields skipped", in: unhex(t, "0a 01 61  50 07  5a 01 00  65 00 00 00 00  22 01 74"),
			want: &CloudEvent{ID: "a", Type: "t"}},
		{name: "known field of another wire type skipped", in: unhex(t, "08 01  0a 01 61"), want: &CloudEvent{ID: "a"}},
		{name: "last data member wins", in: unhex(t, "32 01 61  3a 01 62"), want: &CloudEvent{DataKind: DataText, TextData: "b"}},
		{name: "last entry of a key wins", in: unhex(t, "2a 07 0a 01 6b 12 02 10 01  2a 07 0a 01 6b 12 02 10 02"),
			want: &CloudEvent{Attributes: map[string]AttributeValue{"k": {Kind: AttrInteger, Int: 2}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := &CloudEvent{}
			err := got.Unmarshal(tt.in)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
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
			b, err := m.Marshal()
			require.NoError(t, err)
			back := &CloudEvent{}
			require.NoError(t, back.Unmarshal(b))
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
	kinds := map[string]AttributeKind{}
	for k, v := range m.Attributes {
		kinds[k] = v.Kind
	}
	require.Equal(t, map[string]AttributeKind{
		"contenttype":          AttrString,
		"ce-time":              AttrTimestamp,
		"ce-subject":           AttrString,
		"ce-dataschema":        AttrURI,
		"ce-resourceid":        AttrString,
		"ce-resourceversion":   AttrInteger,
		"ce-clustername":       AttrString,
		"ce-deletiontimestamp": AttrTimestamp,
		"ce-flag":              AttrBoolean,
		"ce-blob":              AttrBytes,
		"ce-link":              AttrURI,
		"ce-ref":               AttrURIRef,
	}, kinds)
	require.Equal(t, DataBinary, m.DataKind)
	require.Equal(t, "1.0", m.SpecVersion)
	require.Equal(t, TimestampOf(when), m.Attributes["ce-time"].Timestamp)
	require.Equal(t, int32(7), m.Attributes["ce-resourceversion"].Int)
}

// TestFromProto covers what a source may send that our writer does not.
func TestFromProto(t *testing.T) {
	base := func() *CloudEvent {
		return &CloudEvent{ID: "1", Source: "s", SpecVersion: "1.0", Type: "t", Attributes: map[string]AttributeValue{}}
	}
	with := func(f func(m *CloudEvent)) *CloudEvent {
		m := base()
		f(m)
		return m
	}
	tests := []struct {
		name    string
		in      *CloudEvent
		wantErr string
		check   func(t *testing.T, e event.Event)
	}{
		{name: "text data", in: with(func(m *CloudEvent) { m.DataKind, m.TextData = DataText, "{}" }),
			check: func(t *testing.T, e event.Event) { require.Equal(t, "{}", string(e.Data())) }},
		{name: "time as a string", in: with(func(m *CloudEvent) {
			m.Attributes["ce-time"] = AttributeValue{Kind: AttrString, String: "2026-11-27T04:30:00Z"}
		}), check: func(t *testing.T, e event.Event) {
			require.True(t, e.Time().Equal(time.Date(2026, 11, 27, 4, 30, 0, 0, time.UTC)))
		}},
		{name: "a key without the prefix is not OCM's and ignored", in: with(func(m *CloudEvent) {
			m.Attributes["resourceid"] = AttributeValue{Kind: AttrString, String: "x"}
		}), check: func(t *testing.T, e event.Event) { require.Empty(t, e.Extensions()) }},
		{name: "structured mode", in: with(func(m *CloudEvent) {
			m.Attributes["contenttype"] = AttributeValue{Kind: AttrString, String: "application/cloudevents+json; charset=utf-8"}
			m.DataKind = DataBinary
			m.BinaryData = []byte(`{"specversion":"1.0","id":"9","source":"src","type":"t2","resourceversion":4,"data":{"a":1}}`)
		}), check: func(t *testing.T, e event.Event) {
			require.Equal(t, "9", e.ID())
			require.Equal(t, "t2", e.Type())
			require.EqualValues(t, 4, e.Extensions()["resourceversion"])
			require.JSONEq(t, `{"a":1}`, string(e.Data()))
		}},
		{name: "no id", in: with(func(m *CloudEvent) { m.ID = "" }), wantErr: "id"},
		{name: "no source", in: with(func(m *CloudEvent) { m.Source = "" }), wantErr: "source"},
		{name: "no type", in: with(func(m *CloudEvent) { m.Type = "" }), wantErr: "type"},
		{name: "other spec version", in: with(func(m *CloudEvent) { m.SpecVersion = "0.2" }), wantErr: `spec version "0.2"`},
		{name: "attribute without a value", in: with(func(m *CloudEvent) { m.Attributes["ce-x"] = AttributeValue{} }),
			wantErr: "attribute ce-x: attribute value has no member set"},
		{name: "bad extension name", in: with(func(m *CloudEvent) {
			m.Attributes["ce-Bad_Name"] = AttributeValue{Kind: AttrString, String: "v"}
		}), wantErr: "attribute ce-Bad_Name"},
		{name: "bad URI", in: with(func(m *CloudEvent) { m.Attributes["ce-u"] = AttributeValue{Kind: AttrURI, String: "%zz"} }),
			wantErr: "ce_uri"},
		{name: "time of the wrong kind", in: with(func(m *CloudEvent) { m.Attributes["ce-time"] = AttributeValue{Kind: AttrBoolean} }),
			wantErr: "attribute ce-time"},
		{name: "structured mode with bad JSON", in: with(func(m *CloudEvent) {
			m.Attributes["contenttype"] = AttributeValue{Kind: AttrString, String: "application/cloudevents+json"}
			m.DataKind, m.BinaryData = DataBinary, []byte("{")
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

	_, err = (&CloudEvent{ID: "\xff"}).Marshal()
	require.ErrorContains(t, err, "id: invalid UTF-8")
}
