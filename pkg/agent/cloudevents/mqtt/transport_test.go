package mqtt

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
	"github.com/manifestwork/work/test/cloudevents/cetest"
	"github.com/manifestwork/work/test/cloudevents/mqtttest"
)

func TestRoundTrip(t *testing.T) {
	broker := mqtttest.Start(t)
	src := newSource(t, broker.Addr())
	src.Subscribe("sources/maestro/consumers/+/agentevents")

	h := &cetest.Handler{}
	tr := runTransport(t, testConfig(broker.Addr()), h)
	h.WaitConnected(t, 1)

	// Source to agent: a binary-mode spec event keeps its extensions.
	src.Publish(binarySpec("work-1", 3))
	got := h.WaitReceived(t, 1)[0]
	assert.Equal(t, "id-work-1", got.ID())
	assert.Equal(t, "maestro", got.Source())
	assert.Equal(t, cloudevents.EventType{SubResource: cloudevents.SubResourceSpec, Action: cloudevents.CreateRequest}.String(), got.Type())
	assert.Equal(t, "application/json", got.DataContentType())
	assert.JSONEq(t, `{"manifests":[]}`, string(got.Data()))
	ext := got.Extensions()
	assert.Equal(t, "work-1", ext[cloudevents.ExtResourceID])
	assert.EqualValues(t, "3", ext[cloudevents.ExtResourceVersion])
	assert.Equal(t, testCluster, ext[cloudevents.ExtClusterName])
	assert.Empty(t, h.MalformedErrors())

	// Agent to source: a status event in binary mode on the status topic.
	require.NoError(t, tr.Publish(context.Background(), statusEvent("work-1")))
	p := src.Next()
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

func TestReceiveBinaryAndStructured(t *testing.T) {
	deleteType := cloudevents.EventType{SubResource: cloudevents.SubResourceSpec, Action: cloudevents.DeleteRequest}.String()
	structured := &paho.Publish{
		Topic:      specTopic,
		QoS:        1,
		Properties: &paho.PublishProperties{ContentType: "application/cloudevents+json"},
		Payload: []byte(`{"specversion":"1.0","id":"id-s","source":"maestro","type":"` + deleteType + `",
"resourceid":"work-s","resourceversion":4,"clustername":"cluster1","deletiontimestamp":"2026-11-27T04:00:00Z"}`),
	}
	deletion := binarySpec("work-d", 5)
	deletion.Payload = nil
	deletion.Properties.ContentType = ""
	deletion.Properties.User = append(deletion.Properties.User, paho.UserProperty{Key: "ce-deletiontimestamp", Value: "2026-11-27T04:00:00Z"})

	cases := []struct {
		name     string
		pub      *paho.Publish
		wantID   string
		wantExt  map[string]any
		wantData string
	}{
		{
			name:     "binary",
			pub:      binarySpec("work-b", 2),
			wantID:   "id-work-b",
			wantExt:  map[string]any{"resourceid": "work-b", "resourceversion": "2", "clustername": testCluster},
			wantData: `{"manifests":[]}`,
		},
		{
			name:   "binary without data",
			pub:    deletion,
			wantID: "id-work-d",
			wantExt: map[string]any{"resourceid": "work-d", "resourceversion": "5", "clustername": testCluster,
				"deletiontimestamp": "2026-11-27T04:00:00Z"},
		},
		{
			name:   "structured",
			pub:    structured,
			wantID: "id-s",
			// Structured JSON keeps the JSON types of the extensions.
			wantExt: map[string]any{"resourceid": "work-s", "resourceversion": int32(4), "clustername": testCluster,
				"deletiontimestamp": "2026-11-27T04:00:00Z"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			broker := mqtttest.Start(t)
			h := &cetest.Handler{}
			runTransport(t, testConfig(broker.Addr()), h)
			h.WaitConnected(t, 1)
			newSource(t, broker.Addr()).Publish(tc.pub)
			got := h.WaitReceived(t, 1)[0]
			assert.Equal(t, tc.wantID, got.ID())
			assert.Equal(t, tc.wantExt, got.Extensions())
			if tc.wantData == "" {
				assert.Empty(t, got.Data())
			} else {
				assert.JSONEq(t, tc.wantData, string(got.Data()))
			}
			assert.Empty(t, h.MalformedErrors())
		})
	}
}

func TestMalformedMessages(t *testing.T) {
	noID := binarySpec("work-x", 1)
	noID.Properties.User = noID.Properties.User[:1] // ce-specversion only
	unknownVersion := binarySpec("work-x", 1)
	unknownVersion.Properties.User[0].Value = "9.9"

	cases := []struct {
		name    string
		pub     *paho.Publish
		wantErr string
	}{
		{name: "no properties at all", pub: &paho.Publish{Topic: specTopic, QoS: 1, Payload: []byte("hello")}, wantErr: "neither a ce-specversion"},
		{name: "a content type that is no CloudEvents format", pub: &paho.Publish{
			Topic: specTopic, QoS: 1, Properties: &paho.PublishProperties{ContentType: "text/plain"}, Payload: []byte("hello"),
		}, wantErr: `content type "text/plain"`},
		{name: "structured, not JSON", pub: &paho.Publish{
			Topic: specTopic, QoS: 0, Properties: &paho.PublishProperties{ContentType: "application/cloudevents+json"}, Payload: []byte("{"),
		}, wantErr: "not a CloudEvent"},
		{name: "binary without id, source and type", pub: noID, wantErr: "not a valid CloudEvent"},
		{name: "an unknown spec version", pub: unknownVersion, wantErr: `unknown CloudEvents spec version "9.9"`},
	}
	broker := mqtttest.Start(t)
	h := &cetest.Handler{}
	runTransport(t, testConfig(broker.Addr()), h)
	h.WaitConnected(t, 1)
	src := newSource(t, broker.Addr())
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src.Publish(tc.pub)
			// The transport goes on: the next good event arrives.
			src.Publish(binarySpec("good-"+strconv.Itoa(i), 1))
			events := h.WaitReceived(t, i+1)
			assert.Equal(t, "good-"+strconv.Itoa(i), events[i].Extensions()[cloudevents.ExtResourceID])
			errs := h.MalformedErrors()
			require.Len(t, errs, i+1)
			assert.Contains(t, errs[i].Error(), `topic "`+specTopic+`"`)
			assert.Contains(t, errs[i].Error(), tc.wantErr)
		})
	}
}

