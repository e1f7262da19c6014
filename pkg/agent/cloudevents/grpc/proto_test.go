package grpc

import (
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	pbv1 "open-cluster-management.io/sdk-go/pkg/cloudevents/generic/options/grpc/protobuf/v1"
)

// TestCodec checks that the codec carries the generated messages as
// protobuf, a RawMessage as its bytes, and that bytes which are not a
// CloudEvent fail only when the transport decodes them, after the stream
// handed them over.
func TestCodec(t *testing.T) {
	c := Codec{}
	event := &pbv1.CloudEvent{Id: "a", Source: "s", SpecVersion: "1.0", Type: "t",
		Attributes: map[string]*pbv1.CloudEventAttributeValue{
			"ce-b": {Attr: &pbv1.CloudEventAttributeValue_CeInteger{CeInteger: 2}},
			"ce-a": {Attr: &pbv1.CloudEventAttributeValue_CeString{CeString: "x"}},
		},
		Data: &pbv1.CloudEvent_BinaryData{BinaryData: []byte("{}")},
	}
	b, err := c.Marshal(event)
	require.NoError(t, err)
	again, err := c.Marshal(proto.Clone(event))
	require.NoError(t, err)
	require.Equal(t, b, again, "the same message gives the same bytes")

	var raw RawMessage
	require.NoError(t, c.Unmarshal(b, &raw))
	require.Equal(t, RawMessage(b), raw)
	out, err := c.Marshal(&raw)
	require.NoError(t, err)
	require.Equal(t, b, out)

	back := &pbv1.CloudEvent{}
	require.NoError(t, c.Unmarshal(raw, back))
	require.True(t, proto.Equal(event, back), "%v", back)

	for name, bad := range map[string][]byte{
		"truncated":            {0x0a, 0x05, 'a'},
		"id not UTF-8":         {0x0a, 0x01, 0xff},
		"field number zero":    {0x00, 0x01},
		"broken attribute":     {0x2a, 0x03, 0x0a, 0x05, 'a'},
		"broken timestamp":     {0x2a, 0x05, 0x12, 0x03, 0x3a, 0x01, 0x08},
		"truncated tag":        {0x80},
		"wrong wire type here": {0x2a, 0x01, 0x08},
	} {
		var raw RawMessage
		require.NoError(t, c.Unmarshal(bad, &raw), name)
		require.Error(t, proto.Unmarshal(raw, &pbv1.CloudEvent{}), name)
	}

	_, err = c.Marshal(&pbv1.CloudEvent{Id: "\xff"})
	require.ErrorContains(t, err, "invalid UTF-8")
	_, err = c.Marshal("not a message")
	require.ErrorContains(t, err, "cannot marshal string")
	require.ErrorContains(t, c.Unmarshal(b, new(string)), "cannot unmarshal into *string")
}
