package cloudevents

import (
	"context"
	"sync"
	"testing"
	"time"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/client/informers/externalversions"
	"github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/test/fixture"
)

const (
	cluster = "cluster1"
	source  = "maestro"
	agentID = "cluster1-work-agent"
)

// fakeTransport records what the Hub publishes and refuses while down.
type fakeTransport struct {
	mu        sync.Mutex
	published []cloudevents.Event
	down      bool
}

func (f *fakeTransport) Run(ctx context.Context, h Handler) { h.Connected(ctx); <-ctx.Done() }
func (f *fakeTransport) Address() string                    { return "broker.example.com:1883" }

func (f *fakeTransport) Publish(_ context.Context, e cloudevents.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return ErrDisconnected
	}
	f.published = append(f.published, e)
	return nil
}

func (f *fakeTransport) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

// take returns what was published since the last call.
func (f *fakeTransport) take() []cloudevents.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.published
	f.published = nil
	return out
}

func newTestHub() (*Hub, *fakeTransport) {
	t := &fakeTransport{}
	return NewHub(Deps{ClusterName: cluster, ClientID: agentID, Transport: t}), t
}

func work(name string) *workv1.ManifestWork {
	return fixture.NewWork(cluster, name).WithUID(types.UID(name)).
		WithManifest(fixture.ConfigMap("default", "cm-"+name, map[string]string{"a": "b"})).Build()
}

func readStatus(t *testing.T, e cloudevents.Event) fixture.Status {
	t.Helper()
	s, err := fixture.ReadStatus(e)
	require.NoError(t, err)
	return s
}

// On each connection the agent asks for the specs it misses, listing what
// it holds; on a reconnect it then lets the agent send what failed. The
// gauge work_cluster_unreachable{cluster="hub"} is 1 while disconnected.
func TestConnectedAsksForSpecs(t *testing.T) {
	metrics.Register() // the gauge records only once registered
	unreachable := func() float64 { return controllertest.GaugeValue(t, metrics.ClusterUnreachable.WithLabelValues("hub")) }
	h, tr := newTestHub()
	ctx := context.Background()
	reconnects := 0
	h.Monitor().OnReconnect(func() { reconnects++ })
	h.Connected(ctx)
	assert.Zero(t, unreachable())
	sent := tr.take()
	require.Len(t, sent, 1)
	assert.Equal(t, fixture.SpecResyncType, sent[0].Type())
	assert.JSONEq(t, `{"resourceVersions":[]}`, string(sent[0].Data()))
	assert.Equal(t, 0, reconnects)

	h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 4))
	h.Disconnected(nil)
	assert.Equal(t, 1.0, unreachable())
	h.Connected(ctx)
	assert.Zero(t, unreachable())
	sent = tr.take()
	require.Len(t, sent, 1)
	assert.JSONEq(t, `{"resourceVersions":[{"resourceID":"w","resourceVersion":4}]}`, string(sent[0].Data()))
	assert.Equal(t, "", sent[0].Extensions()[ExtOriginalSource])
	assert.Equal(t, 1, reconnects)
}

// The copy serves informers as an API server would: they list, watch from
// the list's version, and see every change.
func TestInformerOnTheCopy(t *testing.T) {
	h, _ := newTestHub()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecCreateType, work("a"), 1))
	factory := externalversions.NewSharedInformerFactoryWithOptions(h.WatchClient(), 0, externalversions.WithNamespace(cluster))
	informer := factory.Work().V1().ManifestWorks()
	informer.Informer()
	factory.Start(ctx.Done())
	require.True(t, cache.WaitForCacheSync(ctx.Done(), informer.Informer().HasSynced))

	h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecCreateType, work("b"), 1))
	h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecUpdateType, work("a"), 2))
	require.Eventually(t, func() bool {
		a, errA := informer.Lister().ManifestWorks(cluster).Get("a")
		_, errB := informer.Lister().ManifestWorks(cluster).Get("b")
		return errA == nil && errB == nil && a.Generation == 2
	}, 10*time.Second, 10*time.Millisecond)
}

func retype(e cloudevents.Event, t string) cloudevents.Event { e.SetType(t); return e }

func without(e cloudevents.Event, ext string) cloudevents.Event {
	delete(e.Context.(*cloudevents.EventContextV1).Extensions, ext)
	return e
}

func withData(e cloudevents.Event, data string) cloudevents.Event {
	e.DataEncoded = []byte(data)
	return e
}