func TestPublishWhileDisconnected(t *testing.T) {
	t.Run("never connected", func(t *testing.T) {
		// A port nothing listens on: take one and close it.
		broker := mqtttest.Start(t)
		addr := broker.Addr()
		broker.Stop()
		h := &cetest.Handler{}
		tr := runTransport(t, testConfig(addr), h)
		start := time.Now()
		err := tr.Publish(context.Background(), statusEvent("w"))
		assert.ErrorIs(t, err, cloudevents.ErrDisconnected)
		assert.Less(t, time.Since(start), time.Second, "Publish fails at once")
		c := h.Counts().Connected
		assert.Zero(t, c)
	})
	t.Run("before Run", func(t *testing.T) {
		tr, err := New(testConfig("127.0.0.1:1"), testCluster, testClientID)
		require.NoError(t, err)
		assert.ErrorIs(t, tr.Publish(context.Background(), statusEvent("w")), cloudevents.ErrDisconnected)
	})
	t.Run("broker stopped", func(t *testing.T) {
		broker := mqtttest.Start(t)
		h := &cetest.Handler{}
		tr := runTransport(t, testConfig(broker.Addr()), h)
		h.WaitConnected(t, 1)
		require.NoError(t, tr.Publish(context.Background(), statusEvent("w")))
		broker.Stop()
		require.Eventually(t, func() bool { return h.Counts().Disconnected == 1 }, waitFor, tick)
		start := time.Now()
		assert.ErrorIs(t, tr.Publish(context.Background(), statusEvent("w")), cloudevents.ErrDisconnected)
		assert.Less(t, time.Since(start), time.Second, "Publish fails at once")
	})
}

