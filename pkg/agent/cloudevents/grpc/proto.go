// Package grpc is the agent's gRPC transport: it speaks OCM's
// io.cloudevents.v1.CloudEventService (docs/contributors/cloudevents.md,
// gRPC) to a source's server.
//
// The three messages of the service are written here by hand, with their
// protobuf wire encoding, so that no code generator is needed: the bytes on
// the wire are the bytes OCM's generated code writes and reads.
package grpc

import (
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// The service and its methods, as OCM's cloudevent.proto names them.
const (
	ServiceName     = "io.cloudevents.v1.CloudEventService"
	PublishMethod   = "/" + ServiceName + "/Publish"
	SubscribeMethod = "/" + ServiceName + "/Subscribe"
)

// AttributeKind is which member of CloudEventAttributeValue's oneof is set.
// Each kind's value is its field number.
type AttributeKind int

const (
	AttrNone      AttributeKind = 0
	AttrBoolean   AttributeKind = 1 // ce_boolean, bool
	AttrInteger   AttributeKind = 2 // ce_integer, int32
	AttrString    AttributeKind = 3 // ce_string
	AttrBytes     AttributeKind = 4 // ce_bytes
	AttrURI       AttributeKind = 5 // ce_uri, a string
	AttrURIRef    AttributeKind = 6 // ce_uri_ref, a string
	AttrTimestamp AttributeKind = 7 // ce_timestamp, google.protobuf.Timestamp
)

// Timestamp is google.protobuf.Timestamp: seconds=1, nanos=2.
type Timestamp struct {
	Seconds int64
	Nanos   int32
}

// TimestampOf is t as a Timestamp, as timestamppb.New makes it.
func TimestampOf(t time.Time) Timestamp {
	return Timestamp{Seconds: t.Unix(), Nanos: int32(t.Nanosecond())}
}

// Time is ts in UTC, as timestamppb's AsTime reads it.
func (ts Timestamp) Time() time.Time {
	return time.Unix(ts.Seconds, int64(ts.Nanos)).UTC()
}

// AttributeValue is CloudEventAttributeValue: one typed value. Kind says
// which field holds it; String holds the string, URI and URI reference kinds.
type AttributeValue struct {
	Kind      AttributeKind
	Bool      bool
	Int       int32
	String    string
	Bytes     []byte
	Timestamp Timestamp
}

// DataKind is which member of CloudEvent's data oneof is set. Each kind's
// value is its field number.
type DataKind int

const (
	DataNone   DataKind = 0
	DataBinary DataKind = 6 // binary_data
	DataText   DataKind = 7 // text_data
	DataProto  DataKind = 8 // proto_data, google.protobuf.Any
)

// Any is google.protobuf.Any: type_url=1, value=2.
type Any struct {
	TypeURL string
	Value   []byte
}

// CloudEvent is the message of the CloudEvents protobuf format, as OCM's
// cloudevent.proto copies it: id=1, source=2, spec_version=3, type=4,
// attributes=5, and the data oneof binary_data=6, text_data=7, proto_data=8.
type CloudEvent struct {
	ID          string
	Source      string
	SpecVersion string
	Type        string
	Attributes  map[string]AttributeValue

	DataKind   DataKind
	BinaryData []byte
	TextData   string
	ProtoData  Any
}

// PublishRequest is what Publish takes: event=1.
type PublishRequest struct {
	Event *CloudEvent
}

// SubscriptionRequest is what Subscribe takes: source=1, cluster_name=2,
// data_type=3.
type SubscriptionRequest struct {
	Source      string
	ClusterName string
	DataType    string
}

// Empty is google.protobuf.Empty, the answer of Publish.
type Empty struct{}

// RawMessage is a message kept in its wire form, to be decoded later: the
// transport reads the stream into it, so that a message that does not decode
// is one malformed event and not the end of the stream.
type RawMessage []byte

// message is what the codec carries.
type message interface {
	appendWire(b []byte) ([]byte, error)
	unmarshalWire(b []byte) error
}

var (
	_ message = (*CloudEvent)(nil)
	_ message = (*PublishRequest)(nil)
	_ message = (*SubscriptionRequest)(nil)
	_ message = (*Empty)(nil)
	_ message = (*RawMessage)(nil)
)

// Marshal is m's wire form. Map entries go in the order of their keys, so
// the same message always gives the same bytes.
func (m *CloudEvent) Marshal() ([]byte, error) { return m.appendWire(nil) }

// Unmarshal reads m from its wire form.
func (m *CloudEvent) Unmarshal(b []byte) error { return m.unmarshalWire(b) }

// Marshal is m's wire form.
func (m *PublishRequest) Marshal() ([]byte, error) { return m.appendWire(nil) }

// Unmarshal reads m from its wire form.
func (m *PublishRequest) Unmarshal(b []byte) error { return m.unmarshalWire(b) }

// Marshal is m's wire form.
func (m *SubscriptionRequest) Marshal() ([]byte, error) { return m.appendWire(nil) }

// Unmarshal reads m from its wire form.
func (m *SubscriptionRequest) Unmarshal(b []byte) error { return m.unmarshalWire(b) }

// appendString appends a proto3 string field, which is left out when empty.
func appendString(b []byte, num protowire.Number, s, name string) ([]byte, error) {
	if s == "" {
		return b, nil
	}
	return appendStringAlways(b, num, s, name)
}

// appendStringAlways appends a string field even when empty, as a oneof
// member or a map key is.
func appendStringAlways(b []byte, num protowire.Number, s, name string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return nil, fmt.Errorf("%s: invalid UTF-8", name)
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s), nil
}

