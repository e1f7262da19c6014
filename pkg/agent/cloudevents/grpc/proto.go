// Package grpc is the agent's gRPC transport: it speaks OCM's
// io.cloudevents.v1.CloudEventService (docs/contributors/cloudevents.md,
// gRPC) to a source's server.
//
// The messages and the service are OCM's generated code (sdk-go's
// protobuf/v1 package, imported as pbv1), so the bytes on the wire are the
// bytes OCM's agents and servers write and read. What is ours is the codec
// below, which lets a message that does not decode be one malformed event.
package grpc

import (
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"
)

// RawMessage is a message kept in its wire form, to be decoded later: the
// transport reads the stream into it, so that a message that does not decode
// is one malformed event and not the end of the stream (gRPC ends a stream
// whose codec fails).
type RawMessage []byte

// Codec is the gRPC codec of the service: protobuf for the generated
// messages, and the bytes as they are for a RawMessage. Its name is "proto",
// so the content type on the wire is application/grpc+proto, which OCM's
// generated code sends and reads. Pass it with grpc.ForceCodec on a client
// and grpc.ForceServerCodec on a server; it is not registered globally, so
// it never replaces the proto codec of other services in the process.
type Codec struct{}

// Name is the codec's content subtype.
func (Codec) Name() string { return "proto" }

// marshal writes map entries in the order of their keys, so the same
// message always gives the same bytes.
var marshal = proto.MarshalOptions{Deterministic: true}

// Marshal is v's wire form; v is a RawMessage or a protobuf message.
func (Codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case *RawMessage:
		return *m, nil
	case proto.Message:
		return marshal.Marshal(m)
	}
	return nil, fmt.Errorf("grpc codec: cannot marshal %T", v)
}

// Unmarshal reads data into v; v is a RawMessage or a protobuf message.
func (Codec) Unmarshal(data []byte, v any) error {
	switch m := v.(type) {
	case *RawMessage:
		*m = slices.Clone(data)
		return nil
	case proto.Message:
		return proto.Unmarshal(data, m)
	}
	return fmt.Errorf("grpc codec: cannot unmarshal into %T", v)
}