func TestBrokerRestart(t *testing.T) {
	broker := mqtttest.Start(t)
	h := &cetest.Handler{}
	tr := runTransport(t, testConfig(broker.Addr()), h)
	h.WaitConnected(t, 1)
	require.Equal(t, []string{testClientID + "-client"}, broker.Clients())

	for round := 1; round <= 2; round++ {
		broker.Restart() // empty: no session, no subscription
		require.Eventually(t, func() bool {
			got := h.Counts()
			return got.Disconnected == round && got.Connected == round+1
		}, waitFor, tick, "Disconnected, then Connected again")

		// Events flow again both ways, on the new subscription.
		src := newSource(t, broker.Addr())
		src.Subscribe("sources/maestro/consumers/+/agentevents")
		src.Publish(binarySpec("after-restart-"+strconv.Itoa(round), round))
		events := h.WaitReceived(t, round)
		assert.Equal(t, "after-restart-"+strconv.Itoa(round), events[round-1].Extensions()[cloudevents.ExtResourceID])
		require.NoError(t, tr.Publish(context.Background(), statusEvent("w"+strconv.Itoa(round))))
		assert.Equal(t, "w"+strconv.Itoa(round), userProperty(src.Next(), "ce-resourceid"))
	}
}

func TestCredentials(t *testing.T) {
	cases := []struct {
		name          string
		password      string
		wantConnected bool
	}{
		{name: "accepted", password: "good", wantConnected: true},
		{name: "refused", password: "bad"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			broker := mqtttest.Start(t, mqtttest.WithUser("agent", "good"))
			cfg := testConfig(broker.Addr())
			cfg.Username, cfg.Password = "agent", tc.password
			var attempts atomic.Int32
			h := &cetest.Handler{}
			tr, err := New(cfg, testCluster, testClientID, WithBackoff(func() time.Duration {
				attempts.Add(1)
				return 10 * time.Millisecond
			}))
			require.NoError(t, err)
			defer start(tr, h)()
			if tc.wantConnected {
				h.WaitConnected(t, 1)
				require.NoError(t, tr.Publish(context.Background(), statusEvent("w")))
				return
			}
			// Refused: the transport keeps trying, and never says it is up.
			require.Eventually(t, func() bool { return attempts.Load() >= 5 }, waitFor, tick, "the transport retries")
			assert.Zero(t, h.Counts().Connected)
			assert.Zero(t, h.Counts().Disconnected)
			assert.ErrorIs(t, tr.Publish(context.Background(), statusEvent("w")), cloudevents.ErrDisconnected)
		})
	}
}

func TestTopicsOfEachEvent(t *testing.T) {
	broker := mqtttest.Start(t)
	cfg := testConfig(broker.Addr())
	cfg.Topics.AgentBroadcast = "clusters/+/agentbroadcast"
	src := newSource(t, broker.Addr())
	src.Subscribe("sources/maestro/consumers/+/agentevents")
	src.Subscribe("clusters/+/agentbroadcast")

	h := &cetest.Handler{}
	tr := runTransport(t, cfg, h)
	h.WaitConnected(t, 1)

	cases := []struct {
		action    cloudevents.EventType
		wantTopic string
	}{
		{cloudevents.EventType{SubResource: cloudevents.SubResourceSpec, Action: cloudevents.ResyncRequest}, "clusters/cluster1/agentbroadcast"},
		{cloudevents.EventType{SubResource: cloudevents.SubResourceStatus, Action: cloudevents.UpdateRequest}, statusTopic},
		{cloudevents.EventType{SubResource: cloudevents.SubResourceStatus, Action: cloudevents.DeleteRequest}, statusTopic},
		{cloudevents.EventType{SubResource: cloudevents.SubResourceStatus, Action: cloudevents.ResyncResponse}, statusTopic},
	}
	for _, tc := range cases {
		t.Run(tc.action.String(), func(t *testing.T) {
			e := statusEvent("w")
			e.SetType(tc.action.String())
			require.NoError(t, tr.Publish(context.Background(), e))
			p := src.Next()
			assert.Equal(t, tc.wantTopic, p.Topic)
			assert.Equal(t, tc.action.String(), userProperty(p, "ce-type"))
		})
	}

	// The source's broadcast reaches the agent too.
	bc := binarySpec("broadcast", 1)
	bc.Topic = "sources/maestro/sourcebroadcast"
	src.Publish(bc)
	h.WaitReceived(t, 1)
}