// appendMessage appends a message field: its tag, its length, its bytes.
func appendMessage(b []byte, num protowire.Number, m message) ([]byte, error) {
	inner, err := m.appendWire(nil)
	if err != nil {
		return nil, err
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, inner), nil
}

func (m *CloudEvent) appendWire(b []byte) ([]byte, error) {
	var err error
	for _, f := range []struct {
		num   protowire.Number
		value string
		name  string
	}{
		{1, m.ID, "id"}, {2, m.Source, "source"}, {3, m.SpecVersion, "spec_version"}, {4, m.Type, "type"},
	} {
		if b, err = appendString(b, f.num, f.value, f.name); err != nil {
			return nil, err
		}
	}
	keys := make([]string, 0, len(m.Attributes))
	for k := range m.Attributes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := m.Attributes[k]
		entry, err := appendStringAlways(nil, 1, k, "attribute name")
		if err != nil {
			return nil, err
		}
		if entry, err = appendMessage(entry, 2, &v); err != nil {
			return nil, fmt.Errorf("attribute %q: %w", k, err)
		}
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, entry)
	}
	switch m.DataKind {
	case DataNone:
	case DataBinary:
		b = protowire.AppendTag(b, 6, protowire.BytesType)
		b = protowire.AppendBytes(b, m.BinaryData)
	case DataText:
		if b, err = appendStringAlways(b, 7, m.TextData, "text_data"); err != nil {
			return nil, err
		}
	case DataProto:
		if b, err = appendMessage(b, 8, &m.ProtoData); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown data kind %d", m.DataKind)
	}
	return b, nil
}

func (v *AttributeValue) appendWire(b []byte) ([]byte, error) {
	num := protowire.Number(v.Kind)
	switch v.Kind {
	case AttrBoolean:
		b = protowire.AppendTag(b, num, protowire.VarintType)
		return protowire.AppendVarint(b, protowire.EncodeBool(v.Bool)), nil
	case AttrInteger:
		// An int32 travels sign-extended to 64 bits, as protobuf writes it.
		b = protowire.AppendTag(b, num, protowire.VarintType)
		return protowire.AppendVarint(b, uint64(int64(v.Int))), nil
	case AttrString:
		return appendStringAlways(b, num, v.String, "ce_string")
	case AttrURI:
		return appendStringAlways(b, num, v.String, "ce_uri")
	case AttrURIRef:
		return appendStringAlways(b, num, v.String, "ce_uri_ref")
	case AttrBytes:
		b = protowire.AppendTag(b, num, protowire.BytesType)
		return protowire.AppendBytes(b, v.Bytes), nil
	case AttrTimestamp:
		return appendMessage(b, num, &v.Timestamp)
	}
	return nil, fmt.Errorf("attribute value of unknown kind %d", v.Kind)
}

