package grpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/cloudevents/sdk-go/v2/types"
	"google.golang.org/protobuf/types/known/timestamppb"
	pbv1 "open-cluster-management.io/sdk-go/pkg/cloudevents/generic/options/grpc/protobuf/v1"
)

// HeartbeatType is the type of the heartbeats that OCM's gRPC server (from
// v1.1) sends on each subscription. They carry no work and never reach the
// Handler.
const HeartbeatType = "io.open-cluster-management.cloudevents.heartbeat"

// The attribute names OCM's protocol code (sdk-go's grpc/protocol) writes
// into the attributes map: the content type under its own key, every other
// optional attribute and every extension under "ce-" and its name.
const (
	attrPrefix      = "ce-"
	attrContentType = "contenttype"
)

// structuredJSON is the media type of an event in structured mode: the whole
// event, as JSON, in binary_data.
const structuredJSON = "application/cloudevents+json"

// ToProto is e as OCM writes an event on the wire: id, source, spec version
// and type in their fields; datacontenttype as "contenttype" (ce_string);
// time ("ce-time", ce_timestamp), subject and dataschema under "ce-"; each
// extension under "ce-" and its name, typed by its value (string ->
// ce_string, int32 -> ce_integer, time -> ce_timestamp, ...); the data, when
// there is any, in binary_data.
func ToProto(e event.Event) (*pbv1.CloudEvent, error) {
	if e.Context == nil {
		return nil, fmt.Errorf("event has no context")
	}
	if v := e.SpecVersion(); v != event.CloudEventsVersionV1 {
		return nil, fmt.Errorf("event %s: spec version %q is not %s", e.ID(), v, event.CloudEventsVersionV1)
	}
	m := &pbv1.CloudEvent{
		Id:          e.ID(),
		Source:      e.Source(),
		SpecVersion: e.SpecVersion(),
		Type:        e.Type(),
		Attributes:  map[string]*pbv1.CloudEventAttributeValue{},
	}
	if ct := e.DataContentType(); ct != "" {
		m.Attributes[attrContentType] = &pbv1.CloudEventAttributeValue{Attr: &pbv1.CloudEventAttributeValue_CeString{CeString: ct}}
	}
	if t := e.Time(); !t.IsZero() {
		m.Attributes[attrPrefix+"time"] = &pbv1.CloudEventAttributeValue{Attr: &pbv1.CloudEventAttributeValue_CeTimestamp{CeTimestamp: timestamppb.New(t)}}
	}
	if s := e.Subject(); s != "" {
		m.Attributes[attrPrefix+"subject"] = &pbv1.CloudEventAttributeValue{Attr: &pbv1.CloudEventAttributeValue_CeString{CeString: s}}
	}
	if s := e.DataSchema(); s != "" {
		m.Attributes[attrPrefix+"dataschema"] = &pbv1.CloudEventAttributeValue{Attr: &pbv1.CloudEventAttributeValue_CeUri{CeUri: s}}
	}
	for name, v := range e.Extensions() {
		av, err := attributeValueOf(v)
		if err != nil {
			return nil, fmt.Errorf("event %s: extension %s: %w", e.ID(), name, err)
		}
		m.Attributes[attrPrefix+name] = av
	}
	if data := e.Data(); len(data) > 0 {
		m.Data = &pbv1.CloudEvent_BinaryData{BinaryData: slices.Clone(data)}
	}
	return m, nil
}

// attributeValueOf types v as OCM does: by its CloudEvents type.
func attributeValueOf(v any) (*pbv1.CloudEventAttributeValue, error) {
	cv, err := types.Validate(v)
	if err != nil {
		return nil, err
	}
	av := &pbv1.CloudEventAttributeValue{}
	switch cv := cv.(type) {
	case bool:
		av.Attr = &pbv1.CloudEventAttributeValue_CeBoolean{CeBoolean: cv}
	case int32:
		av.Attr = &pbv1.CloudEventAttributeValue_CeInteger{CeInteger: cv}
	case string:
		av.Attr = &pbv1.CloudEventAttributeValue_CeString{CeString: cv}
	case []byte:
		av.Attr = &pbv1.CloudEventAttributeValue_CeBytes{CeBytes: slices.Clone(cv)}
	case types.URI:
		av.Attr = &pbv1.CloudEventAttributeValue_CeUri{CeUri: cv.String()}
	case types.URIRef:
		av.Attr = &pbv1.CloudEventAttributeValue_CeUriRef{CeUriRef: cv.String()}
	case types.Timestamp:
		av.Attr = &pbv1.CloudEventAttributeValue_CeTimestamp{CeTimestamp: timestamppb.New(cv.Time)}
	default:
		return nil, fmt.Errorf("unsupported value %T", v)
	}
	return av, nil
}

// errNoValue is the error of an attribute whose value has no member set.
var errNoValue = errors.New("attribute value has no member set")

