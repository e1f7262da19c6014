package cloudevents

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/client/informers/externalversions"
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

// Spec events change the local copy as the source means them: new works,
// newer specs, deletions; duplicates, late and foreign events change
// nothing; a bad spec is refused with a condition and the last good spec
// stays.
func TestSpecEvents(t *testing.T) {
	big := fixture.NewWork(cluster, "w").WithUID("w").
		WithManifest(fixture.ConfigMap("default", "big", map[string]string{"a": strings.Repeat("x", 600*1024)})).Build()
	tests := []struct {
		name   string
		events []cloudevents.Event
		// want is the generation of work "w" in the copy; 0 when absent.
		want         int64
		wantDeleting bool
		// wantRefused is the reason in the status sent for the last event,
		// if any.
		wantRefused string
	}{
		{name: "create", events: []cloudevents.Event{fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1)}, want: 1},
		{name: "update", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1),
			fixture.SpecEvent(source, fixture.SpecUpdateType, work("w"), 2),
		}, want: 2},
		{name: "late update ignored", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 3),
			fixture.SpecEvent(source, fixture.SpecUpdateType, work("w"), 2),
		}, want: 3},
		{name: "an update's action is not trusted", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecUpdateType, work("w"), 4),
		}, want: 4},
		{name: "deletion", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1),
			fixture.DeleteEvent(source, cluster, "w", 1),
		}, want: 1, wantDeleting: true},
		{name: "deletion of an unknown work", events: []cloudevents.Event{
			fixture.DeleteEvent(source, cluster, "w", 5),
		}, want: 5, wantDeleting: true},
		{name: "spec after deletion ignored", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1),
			fixture.DeleteEvent(source, cluster, "w", 1),
			fixture.SpecEvent(source, fixture.SpecUpdateType, work("w"), 2),
		}, want: 1, wantDeleting: true},
		{name: "another cluster", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, fixture.NewWork("cluster2", "w").WithUID("w").Build(), 1),
		}},
		{name: "unknown type", events: []cloudevents.Event{
			retype(fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1), "io.open-cluster-management.works.v1alpha1.manifestbundles"),
		}},
		{name: "no resource id", events: []cloudevents.Event{
			without(fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1), ExtResourceID),
		}},
		{name: "data that is no manifest bundle", events: []cloudevents.Event{
			withData(fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1), `{"manifests": 3}`),
		}, wantRefused: InvalidSpecReason},
		{name: "too large", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, big, 1),
		}, wantRefused: InvalidSpecReason},
		{name: "invalid update keeps the last good spec", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1),
			fixture.SpecEvent(source, fixture.SpecUpdateType, fixture.NewWork(cluster, "w").WithUID("w").Build(), 2),
		}, want: 1, wantRefused: InvalidSpecReason},
		{name: "a good spec after a bad one", events: []cloudevents.Event{
			fixture.SpecEvent(source, fixture.SpecCreateType, big, 1),
			fixture.SpecEvent(source, fixture.SpecUpdateType, work("w"), 2),
		}, want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, tr := newTestHub()
			for _, e := range tt.events[:len(tt.events)-1] {
				h.Receive(context.Background(), e)
			}
			tr.take()
			h.Receive(context.Background(), tt.events[len(tt.events)-1])
			got, ok := h.store.get("w")
			if tt.want == 0 {
				assert.False(t, ok, "no work")
			} else {
				require.True(t, ok)
				assert.Equal(t, tt.want, got.Generation)
				assert.Equal(t, tt.wantDeleting, got.DeletionTimestamp != nil)
				assert.Equal(t, types.UID("w"), got.UID)
				assert.Equal(t, source, got.Labels[OriginalSourceLabel])
			}
			sent := tr.take()
			if tt.wantRefused == "" {
				assert.Empty(t, sent)
				return
			}
			require.NotEmpty(t, sent)
			status := readStatus(t, sent[len(sent)-1])
			c := meta.FindStatusCondition(status.Status.Conditions, workv1.WorkStalled)
			require.NotNil(t, c)
			assert.Equal(t, tt.wantRefused, c.Reason)
			assert.Equal(t, "w", status.ResourceID)
			t.Log(c.Message)
		})
	}
}

