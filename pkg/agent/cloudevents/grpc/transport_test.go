package grpc_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
	cegrpc "github.com/manifestwork/work/pkg/agent/cloudevents/grpc"
	"github.com/manifestwork/work/pkg/agent/cloudevents/grpc/grpcserver"
)

const (
	wait = 10 * time.Second
	tick = 10 * time.Millisecond
)

var fastBackoff = cegrpc.WithBackoff(cegrpc.Backoff{Initial: 20 * time.Millisecond, Max: 50 * time.Millisecond, Factor: 2})

// recorder is a Handler that keeps what it is given.
type recorder struct {
	mu           sync.Mutex
	connected    int
	disconnected []error
	events       []event.Event
	malformed    []error
}

func (r *recorder) Connected(context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.connected++
}

func (r *recorder) Disconnected(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.disconnected = append(r.disconnected, err)
}

func (r *recorder) Receive(_ context.Context, e event.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) Malformed(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.malformed = append(r.malformed, err)
}

func (r *recorder) counts() (connected, disconnected, events, malformed int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.connected, len(r.disconnected), len(r.events), len(r.malformed)
}

func (r *recorder) received() []event.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]event.Event(nil), r.events...)
}

func (r *recorder) malformedErrors() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]error(nil), r.malformed...)
}

// startServer runs a test server on 127.0.0.1:0 until the test ends.
func startServer(t *testing.T, opts ...grpcserver.Option) (*grpcserver.Server, string) {
	t.Helper()
	srv := grpcserver.New(opts...)
	addr, err := srv.Start("127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(srv.Stop)
	return srv, addr
}

// runTransport runs tr until the test ends, and waits until Run returned.
func runTransport(t *testing.T, tr *cegrpc.Transport, h cloudevents.Handler) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tr.Run(ctx, h)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// workEvent is a work event of type sub.action with the extensions ext
// and JSON data.
func workEvent(id, source string, sub cloudevents.SubResource, action cloudevents.Action, ext map[string]any, data string) event.Event {
	e := event.New()
	e.SetID(id)
	e.SetSource(source)
	e.SetType(cloudevents.EventType{SubResource: sub, Action: action}.String())
	e.SetTime(time.Date(2026, 11, 27, 4, 30, 0, 123456789, time.UTC))
	for name, v := range ext {
		e.SetExtension(name, v)
	}
	_ = e.SetData("application/json", []byte(data))
	return e
}

// specEvent is a spec event as a source sends it, with every extension
// kind a work event carries.
func specEvent(id string, version int) event.Event {
	return workEvent(id, "maestro", cloudevents.SubResourceSpec, cloudevents.UpdateRequest, map[string]any{
		cloudevents.ExtResourceID:        "8f3c1a2e-work",
		cloudevents.ExtResourceVersion:   version,
		cloudevents.ExtClusterName:       "cluster1",
		cloudevents.ExtDeletionTimestamp: time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC),
	}, `{"manifests":[]}`)
}

// statusEvent is a status event as the agent sends it.
func statusEvent(id string) event.Event {
	return workEvent(id, "agent1", cloudevents.SubResourceStatus, cloudevents.UpdateRequest, map[string]any{
		cloudevents.ExtResourceID:      "8f3c1a2e-work",
		cloudevents.ExtResourceVersion: 3,
		cloudevents.ExtClusterName:     "cluster1",
		cloudevents.ExtOriginalSource:  "maestro",
		cloudevents.ExtSequenceID:      "1834",
		cloudevents.ExtStatusHash:      "ab12",
	}, `{"conditions":[]}`)
}

// requireSameEvent checks that got is want, attribute by attribute and
// extension by extension, with the extensions' types.
func requireSameEvent(t *testing.T, want, got event.Event) {
	t.Helper()
	require.Equal(t, want.ID(), got.ID())
	require.Equal(t, want.Source(), got.Source())
	require.Equal(t, want.Type(), got.Type())
	require.Equal(t, want.SpecVersion(), got.SpecVersion())
	require.True(t, want.Time().Equal(got.Time()), "time %s, want %s", got.Time(), want.Time())
	require.Equal(t, want.DataContentType(), got.DataContentType())
	require.Equal(t, string(want.Data()), string(got.Data()))
	require.Equal(t, want.Extensions(), got.Extensions())
}

func connect(t *testing.T, addr string, opts ...cegrpc.Option) (*cegrpc.Transport, *recorder) {
	t.Helper()
	tr, err := cegrpc.New(&cegrpc.Config{URL: addr}, "cluster1", "agent1", append([]cegrpc.Option{fastBackoff}, opts...)...)
	require.NoError(t, err)
	rec := &recorder{}
	runTransport(t, tr, rec)
	return tr, rec
}

func TestEventsBothWays(t *testing.T) {
	srv, addr := startServer(t)
	tr, rec := connect(t, addr)
	require.Equal(t, addr, tr.Address())

	require.Eventually(t, func() bool {
		c, _, _, _ := rec.counts()
		return c == 1 && srv.Subscribers("cluster1") == 1
	}, wait, tick)
	require.Equal(t, []cegrpc.SubscriptionRequest{{ClusterName: "cluster1", DataType: cloudevents.DataType}}, srv.Subscriptions())

	// Source to agent.
	spec := specEvent("spec-1", 3)
	require.NoError(t, srv.Send("cluster1", spec))
	require.Eventually(t, func() bool { return len(rec.received()) == 1 }, wait, tick)
	got := rec.received()[0]
	requireSameEvent(t, spec, got)
	assert.IsType(t, int32(0), got.Extensions()[cloudevents.ExtResourceVersion])
	assert.IsType(t, "", got.Extensions()[cloudevents.ExtResourceID])

	// Agent to source.
	st := statusEvent("status-1")
	require.NoError(t, tr.Publish(context.Background(), st))
	select {
	case pub := <-srv.Published():
		requireSameEvent(t, st, pub)
	case <-time.After(wait):
		t.Fatal("the server got no published event")
	}
}