func (ts *Timestamp) appendWire(b []byte) ([]byte, error) {
	if ts.Seconds != 0 {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(ts.Seconds))
	}
	if ts.Nanos != 0 {
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(int64(ts.Nanos)))
	}
	return b, nil
}

func (a *Any) appendWire(b []byte) ([]byte, error) {
	b, err := appendString(b, 1, a.TypeURL, "type_url")
	if err != nil {
		return nil, err
	}
	if len(a.Value) > 0 {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, a.Value)
	}
	return b, nil
}

func (m *PublishRequest) appendWire(b []byte) ([]byte, error) {
	if m.Event == nil {
		return b, nil
	}
	return appendMessage(b, 1, m.Event)
}

func (m *SubscriptionRequest) appendWire(b []byte) ([]byte, error) {
	var err error
	if b, err = appendString(b, 1, m.Source, "source"); err != nil {
		return nil, err
	}
	if b, err = appendString(b, 2, m.ClusterName, "cluster_name"); err != nil {
		return nil, err
	}
	return appendString(b, 3, m.DataType, "data_type")
}

func (*Empty) appendWire(b []byte) ([]byte, error) { return b, nil }

func (r *RawMessage) appendWire(b []byte) ([]byte, error) { return append(b, *r...), nil }

// field is one field read off the wire: its number, its wire type, and its
// value (the varint, or the bytes of a length-delimited field).
type field struct {
	num    protowire.Number
	typ    protowire.Type
	varint uint64
	bytes  []byte
}