// attributeValue is v as the CloudEvents SDK holds it: bool, int32, string,
// []byte, types.URI, types.URIRef, or a time.Time in UTC.
func attributeValue(v *pbv1.CloudEventAttributeValue) (any, error) {
	switch a := v.GetAttr().(type) {
	case *pbv1.CloudEventAttributeValue_CeBoolean:
		return a.CeBoolean, nil
	case *pbv1.CloudEventAttributeValue_CeInteger:
		return a.CeInteger, nil
	case *pbv1.CloudEventAttributeValue_CeString:
		return a.CeString, nil
	case *pbv1.CloudEventAttributeValue_CeBytes:
		return slices.Clone(a.CeBytes), nil
	case *pbv1.CloudEventAttributeValue_CeUri:
		u, err := url.Parse(a.CeUri)
		if err != nil {
			return nil, fmt.Errorf("ce_uri: %w", err)
		}
		return types.URI{URL: *u}, nil
	case *pbv1.CloudEventAttributeValue_CeUriRef:
		u, err := url.Parse(a.CeUriRef)
		if err != nil {
			return nil, fmt.Errorf("ce_uri_ref: %w", err)
		}
		return types.URIRef{URL: *u}, nil
	case *pbv1.CloudEventAttributeValue_CeTimestamp:
		return a.CeTimestamp.AsTime(), nil
	}
	return nil, errNoValue
}

// FromProto is the event m carries, read as OCM reads it: an event in
// structured mode when its content type is application/cloudevents+json,
// otherwise in binary mode from its fields and attributes. Extensions come
// back typed (ce_integer as int32, ce_timestamp as a time, ...). Keys of the
// attributes map that OCM does not read (without the "ce-" prefix) are
// ignored. The event must be a valid CloudEvent of spec version 1.0.
func FromProto(m *pbv1.CloudEvent) (event.Event, error) {
	if ct, ok := m.GetAttributes()[attrContentType].GetAttr().(*pbv1.CloudEventAttributeValue_CeString); ok && isStructured(ct.CeString) {
		e := event.New()
		if err := json.Unmarshal(dataOf(m), &e); err != nil {
			return event.Event{}, fmt.Errorf("event %q in structured mode: %w", m.GetId(), err)
		}
		if err := e.Validate(); err != nil {
			return event.Event{}, fmt.Errorf("event %q in structured mode: %w", m.GetId(), err)
		}
		return e, nil
	}
	e, err := fromBinary(m)
	if err != nil {
		return event.Event{}, fmt.Errorf("event %q of type %q: %w", m.GetId(), m.GetType(), err)
	}
	return e, nil
}

func isStructured(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), structuredJSON)
}

func fromBinary(m *pbv1.CloudEvent) (event.Event, error) {
	if v := m.GetSpecVersion(); v != event.CloudEventsVersionV1 {
		return event.Event{}, fmt.Errorf("spec version %q is not %s", v, event.CloudEventsVersionV1)
	}
	e := event.New(event.CloudEventsVersionV1)
	ec := e.Context
	if id := m.GetId(); id != "" {
		if err := ec.SetID(id); err != nil {
			return event.Event{}, err
		}
	}
	if source := m.GetSource(); source != "" {
		if err := ec.SetSource(source); err != nil {
			return event.Event{}, fmt.Errorf("source: %w", err)
		}
	}
	if err := ec.SetType(m.GetType()); err != nil {
		return event.Event{}, err
	}
	for _, name := range slices.Sorted(maps.Keys(m.GetAttributes())) {
		v, err := attributeValue(m.GetAttributes()[name])
		if err != nil {
			return event.Event{}, fmt.Errorf("attribute %s: %w", name, err)
		}
		if err := setAttribute(ec, name, v); err != nil {
			return event.Event{}, fmt.Errorf("attribute %s: %w", name, err)
		}
	}
	if data := dataOf(m); data != nil {
		e.DataEncoded = data
	}
	if err := e.Validate(); err != nil {
		return event.Event{}, err
	}
	return e, nil
}

// setAttribute sets one entry of the attributes map on ec: "contenttype" is
// the data content type; "ce-<name>" is the attribute of that name, or an
// extension when CloudEvents has no such attribute; any other key is not
// OCM's and is ignored.
func setAttribute(ec event.EventContext, name string, v any) error {
	if name == attrContentType {
		s, err := types.ToString(v)
		if err != nil {
			return err
		}
		return ec.SetDataContentType(s)
	}
	attr, ok := strings.CutPrefix(name, attrPrefix)
	if !ok {
		return nil
	}
	switch strings.ToLower(attr) {
	case "specversion":
		// The spec version is the message's field; 1.0 is checked already.
		return nil
	case "time":
		t, err := types.ToTime(v)
		if err != nil {
			return err
		}
		return ec.SetTime(t)
	case "dataschema":
		u, err := types.ToURL(v)
		if err != nil {
			return err
		}
		return ec.SetDataSchema(u.String())
	case "id", "source", "type", "subject", "datacontenttype":
		s, err := types.ToString(v)
		if err != nil {
			return err
		}
		return map[string]func(string) error{
			"id": ec.SetID, "source": ec.SetSource, "type": ec.SetType,
			"subject": ec.SetSubject, "datacontenttype": ec.SetDataContentType,
		}[strings.ToLower(attr)](s)
	}
	return ec.SetExtension(attr, v)
}

// dataOf is m's data, whichever member holds it, or nil without data. OCM
// reads binary_data only; text and proto data are read here as well rather
// than dropped.
func dataOf(m *pbv1.CloudEvent) []byte {
	switch d := m.GetData().(type) {
	case *pbv1.CloudEvent_BinaryData:
		return slices.Clone(d.BinaryData)
	case *pbv1.CloudEvent_TextData:
		return []byte(d.TextData)
	case *pbv1.CloudEvent_ProtoData:
		return slices.Clone(d.ProtoData.GetValue())
	}
	return nil
}