// Every field a spec event carries survives into the work the agent
// applies, those newer than OCM v1.0's api module included.
func TestSpecFieldsSurvive(t *testing.T) {
	config := fixture.WithConditionRules(fixture.WithStrategy(fixture.Config("apps", "deployments", "default", "web"), workv1.UpdateStrategyTypeServerSideApply),
		fixture.CELRule("Ready", "object.status.readyReplicas > 0"))
	config.UpdateStrategy.ServerSideApply = &workv1.ServerSideApplyConfig{
		FieldManager: "mine", Force: true,
		IgnoreFields: []workv1.IgnoreField{{Condition: workv1.IgnoreFieldsConditionOnSpokeChange, JSONPaths: []string{".spec.replicas"}}},
	}
	config.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	config.FeedbackScrapeType = workv1.FeedbackWatchType
	w := fixture.NewWork(cluster, "web").WithUID("uid-1").WithManifest(fixture.Deployment("default", "web", 1)).
		WithConfig(config).WithDeleteOption(fixture.OrphanAll()).WithExecutor("default", "deployer").Build()
	w.Labels = map[string]string{"app": "web"}
	w.Annotations = map[string]string{"note": "n"}

	s, err := decodeSpec(fixture.SpecEvent(source, fixture.SpecCreateType, w, 7))
	require.NoError(t, err)
	require.NoError(t, s.Invalid)
	assert.Equal(t, w.Spec, s.Work.Spec)
	assert.Equal(t, int64(7), s.Work.Generation)
	assert.Equal(t, "web", s.MetaName)
	assert.Equal(t, "web", s.Work.Labels["app"])
	assert.Equal(t, "n", s.Work.Annotations["note"])
}

// A new work is named as the metadata of its event names it (OCM's agent
// from v1.1 on), unless an AppliedManifestWork exists under its resource id
// (OCM v1.0.0's agent names works so); a work keeps its name.
func TestNaming(t *testing.T) {
	named := fixture.NewWork(cluster, "web").WithUID("uid-1").WithManifest(fixture.ConfigMap("default", "web", nil)).Build()
	tests := []struct {
		name    string
		event   cloudevents.Event
		applied []string // AppliedManifestWorks by work name
		before  []cloudevents.Event
		want    string
	}{
		{name: "metadata", event: fixture.SpecEvent(source, fixture.SpecCreateType, named, 1), want: "web"},
		{name: "no metadata", event: without(fixture.SpecEvent(source, fixture.SpecCreateType, named, 1), ExtMetadata), want: "uid-1"},
		{name: "applied under the resource id", event: fixture.SpecEvent(source, fixture.SpecCreateType, named, 1),
			applied: []string{"uid-1"}, want: "uid-1"},
		{name: "applied under the name", event: fixture.SpecEvent(source, fixture.SpecCreateType, named, 1),
			applied: []string{"web"}, want: "web"},
		{name: "a deletion of an unknown work", event: withMeta(fixture.DeleteEvent(source, cluster, "uid-1", 1), "web"),
			applied: []string{"uid-1"}, want: "uid-1"},
		{name: "a name another work has", before: []cloudevents.Event{fixture.SpecEvent(source, fixture.SpecCreateType,
			fixture.NewWork(cluster, "web").WithUID("uid-0").WithManifest(fixture.ConfigMap("default", "other", nil)).Build(), 1)},
			event: fixture.SpecEvent(source, fixture.SpecCreateType, named, 1), want: "uid-1"},
		{name: "a work keeps its name", before: []cloudevents.Event{without(fixture.SpecEvent(source, fixture.SpecCreateType, named, 1), ExtMetadata)},
			event: fixture.SpecEvent(source, fixture.SpecUpdateType, named, 2), want: "uid-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHub(Deps{ClusterName: cluster, ClientID: agentID, Transport: &fakeTransport{},
				Applied: func(_ context.Context, name string) (bool, error) { return slices.Contains(tt.applied, name), nil }})
			for _, e := range append(tt.before, tt.event) {
				h.Receive(context.Background(), e)
			}
			w, ok := h.store.byID("uid-1")
			require.True(t, ok)
			assert.Equal(t, tt.want, w.Name)
			_, err := h.Client().WorkV1().ManifestWorks(cluster).Get(context.Background(), tt.want, metav1.GetOptions{})
			assert.NoError(t, err)
		})
	}
}