// readFields calls fn with each field of b in order. Fields of the fixed
// and group wire types are skipped: none of our messages has them, and
// protobuf keeps a field it does not know without failing.
func readFields(b []byte, fn func(f field) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		f := field{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.varint, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			f.bytes, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if typ != protowire.VarintType && typ != protowire.BytesType {
			continue
		}
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// setString sets *target to f as a string field. A field of another wire
// type is left alone, as protobuf keeps it as a field it does not know.
func (f field) setString(name string, target *string) error {
	if f.typ != protowire.BytesType {
		return nil
	}
	if !utf8.Valid(f.bytes) {
		return fmt.Errorf("%s: invalid UTF-8", name)
	}
	*target = string(f.bytes)
	return nil
}

func (m *CloudEvent) unmarshalWire(b []byte) error {
	*m = CloudEvent{}
	return readFields(b, func(f field) error {
		switch f.num {
		case 1:
			return f.setString("id", &m.ID)
		case 2:
			return f.setString("source", &m.Source)
		case 3:
			return f.setString("spec_version", &m.SpecVersion)
		case 4:
			return f.setString("type", &m.Type)
		case 5:
			if f.typ != protowire.BytesType {
				return nil
			}
			return m.unmarshalAttribute(f.bytes)
		case 6:
			if f.typ == protowire.BytesType {
				m.clearData()
				m.DataKind, m.BinaryData = DataBinary, slices.Clone(f.bytes)
				if m.BinaryData == nil {
					m.BinaryData = []byte{}
				}
			}
		case 7:
			if f.typ == protowire.BytesType {
				m.clearData()
				m.DataKind = DataText
				return f.setString("text_data", &m.TextData)
			}
		case 8:
			if f.typ == protowire.BytesType {
				m.clearData()
				m.DataKind = DataProto
				return m.ProtoData.unmarshalWire(f.bytes)
			}
		}
		return nil
	})
}

func (m *CloudEvent) clearData() {
	m.DataKind, m.BinaryData, m.TextData, m.ProtoData = DataNone, nil, "", Any{}
}

// unmarshalAttribute reads one entry of the attributes map: key=1, value=2.
// A later entry with the same key wins, as in protobuf.
func (m *CloudEvent) unmarshalAttribute(b []byte) error {
	var key string
	var value AttributeValue
	err := readFields(b, func(f field) error {
		switch f.num {
		case 1:
			return f.setString("attribute name", &key)
		case 2:
			if f.typ == protowire.BytesType {
				return value.unmarshalWire(f.bytes)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("attributes: %w", err)
	}
	if m.Attributes == nil {
		m.Attributes = map[string]AttributeValue{}
	}
	m.Attributes[key] = value
	return nil
}

func (v *AttributeValue) unmarshalWire(b []byte) error {
	*v = AttributeValue{}
	return readFields(b, func(f field) error {
		kind := AttributeKind(f.num)
		switch kind {
		case AttrBoolean, AttrInteger:
			if f.typ != protowire.VarintType {
				return nil
			}
			*v = AttributeValue{Kind: kind}
			if kind == AttrBoolean {
				v.Bool = protowire.DecodeBool(f.varint)
			} else {
				v.Int = int32(f.varint)
			}
		case AttrString, AttrURI, AttrURIRef:
			if f.typ == protowire.BytesType {
				*v = AttributeValue{Kind: kind}
				return f.setString("attribute value", &v.String)
			}
		case AttrBytes:
			if f.typ == protowire.BytesType {
				*v = AttributeValue{Kind: kind, Bytes: slices.Clone(f.bytes)}
				if v.Bytes == nil {
					v.Bytes = []byte{}
				}
			}
		case AttrTimestamp:
			if f.typ == protowire.BytesType {
				*v = AttributeValue{Kind: kind}
				return v.Timestamp.unmarshalWire(f.bytes)
			}
		}
		return nil
	})
}

func (ts *Timestamp) unmarshalWire(b []byte) error {
	*ts = Timestamp{}
	return readFields(b, func(f field) error {
		if f.typ != protowire.VarintType {
			return nil
		}
		switch f.num {
		case 1:
			ts.Seconds = int64(f.varint)
		case 2:
			ts.Nanos = int32(f.varint)
		}
		return nil
	})
}

func (a *Any) unmarshalWire(b []byte) error {
	*a = Any{}
	return readFields(b, func(f field) error {
		switch f.num {
		case 1:
			return f.setString("type_url", &a.TypeURL)
		case 2:
			if f.typ == protowire.BytesType {
				a.Value = slices.Clone(f.bytes)
			}
		}
		return nil
	})
}

func (m *PublishRequest) unmarshalWire(b []byte) error {
	*m = PublishRequest{}
	return readFields(b, func(f field) error {
		if f.num != 1 || f.typ != protowire.BytesType {
			return nil
		}
		m.Event = &CloudEvent{}
		if err := m.Event.unmarshalWire(f.bytes); err != nil {
			return fmt.Errorf("event: %w", err)
		}
		return nil
	})
}

func (m *SubscriptionRequest) unmarshalWire(b []byte) error {
	*m = SubscriptionRequest{}
	return readFields(b, func(f field) error {
		switch f.num {
		case 1:
			return f.setString("source", &m.Source)
		case 2:
			return f.setString("cluster_name", &m.ClusterName)
		case 3:
			return f.setString("data_type", &m.DataType)
		}
		return nil
	})
}

// unmarshalWire checks that b is well formed; Empty has no field to keep.
func (*Empty) unmarshalWire(b []byte) error {
	return readFields(b, func(field) error { return nil })
}

func (r *RawMessage) unmarshalWire(b []byte) error {
	*r = slices.Clone(b)
	return nil
}

// Codec is the gRPC codec of the service's messages. Its name is "proto",
// so the content type on the wire is application/grpc+proto, which OCM's
// generated code sends and reads. Pass it with grpc.ForceCodec on a client
// and grpc.ForceServerCodec on a server; it is not registered globally, so
// it never replaces the proto codec of other services in the process.
type Codec struct{}

// Name is the codec's content subtype.
func (Codec) Name() string { return "proto" }

// Marshal is v's wire form; v is one of this package's messages.
func (Codec) Marshal(v any) ([]byte, error) {
	m, ok := v.(message)
	if !ok {
		return nil, fmt.Errorf("grpc codec: cannot marshal %T", v)
	}
	return m.appendWire(nil)
}

// Unmarshal reads data into v; v is one of this package's messages.
func (Codec) Unmarshal(data []byte, v any) error {
	m, ok := v.(message)
	if !ok {
		return fmt.Errorf("grpc codec: cannot unmarshal into %T", v)
	}
	return m.unmarshalWire(data)
}

// errNoValue is the error of an attribute whose value has no member set.
var errNoValue = errors.New("attribute value has no member set")
