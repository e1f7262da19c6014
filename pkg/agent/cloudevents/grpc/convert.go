package grpc

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/cloudevents/sdk-go/v2/types"
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
func ToProto(e event.Event) (*CloudEvent, error) {
	if e.Context == nil {
		return nil, fmt.Errorf("event has no context")
	}
	if v := e.SpecVersion(); v != event.CloudEventsVersionV1 {
		return nil, fmt.Errorf("event %s: spec version %q is not %s", e.ID(), v, event.CloudEventsVersionV1)
	}
	m := &CloudEvent{
		ID:          e.ID(),
		Source:      e.Source(),
		SpecVersion: e.SpecVersion(),
		Type:        e.Type(),
		Attributes:  map[string]AttributeValue{},
	}
	if ct := e.DataContentType(); ct != "" {
		m.Attributes[attrContentType] = AttributeValue{Kind: AttrString, String: ct}
	}
	if t := e.Time(); !t.IsZero() {
		m.Attributes[attrPrefix+"time"] = AttributeValue{Kind: AttrTimestamp, Timestamp: TimestampOf(t)}
	}
	if s := e.Subject(); s != "" {
		m.Attributes[attrPrefix+"subject"] = AttributeValue{Kind: AttrString, String: s}
	}
	if s := e.DataSchema(); s != "" {
		m.Attributes[attrPrefix+"dataschema"] = AttributeValue{Kind: AttrURI, String: s}
	}
	for name, v := range e.Extensions() {
		av, err := attributeValueOf(v)
		if err != nil {
			return nil, fmt.Errorf("event %s: extension %s: %w", e.ID(), name, err)
		}
		m.Attributes[attrPrefix+name] = av
	}
	if data := e.Data(); len(data) > 0 {
		m.DataKind, m.BinaryData = DataBinary, slices.Clone(data)
	}
	return m, nil
}

// attributeValueOf types v as OCM does: by its CloudEvents type.
func attributeValueOf(v any) (AttributeValue, error) {
	cv, err := types.Validate(v)
	if err != nil {
		return AttributeValue{}, err
	}
	switch cv := cv.(type) {
	case bool:
		return AttributeValue{Kind: AttrBoolean, Bool: cv}, nil
	case int32:
		return AttributeValue{Kind: AttrInteger, Int: cv}, nil
	case string:
		return AttributeValue{Kind: AttrString, String: cv}, nil
	case []byte:
		return AttributeValue{Kind: AttrBytes, Bytes: slices.Clone(cv)}, nil
	case types.URI:
		return AttributeValue{Kind: AttrURI, String: cv.String()}, nil
	case types.URIRef:
		return AttributeValue{Kind: AttrURIRef, String: cv.String()}, nil
	case types.Timestamp:
		return AttributeValue{Kind: AttrTimestamp, Timestamp: TimestampOf(cv.Time)}, nil
	}
	return AttributeValue{}, fmt.Errorf("unsupported value %T", v)
}

// Value is v as the CloudEvents SDK holds it: bool, int32, string, []byte,
// types.URI, types.URIRef, or a time.Time in UTC.
func (v AttributeValue) Value() (any, error) {
	switch v.Kind {
	case AttrBoolean:
		return v.Bool, nil
	case AttrInteger:
		return v.Int, nil
	case AttrString:
		return v.String, nil
	case AttrBytes:
		return slices.Clone(v.Bytes), nil
	case AttrURI:
		u, err := url.Parse(v.String)
		if err != nil {
			return nil, fmt.Errorf("ce_uri: %w", err)
		}
		return types.URI{URL: *u}, nil
	case AttrURIRef:
		u, err := url.Parse(v.String)
		if err != nil {
			return nil, fmt.Errorf("ce_uri_ref: %w", err)
		}
		return types.URIRef{URL: *u}, nil
	case AttrTimestamp:
		return v.Timestamp.Time(), nil
	}
	return nil, errNoValue
}

// FromProto is the event m carries, read as OCM reads it: an event in
// structured mode when its content type is application/cloudevents+json,
// otherwise in binary mode from its fields and attributes. Extensions come
// back typed (ce_integer as int32, ce_timestamp as a time, ...). Keys of the
// attributes map that OCM does not read (without the "ce-" prefix) are
// ignored. The event must be a valid CloudEvent of spec version 1.0.
func FromProto(m *CloudEvent) (event.Event, error) {
	if ct, ok := m.Attributes[attrContentType]; ok && ct.Kind == AttrString && isStructured(ct.String) {
		e := event.New()
		if err := json.Unmarshal(m.data(), &e); err != nil {
			return event.Event{}, fmt.Errorf("event %q in structured mode: %w", m.ID, err)
		}
		if err := e.Validate(); err != nil {
			return event.Event{}, fmt.Errorf("event %q in structured mode: %w", m.ID, err)
		}
		return e, nil
	}
	e, err := fromBinary(m)
	if err != nil {
		return event.Event{}, fmt.Errorf("event %q of type %q: %w", m.ID, m.Type, err)
	}
	return e, nil
}

func isStructured(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mt), structuredJSON)
}

func fromBinary(m *CloudEvent) (event.Event, error) {
	if m.SpecVersion != event.CloudEventsVersionV1 {
		return event.Event{}, fmt.Errorf("spec version %q is not %s", m.SpecVersion, event.CloudEventsVersionV1)
	}
	e := event.New(event.CloudEventsVersionV1)
	ec := e.Context
	if m.ID != "" {
		if err := ec.SetID(m.ID); err != nil {
			return event.Event{}, err
		}
	}
	if m.Source != "" {
		if err := ec.SetSource(m.Source); err != nil {
			return event.Event{}, fmt.Errorf("source: %w", err)
		}
	}
	if err := ec.SetType(m.Type); err != nil {
		return event.Event{}, err
	}
	names := make([]string, 0, len(m.Attributes))
	for name := range m.Attributes {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v, err := m.Attributes[name].Value()
		if err != nil {
			return event.Event{}, fmt.Errorf("attribute %s: %w", name, err)
		}
		if err := setAttribute(ec, name, v); err != nil {
			return event.Event{}, fmt.Errorf("attribute %s: %w", name, err)
		}
	}
	if data := m.data(); data != nil {
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

// data is m's data, whichever member holds it, or nil without data. OCM
// reads binary_data only; text and proto data are read here as well rather
// than dropped.
func (m *CloudEvent) data() []byte {
	switch m.DataKind {
	case DataBinary:
		return slices.Clone(m.BinaryData)
	case DataText:
		return []byte(m.TextData)
	case DataProto:
		return slices.Clone(m.ProtoData.Value)
	}
	return nil
}
