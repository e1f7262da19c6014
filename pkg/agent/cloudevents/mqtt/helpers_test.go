package mqtt

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/eclipse/paho.golang/paho"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
	"github.com/manifestwork/work/test/cloudevents/mqtttest"
)

const (
	testCluster  = "cluster1"
	testClientID = "agent1"
	specTopic    = "sources/maestro/consumers/cluster1/sourceevents"
	statusTopic  = "sources/maestro/consumers/cluster1/agentevents"
	// waitFor bounds every poll of the tests.
	waitFor = 20 * time.Second
	tick    = 10 * time.Millisecond
)

// testConfig is a loaded config for a broker at addr, with the topics of a
// Maestro-like source.
func testConfig(addr string) *Config {
	return &Config{
		BrokerHost:  addr,
		KeepAlive:   60,
		DialTimeout: 5 * time.Second,
		PubQoS:      1,
		SubQoS:      1,
		Topics: Topics{
			SourceEvents:    "sources/maestro/consumers/+/sourceevents",
			AgentEvents:     "sources/maestro/consumers/+/agentevents",
			SourceBroadcast: "sources/+/sourcebroadcast",
		},
		Path: "test-config.yaml",
	}
}

// fastBackoff reconnects the tests' transports within milliseconds.
func fastBackoff() time.Duration { return 20 * time.Millisecond }

// runTransport builds a transport for cfg and runs it until the test ends.
func runTransport(t *testing.T, cfg *Config, h cloudevents.Handler) *Transport {
	t.Helper()
	tr, err := New(cfg, testCluster, testClientID, WithBackoff(fastBackoff))
	require.NoError(t, err)
	t.Cleanup(start(tr, h))
	return tr
}

// start runs tr in the background; the function it returns ends the run
// and waits for Run to return.
func start(tr *Transport, h cloudevents.Handler) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tr.Run(ctx, h)
	}()
	return func() {
		cancel()
		<-done
	}
}

// newSource connects a client that plays the source's part.
func newSource(t *testing.T, addr string) *mqtttest.Client {
	return mqtttest.Connect(t, addr, "source")
}

// binarySpec is a spec create request in binary mode, written by hand as
// OCM's source writes it: data as payload, attributes as ce-* properties.
func binarySpec(resourceID string, version int) *paho.Publish {
	return &paho.Publish{
		Topic: specTopic,
		QoS:   1,
		Properties: &paho.PublishProperties{
			ContentType: "application/json",
			User: paho.UserProperties{
				{Key: "ce-specversion", Value: "1.0"},
				{Key: "ce-id", Value: "id-" + resourceID},
				{Key: "ce-source", Value: "maestro"},
				{Key: "ce-type", Value: cloudevents.EventType{SubResource: cloudevents.SubResourceSpec, Action: cloudevents.CreateRequest}.String()},
				{Key: "ce-resourceid", Value: resourceID},
				{Key: "ce-resourceversion", Value: strconv.Itoa(version)},
				{Key: "ce-clustername", Value: testCluster},
			},
		},
		Payload: []byte(`{"manifests":[]}`),
	}
}

// statusEvent is a status update of the agent, as the Hub would publish.
func statusEvent(resourceID string) event.Event {
	e := event.New()
	e.SetID("status-" + resourceID)
	e.SetSource(testClientID)
	e.SetType(cloudevents.EventType{SubResource: cloudevents.SubResourceStatus, Action: cloudevents.UpdateRequest}.String())
	e.SetExtension(cloudevents.ExtResourceID, resourceID)
	e.SetExtension(cloudevents.ExtResourceVersion, 3)
	e.SetExtension(cloudevents.ExtClusterName, testCluster)
	_ = e.SetData("application/json", map[string]any{"conditions": []any{}})
	return e
}

// userProperty is the value of the user property key of p, "" without it.
func userProperty(p *paho.Publish, key string) string {
	if p.Properties == nil {
		return ""
	}
	return p.Properties.User.Get(key)
}
