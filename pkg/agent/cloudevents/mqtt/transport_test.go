package mqtt

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
	"github.com/manifestwork/work/pkg/agent/cloudevents/mqtt/mqtttest"
)

// connected waits until h heard of its first connection.
func waitConnected(t *testing.T, h *recorder, n int) {
	t.Helper()
	require.Eventually(t, func() bool {
		c, _ := h.counts()
		return c >= n
	}, waitFor, tick, "the transport did not connect %d times", n)
}

func TestRoundTrip(t *testing.T) {
	broker := mqtttest.Start(t)
	src := newSource(t, broker.Addr())
	src.subscribe("sources/maestro/consumers/+/agentevents")

	h := &recorder{}
	tr := runTransport(t, testConfig(broker.Addr()), h)
	waitConnected(t, h, 1)

	// Source to agent: a binary-mode spec event keeps its extensions.
	src.publish(binarySpec("work-1", 3))
	require.Eventually(t, func() bool { return len(h.received()) == 1 }, waitFor, tick)
	got := h.received()[0]
	assert.Equal(t, "id-work-1", got.ID())
	assert.Equal(t, "maestro", got.Source())
	assert.Equal(t, cloudevents.EventType{SubResource: cloudevents.SubResourceSpec, Action: cloudevents.CreateRequest}.String(), got.Type())
	assert.Equal(t, "application/json", got.DataContentType())
	assert.JSONEq(t, `{"manifests":[]}`, string(got.Data()))
	ext := got.Extensions()
	assert.Equal(t, "work-1", ext[cloudevents.ExtResourceID])
	assert.EqualValues(t, "3", ext[cloudevents.ExtResourceVersion])
	assert.Equal(t, testCluster, ext[cloudevents.ExtClusterName])
	assert.Empty(t, h.malformedErrs())

	// Agent to source: a status event in binary mode on the status topic.
	require.NoError(t, tr.Publish(context.Background(), statusEvent("work-1")))
	p := src.next()
	assert.Equal(t, statusTopic, p.Topic)
	assert.EqualValues(t, 1, p.QoS)
	assert.False(t, p.Retain)
	assert.Equal(t, "application/json", p.Properties.ContentType)
	assert.Equal(t, "1.0", userProperty(p, "ce-specversion"))
	assert.Equal(t, "status-work-1", userProperty(p, "ce-id"))
	assert.Equal(t, testClientID, userProperty(p, "ce-source"))
	assert.Equal(t, cloudevents.EventType{SubResource: cloudevents.SubResourceStatus, Action: cloudevents.UpdateRequest}.String(), userProperty(p, "ce-type"))
	assert.Equal(t, "work-1", userProperty(p, "ce-resourceid"))
	assert.Equal(t, "3", userProperty(p, "ce-resourceversion"))
	assert.Equal(t, testCluster, userProperty(p, "ce-clustername"))
	assert.JSONEq(t, `{"conditions":[]}`, string(p.Payload))
}