func withMeta(e cloudevents.Event, name string) cloudevents.Event {
	e.SetExtension(ExtMetadata, `{"name":"`+name+`"}`)
	return e
}

// A status patch goes to the source first, then into the copy; while the
// broker is away it fails as an unavailable hub would, and nothing changes.
func TestStatusPatch(t *testing.T) {
	h, tr := newTestHub()
	ctx := context.Background()
	h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 3))
	client := h.Client().WorkV1().ManifestWorks(cluster)
	current, err := client.Get(ctx, "w", metav1.GetOptions{})
	require.NoError(t, err)

	applied := metav1.Condition{Type: workv1.WorkApplied, Status: metav1.ConditionTrue, Reason: "AppliedManifestWorkComplete",
		ObservedGeneration: 3, LastTransitionTime: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}
	patch := statusPatchOf(t, current.ResourceVersion, applied)

	tr.setDown(true)
	_, err = client.Patch(ctx, "w", types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	require.True(t, apierrors.IsServiceUnavailable(err), "got %v", err)
	unchanged, _ := client.Get(ctx, "w", metav1.GetOptions{})
	assert.Empty(t, unchanged.Status.Conditions)

	tr.setDown(false)
	updated, err := client.Patch(ctx, "w", types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	require.NoError(t, err)
	require.Len(t, updated.Status.Conditions, 1)
	sent := tr.take()
	require.Len(t, sent, 1)
	status := readStatus(t, sent[0])
	assert.Equal(t, fixture.StatusUpdateType, status.Type)
	assert.Equal(t, fixture.Status{
		Type: fixture.StatusUpdateType, ResourceID: "w", Version: 3, Cluster: cluster, Source: agentID, Original: source,
		Hash: status.Hash, Sequence: status.Sequence, Status: updated.Status,
	}, status)
	hash, err := hashStatus(updated.Status)
	require.NoError(t, err)
	assert.Equal(t, hash, status.Hash)

	_, err = client.Patch(ctx, "w", types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	require.True(t, apierrors.IsConflict(err), "a patch of an older resource version: got %v", err)

	_, err = client.Patch(ctx, "w", types.MergePatchType, statusPatchOf(t, updated.ResourceVersion, applied), metav1.PatchOptions{}, "status")
	require.NoError(t, err)
	assert.Empty(t, tr.take(), "the same status is not sent again")
}

// The agent's finalizer stays local; its removal from a work being deleted
// sends the last status, with Deleted, and the work leaves the copy.
func TestFinalizerPatches(t *testing.T) {
	h, tr := newTestHub()
	ctx := context.Background()
	h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 1))
	client := h.Client().WorkV1().ManifestWorks(cluster)
	current, _ := client.Get(ctx, "w", metav1.GetOptions{})
	withFinalizer, err := client.Patch(ctx, "w", types.MergePatchType,
		finalizerPatch(t, current.ResourceVersion, workv1.ManifestWorkFinalizer), metav1.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{workv1.ManifestWorkFinalizer}, withFinalizer.Finalizers)
	assert.Empty(t, tr.take())

	h.Receive(ctx, fixture.DeleteEvent(source, cluster, "w", 1))
	deleting, _ := client.Get(ctx, "w", metav1.GetOptions{})
	require.NotNil(t, deleting.DeletionTimestamp)
	assert.Equal(t, []string{workv1.ManifestWorkFinalizer}, deleting.Finalizers)

	_, err = client.Patch(ctx, "w", types.MergePatchType, finalizerPatch(t, deleting.ResourceVersion), metav1.PatchOptions{})
	require.NoError(t, err)
	sent := tr.take()
	require.Len(t, sent, 1)
	status := readStatus(t, sent[0])
	assert.Equal(t, fixture.StatusDeleteType, status.Type)
	deleted := meta.FindStatusCondition(status.Status.Conditions, DeletedCondition)
	require.NotNil(t, deleted)
	assert.Equal(t, "ManifestsDeleted", deleted.Reason)
	_, err = client.Get(ctx, "w", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err))
}