func TestConnectedMayPublishAndOrderIsKept(t *testing.T) {
	broker := mqtttest.Start(t)
	src := newSource(t, broker.Addr())
	src.Subscribe("sources/maestro/consumers/+/agentevents")

	var tr *Transport
	var publishErr atomic.Value
	h := &cetest.Handler{}
	h.OnConnected = func(ctx context.Context) {
		// What the Hub does: ask for specs from inside Connected.
		e := statusEvent("resync")
		e.SetType(cloudevents.EventType{SubResource: cloudevents.SubResourceSpec, Action: cloudevents.ResyncRequest}.String())
		if err := tr.Publish(ctx, e); err != nil {
			publishErr.Store(err)
		}
	}
	tr, err := New(testConfig(broker.Addr()), testCluster, testClientID, WithBackoff(fastBackoff))
	require.NoError(t, err)
	defer start(tr, h)()

	p := src.Next()
	assert.Equal(t, "resync", userProperty(p, "ce-resourceid"))
	assert.Nil(t, publishErr.Load())

	const n = 200
	for i := range n {
		src.Publish(binarySpec("w"+strconv.Itoa(i), i))
	}
	for i, e := range h.WaitReceived(t, n) {
		assert.Equal(t, "w"+strconv.Itoa(i), e.Extensions()[cloudevents.ExtResourceID])
	}
}

func TestRunEndsWithItsContext(t *testing.T) {
	broker := mqtttest.Start(t)
	h := &cetest.Handler{}
	tr, err := New(testConfig(broker.Addr()), testCluster, testClientID, WithBackoff(fastBackoff))
	require.NoError(t, err)
	stop := start(tr, h)
	h.WaitConnected(t, 1)

	// A second Run does nothing but wait for its context.
	other := &cetest.Handler{}
	start(tr, other)()
	c := other.Counts().Connected
	assert.Zero(t, c)
	require.NoError(t, tr.Publish(context.Background(), statusEvent("w")), "the first Run goes on")

	stopped := make(chan struct{})
	go func() {
		stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(waitFor):
		t.Fatal("Run did not return after its context ended")
	}
	got := h.Counts()
	assert.Equal(t, 1, got.Connected)
	assert.Equal(t, 1, got.Disconnected, "the Handler hears that the connection is gone")
	assert.ErrorIs(t, tr.Publish(context.Background(), statusEvent("w")), cloudevents.ErrDisconnected)
	require.Eventually(t, func() bool { return len(broker.Clients()) == 0 }, waitFor, tick, "the client disconnected")
}

func TestSubscriptionRefused(t *testing.T) {
	broker := mqtttest.Start(t, mqtttest.WithDenied("sources/+/consumers/+/sourceevents"))
	var attempts atomic.Int32
	h := &cetest.Handler{}
	tr, err := New(testConfig(broker.Addr()), testCluster, testClientID, WithBackoff(func() time.Duration {
		attempts.Add(1)
		return fastBackoff()
	}))
	require.NoError(t, err)
	t.Cleanup(start(tr, h))

	// Each connection comes up, its subscription is refused, and the
	// transport drops it to try again; it never tells the Handler it is up.
	require.Eventually(t, func() bool { return attempts.Load() >= 3 }, waitFor, tick, "the transport retries")
	assert.Zero(t, h.Counts().Connected)
	assert.Zero(t, h.Counts().Disconnected)
	assert.ErrorIs(t, tr.Publish(context.Background(), statusEvent("w")), cloudevents.ErrDisconnected)
}

func TestNew(t *testing.T) {
	cases := []struct {
		name     string
		cfg      *Config
		cluster  string
		clientID string
		wantErr  string
	}{
		{name: "no config", cluster: testCluster, clientID: testClientID, wantErr: "no config"},
		{name: "no client id", cfg: testConfig("b:1"), cluster: testCluster, wantErr: "client id"},
		{name: "no cluster", cfg: testConfig("b:1"), clientID: testClientID, wantErr: "test-config.yaml: cluster name: required"},
		{name: "no cluster, no file", cfg: &Config{BrokerHost: "b:1"}, clientID: testClientID, wantErr: "MQTT config: cluster name: required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.cfg, tc.cluster, tc.clientID)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
		})
	}
	tr, err := New(testConfig("broker.example.com:1883"), testCluster, testClientID)
	require.NoError(t, err)
	assert.Equal(t, "broker.example.com:1883", tr.Address())
	assert.Equal(t, "agent1-client", tr.ClientID())
	assert.Equal(t, specTopic, tr.Topics().Spec)
}