// A source's status resync gets the status of each work whose hash it does
// not have; an empty list asks for every work of that source.
func TestStatusResync(t *testing.T) {
	h, tr := newTestHub()
	ctx := context.Background()
	for _, name := range []string{"a", "b", "c"} {
		h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecCreateType, work(name), 1))
	}
	h.Receive(ctx, fixture.SpecEvent("other-source", fixture.SpecCreateType, work("d"), 1))
	a, _ := h.store.get("a")
	hashA, err := hashStatus(a.Status)
	require.NoError(t, err)

	tests := []struct {
		name   string
		hashes map[string]string
		want   []string
	}{
		{"every work of the source", nil, []string{"a", "b", "c"}},
		{"only those that differ", map[string]string{"a": hashA, "b": "stale"}, []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.Receive(ctx, fixture.StatusResyncEvent(source, cluster, tt.hashes))
			var got []string
			for _, e := range tr.take() {
				s := readStatus(t, e)
				assert.Equal(t, fixture.StatusReplyType, s.Type)
				got = append(got, s.ResourceID)
			}
			assert.ElementsMatch(t, tt.want, got)
		})
	}
}

// On each connection the agent asks for the specs it misses, listing what
// it holds; on a reconnect it then lets the agent send what failed.
func TestConnectedAsksForSpecs(t *testing.T) {
	h, tr := newTestHub()
	ctx := context.Background()
	reconnects := 0
	h.Monitor().OnReconnect(func() { reconnects++ })
	h.Connected(ctx)
	sent := tr.take()
	require.Len(t, sent, 1)
	assert.Equal(t, fixture.SpecResyncType, sent[0].Type())
	assert.JSONEq(t, `{"resourceVersions":[]}`, string(sent[0].Data()))
	assert.Equal(t, 0, reconnects)

	h.Receive(ctx, fixture.SpecEvent(source, fixture.SpecCreateType, work("w"), 4))
	h.Disconnected(nil)
	h.Connected(ctx)
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

// A watch from a version the history no longer holds is refused with 410
// Gone, so that the informer lists again.
func TestWatchHistory(t *testing.T) {
	s := newStore()
	for i := range historySize + 10 {
		s.put(&workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Name: "w", Generation: int64(i)}})
	}
	_, err := s.watch("1", labels.Everything())
	assert.True(t, apierrors.IsResourceExpired(err), "got %v", err)

	from := s.version - 3
	w, err := s.watch(strconv.FormatUint(from, 10), labels.Everything())
	require.NoError(t, err)
	defer w.Stop()
	for range 3 {
		e := <-w.ResultChan()
		from++
		assert.Equal(t, strconv.FormatUint(from, 10), e.Object.(*workv1.ManifestWork).ResourceVersion)
	}
}

func statusPatchOf(t *testing.T, resourceVersion string, conditions ...metav1.Condition) []byte {
	raw, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": resourceVersion},
		"status":   map[string]any{"conditions": conditions},
	})
	require.NoError(t, err)
	return raw
}

func finalizerPatch(t *testing.T, resourceVersion string, finalizers ...string) []byte {
	var list any
	if len(finalizers) > 0 {
		list = finalizers
	}
	raw, err := json.Marshal(map[string]any{"metadata": map[string]any{"resourceVersion": resourceVersion, "finalizers": list}})
	require.NoError(t, err)
	return raw
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
