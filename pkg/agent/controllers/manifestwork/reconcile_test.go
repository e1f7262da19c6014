package manifestwork

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	fakediscovery "k8s.io/client-go/discovery/fake"
	fakedynamic "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/apply/records"
	"github.com/manifestwork/work/pkg/agent/executor/executortest"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	fakework "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/manifest"
	"github.com/manifestwork/work/test/fixture"
)

// noCache is an ObjectCache whose informers never synced: every object is read
// from the API.
type noCache struct{}

func (noCache) SetUses(string, []objectwatch.Use)                {}
func (noCache) SetReads(string, []objectwatch.ObjectKey)         {}
func (noCache) Wrote(schema.GroupVersionResource, metav1.Object) {}
func (noCache) Get(schema.GroupVersionResource, string, string) (*metav1.PartialObjectMetadata, bool, error) {
	return nil, false, nil
}
func (noCache) WatchFailure(objectwatch.Use) (objectwatch.WatchFailure, bool) {
	return objectwatch.WatchFailure{}, false
}

// env is a controller over fake clients, with its fakes exposed.
type env struct {
	c       *Controller
	rbac    *executortest.RBAC // what executors may do
	hub     *fakework.Clientset
	spoke   *fakework.Clientset
	dynamic *fakedynamic.FakeDynamicClient
	applied cache.Indexer // behind the AppliedManifestWork lister
	works   cache.Indexer // behind the ManifestWork lister
	events  *record.FakeRecorder
}

func newEnv(t *testing.T, work *workv1.ManifestWork, objects ...runtime.Object) *env {
	t.Helper()
	hub := fakework.NewSimpleClientset(work)
	spoke := fakework.NewSimpleClientset()
	scheme := runtime.NewScheme()
	gvrToList := map[schema.GroupVersionResource]string{
		{Version: "v1", Resource: "configmaps"}: "ConfigMapList",
		{Version: "v1", Resource: "namespaces"}: "NamespaceList",
	}
	dyn := fakedynamic.NewSimpleDynamicClientWithCustomListKinds(scheme, gvrToList, objects...)
	disco := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{}}
	disco.Resources = []*metav1.APIResourceList{{GroupVersion: "v1", APIResources: []metav1.APIResource{
		{Name: "configmaps", Kind: "ConfigMap", Namespaced: true},
		{Name: "namespaces", Kind: "Namespace"},
	}}, {GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
		{Name: "deployments", Kind: "Deployment", Namespaced: true},
	}}}

	works := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	require.NoError(t, works.Add(work))
	applied := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	rbac := executortest.NewRBAC()
	events := record.NewFakeRecorder(100)
	return &env{
		rbac: rbac, events: events,
		c: &Controller{
			Deps: Deps{
				Agent:  appliedwork.Agent{ClusterName: fixture.Cluster, HubHash: fixture.HubHash, AgentID: "agent1"},
				Writes: workwriter.Shared{Client: hub}, SpokeClient: spoke, Dynamic: dyn,
				Mapper: manifest.NewMapper(disco), Objects: noCache{}, Records: records.NewStore(), Executors: rbac.Authorizer(false),
				Events: events,
			},
			works:   worklisters.NewManifestWorkLister(works).ManifestWorks(fixture.Cluster),
			applied: worklisters.NewAppliedManifestWorkLister(applied),
			writer:  workwriter.New(workwriter.Shared{Client: hub}, ControllerName, workwriter.Guarded),
			now:     time.Now,
		},
		hub: hub, spoke: spoke, dynamic: dyn, applied: applied, works: works,
	}
}

func (e *env) work(t *testing.T) *workv1.ManifestWork {
	w, err := e.hub.WorkV1().ManifestWorks(fixture.Cluster).Get(context.Background(), "w", metav1.GetOptions{})
	require.NoError(t, err)
	return w
}

func TestReconcileAppliesAndReportsOnce(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(2).
		WithManifest(fixture.ConfigMap("team", "settings", map[string]string{"a": "b"}), fixture.Namespace("team")).
		Build()
	e := newEnv(t, work)

	require.NoError(t, e.c.reconcile(context.Background(), work))

	assert.Equal(t, []string{"patch manifestworks " + fixture.Cluster + "/w", "patch manifestworks/status " + fixture.Cluster + "/w"}, ct.Writes(e.hub.Actions()),
		"one finalizer patch, then one status patch")
	assert.Equal(t, []string{"create appliedmanifestworks " + appliedwork.Name(fixture.HubHash, "w")}, ct.Writes(e.spoke.Actions()))
	record, err := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), appliedwork.Name(fixture.HubHash, "w"), metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{appliedwork.ClusterLabel: fixture.Cluster}, record.Labels,
		"the agent's informer, which selects its cluster's records, sees it")
	created := ct.Writes(e.dynamic.Actions())
	assert.Equal(t, []string{"create namespaces team", "create configmaps team/settings"}, created, "namespaces before what lives in them")

	got := e.work(t)
	assert.Contains(t, got.Finalizers, workv1.ManifestWorkFinalizer)
	applied := apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkApplied)
	require.NotNil(t, applied)
	assert.Equal(t, metav1.ConditionTrue, applied.Status)
	assert.Equal(t, workv1.WorkAppliedReasonComplete, applied.Reason)
	assert.Equal(t, int64(2), applied.ObservedGeneration)
	require.Len(t, got.Status.ResourceStatus.Manifests, 2)
	assert.Equal(t, workv1.ManifestResourceMeta{Ordinal: 0, Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Name: "settings", Namespace: "team"},
		got.Status.ResourceStatus.Manifests[0].ResourceMeta)

	healthy := apimeta.FindStatusCondition(got.Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestHealthy)
	require.NotNil(t, healthy, "a ConfigMap has nothing to judge: known at once")
	assert.Equal(t, workv1.HealthyReasonNoHealthCheck, healthy.Reason)
	assert.Nil(t, apimeta.FindStatusCondition(got.Status.ResourceStatus.Manifests[1].Conditions, workv1.ManifestHealthy),
		"a Namespace is judged by the availability controller, from its status")
	assert.Nil(t, apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkHealthy), "not every manifest is judged yet")

	cm, err := e.dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("team").Get(context.Background(), "settings", metav1.GetOptions{})
	require.NoError(t, err)
	require.Len(t, cm.GetOwnerReferences(), 1)
	assert.Equal(t, appliedwork.Name(fixture.HubHash, "w"), cm.GetOwnerReferences()[0].Name)

	// The same work again, as the informer now shows it: nothing changes, so
	// nothing is written anywhere.
	e.hub.ClearActions()
	e.spoke.ClearActions()
	e.dynamic.ClearActions()
	amw, err := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), appliedwork.Name(fixture.HubHash, "w"), metav1.GetOptions{})
	require.NoError(t, err)
	require.NoError(t, e.applied.Add(amw))
	require.NoError(t, e.c.reconcile(context.Background(), e.work(t)))
	assert.Empty(t, ct.Writes(e.hub.Actions()))
	assert.Empty(t, ct.Writes(e.spoke.Actions()))
	assert.Empty(t, ct.Writes(e.dynamic.Actions()))
}

// A work of objects without health has its Healthy conditions in the status
// patch of the apply: no second write for them.
func TestReconcileReportsNoHealthCheckAtOnce(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithManifest(fixture.ConfigMap("team", "a", nil), fixture.ConfigMap("team", "b", nil)).Build()
	e := newEnv(t, work)

	require.NoError(t, e.c.reconcile(context.Background(), work))

	got := e.work(t)
	healthy := apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkHealthy)
	require.NotNil(t, healthy)
	assert.Equal(t, metav1.ConditionTrue, healthy.Status)
	assert.Equal(t, "All 2 resources are healthy", healthy.Message)
}

func TestReconcileReportsBadManifestsAndAppliesTheRest(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).
		WithRawManifest(`[1, 2]`).
		WithRawManifest(`{"apiVersion": "v1", "metadata": {"name": "x"}}`).
		WithRawManifest(`{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "team"}}`).
		WithRawManifest(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "no-namespace"}}`).
		WithManifest(fixture.ConfigMap("team", "good", nil)).
		Build()
	e := newEnv(t, work)

	err := e.c.reconcile(context.Background(), work)
	require.Error(t, err, "failing manifests make the queue retry with backoff")

	got := e.work(t)
	require.Len(t, got.Status.ResourceStatus.Manifests, 5)
	wantMessages := []string{
		"manifest is not a JSON object",
		`Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"x"}}'`,
		`the server doesn't have a resource type "Widget"`,
		`ConfigMap "no-namespace" is namespaced but the manifest has no metadata.namespace`,
		workv1.ManifestAppliedMessageComplete,
	}
	for i, want := range wantMessages {
		m := got.Status.ResourceStatus.Manifests[i]
		assert.Equal(t, int32(i), m.ResourceMeta.Ordinal)
		c := apimeta.FindStatusCondition(m.Conditions, workv1.ManifestApplied)
		require.NotNil(t, c, "manifest %d", i)
		assert.Contains(t, c.Message, want, "manifest %d", i)
		if i < 4 {
			assert.Equal(t, metav1.ConditionFalse, c.Status, "manifest %d", i)
			assert.Equal(t, workv1.ManifestAppliedReasonFailed, c.Reason, "manifest %d", i)
		} else {
			assert.Equal(t, metav1.ConditionTrue, c.Status)
		}
	}
	assert.Equal(t, workv1.ManifestResourceMeta{Ordinal: 2, Group: "example.com", Version: "v1", Kind: "Widget", Namespace: "team", Name: "w"},
		got.Status.ResourceStatus.Manifests[2].ResourceMeta, "what is known of a failing manifest is shown, as by OCM")
	assert.Equal(t, workv1.ManifestResourceMeta{Ordinal: 0}, got.Status.ResourceStatus.Manifests[0].ResourceMeta, "nothing is known of one that does not decode")
	applied := apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkApplied)
	require.NotNil(t, applied)
	assert.Equal(t, metav1.ConditionFalse, applied.Status)
	assert.Equal(t, workv1.WorkAppliedReasonFailed, applied.Reason)
	assert.Equal(t, "Failed to apply manifest work", applied.Message)
	progressing := apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkProgressing)
	require.NotNil(t, progressing)
	assert.Equal(t, metav1.ConditionTrue, progressing.Status, "a work whose manifests fail has not rolled out")
	assert.Equal(t, workv1.WorkProgressingReasonApplying, progressing.Reason)
	assert.Contains(t, progressing.Message, "manifests are not rolled out yet")
	degraded := apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkDegraded)
	require.NotNil(t, degraded)
	assert.Equal(t, metav1.ConditionFalse, degraded.Status, "a failure is not reported before it lasts")
}

// A record the cache does not show, because it was written without the
// cluster label (by OCM's agent, or an agent from before the label), is the
// work's record all the same: the apply labels it and applies into it. One
// labelled for another cluster records that cluster's work of the same name:
// nothing is applied into it.
func TestReconcileFindsTheRecordOutsideItsCache(t *testing.T) {
	name := appliedwork.Name(fixture.HubHash, "w")
	tests := map[string]struct {
		labels    map[string]string
		wantLabel bool // the record is labelled, and the work applied into it
	}{
		"written without the label":    {labels: nil, wantLabel: true},
		"labelled for this cluster":    {labels: map[string]string{appliedwork.ClusterLabel: fixture.Cluster}},
		"labelled for another cluster": {labels: map[string]string{appliedwork.ClusterLabel: "cluster2"}},
	}
	for desc, tt := range tests {
		t.Run(desc, func(t *testing.T) {
			work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
				WithManifest(fixture.ConfigMap("team", "settings", nil)).Build()
			e := newEnv(t, work)
			record := fixture.NewApplied(fixture.HubHash, "w").AsStored("inherited", "5").WithAgent("ocm-agent").WithLabels(tt.labels).Build()
			require.NoError(t, e.spoke.Tracker().Add(record))

			err := e.c.reconcile(context.Background(), work)

			stored, getErr := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), name, metav1.GetOptions{})
			require.NoError(t, getErr)
			assert.Equal(t, types.UID("inherited"), stored.UID, "no second record")
			if tt.labels[appliedwork.ClusterLabel] == "cluster2" {
				require.Error(t, err)
				assert.Empty(t, ct.Writes(e.dynamic.Actions()), "nothing applied into another cluster's record")
				assert.Equal(t, tt.labels, stored.Labels, "its label stays")
				return
			}
			require.NoError(t, err)
			wantWrites := []string{"create appliedmanifestworks " + name}
			if tt.wantLabel {
				wantWrites = append(wantWrites, "patch appliedmanifestworks "+name)
			}
			assert.Equal(t, wantWrites, ct.Writes(e.spoke.Actions()))
			assert.Equal(t, fixture.Cluster, stored.Labels[appliedwork.ClusterLabel])
			cm, getErr := e.dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("team").
				Get(context.Background(), "settings", metav1.GetOptions{})
			require.NoError(t, getErr)
			require.Len(t, cm.GetOwnerReferences(), 1)
			assert.Equal(t, types.UID("inherited"), cm.GetOwnerReferences()[0].UID, "applied into the record found")
		})
	}
}

func TestReconcileLeavesDeletedWorksToFinalize(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithFinalizer().WithManifest(fixture.ConfigMap("team", "a", nil)).Build()
	now := metav1.Now()
	work.DeletionTimestamp = &now
	e := newEnv(t, work)
	require.NoError(t, e.c.reconcile(context.Background(), work))
	assert.Empty(t, ct.Writes(e.hub.Actions()))
	assert.Empty(t, e.dynamic.Actions())
}

func TestSyncIgnoresWorksThatAreGone(t *testing.T) {
	e := newEnv(t, fixture.NewWork(fixture.Cluster, "other").Build())
	require.NoError(t, e.c.sync(context.Background(), ct.NewSyncContext(fixture.Cluster+"/gone")))
	assert.Empty(t, ct.Writes(e.hub.Actions()))
}

// Failing manifests are retried with the work's own growing delay, not as a
// queue error; success resets it.
func TestSyncRetriesFailingManifestsWithBackoff(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).
		WithRawManifest(`{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "team"}}`).
		Build()
	e := newEnv(t, work)
	now := time.Unix(1000, 0)
	e.c.now = func() time.Time { return now }
	ref := cache.NewObjectName(fixture.Cluster, "w")
	key := ref.String()
	syncCtx := ct.NewSyncContext(key)
	for i := 1; i <= 3; i++ {
		require.NoError(t, e.c.sync(context.Background(), syncCtx))
		assert.Equal(t, i, e.c.mem.of(ref).retries(), "attempt %d", i)
		delay, ok := syncCtx.Q.Delay(key)
		require.True(t, ok)
		assert.Equal(t, retryFirst<<(i-1), delay, "0.5s, 1s, 2s")

		// An event before the retry is due, such as our own status write,
		// does not bring the retry forward, and leaves it armed for when it
		// is due (the queue may have merged it into an earlier one).
		e.hub.ClearActions()
		now = now.Add(delay / 2)
		require.NoError(t, e.c.sync(context.Background(), syncCtx))
		assert.Empty(t, ct.Writes(e.hub.Actions()))
		assert.Equal(t, i, e.c.mem.of(ref).retries())
		rearmed, ok := syncCtx.Q.Delay(key)
		require.True(t, ok)
		assert.Equal(t, delay-delay/2, rearmed, "the retry stays due at its time")
		now = now.Add(delay - delay/2)
	}

	// A new generation of the work is tried at once.
	work.Generation = 2
	require.NoError(t, e.works.Update(work))
	require.NoError(t, e.c.sync(context.Background(), syncCtx))
	assert.Equal(t, 4, e.c.mem.of(ref).retries())
}

// A manifest that its condition rules found Complete is not applied again.
func TestReconcileLeavesCompletedManifestsAlone(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithFinalizer().WithGeneration(1).
		WithManifest(fixture.ConfigMap("team", "done", nil), fixture.ConfigMap("team", "live", nil)).Build()
	work.Status.ResourceStatus.Manifests = []workv1.ManifestCondition{{
		ResourceMeta: workv1.ManifestResourceMeta{Ordinal: 0, Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Name: "done", Namespace: "team"},
		Conditions: []metav1.Condition{{Type: workv1.ManifestComplete, Status: metav1.ConditionTrue, Reason: workv1.ConditionRuleEvaluated,
			LastTransitionTime: metav1.Now()}},
	}}
	e := newEnv(t, work)
	require.NoError(t, e.c.reconcile(context.Background(), work))
	assert.Equal(t, []string{"create configmaps team/live"}, ct.Writes(e.dynamic.Actions()), "the completed one is not recreated")
}

// Several manifestConfigs may match one manifest: each of feedbackRules,
// conditionRules and updateStrategy comes from the first that sets it. A
// "*" config with feedback rules before an exact one with a strategy leaves
// that strategy in force.
func TestReconcileTakesTheStrategyOfALaterMatchingConfig(t *testing.T) {
	prober := fixture.Config("", "configmaps", "*", "*")
	prober.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).
		WithManifest(fixture.ConfigMap("team", "settings", map[string]string{"a": "b"}), fixture.ConfigMap("team", "other", nil)).
		WithConfig(prober).
		WithConfig(fixture.WithStrategy(fixture.Config("", "configmaps", "team", "settings"), workv1.UpdateStrategyTypeServerSideApply)).
		Build()
	e := newEnv(t, work)

	// The fake client cannot apply server-side: the requests sent tell the
	// strategy used.
	err := e.c.reconcile(context.Background(), work)
	require.ErrorContains(t, err, "manifest 0:")
	assert.NotContains(t, err.Error(), "manifest 1:")
	var patches []types.PatchType
	for _, a := range e.dynamic.Actions() {
		if p, ok := a.(clienttesting.PatchAction); ok && p.GetResource().Resource == "configmaps" {
			patches = append(patches, p.GetPatchType())
		}
	}
	assert.Equal(t, []types.PatchType{types.ApplyPatchType}, patches, "settings is applied server-side")
	assert.Contains(t, ct.Writes(e.dynamic.Actions()), "create configmaps team/other", "other with the default Update")
}

// The AppliedManifestWork carries its work's labels, as OCM's agent (v1.1
// on) gives them: from its create on, with the cluster's; a label the work
// gains later costs one patch, and a work whose labels did not change no
// write of its record.
func TestAppliedWorkTakesTheWorkLabels(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
		WithManifest(fixture.ConfigMap("team", "settings", nil)).Build()
	work.Labels = map[string]string{"app": "web"}
	e := newEnv(t, work)
	name := appliedwork.Name(fixture.HubHash, "w")
	stored := func() *workv1.AppliedManifestWork {
		record, err := e.spoke.WorkV1().AppliedManifestWorks().Get(context.Background(), name, metav1.GetOptions{})
		require.NoError(t, err)
		require.NoError(t, e.applied.Update(record)) // as the agent's informer brings it
		return record
	}
	spokeWrites := func() []string {
		writes := ct.Writes(e.spoke.Actions())
		e.spoke.ClearActions()
		return writes
	}

	require.NoError(t, e.c.reconcile(context.Background(), work))
	assert.Equal(t, []string{"create appliedmanifestworks " + name}, spokeWrites(), "created with its labels")
	assert.Equal(t, map[string]string{appliedwork.ClusterLabel: fixture.Cluster, "app": "web"}, stored().Labels)

	work = e.work(t)
	work.Labels = map[string]string{"app": "web", "tier": "front"}
	require.NoError(t, e.c.reconcile(context.Background(), work))
	assert.Equal(t, []string{"patch appliedmanifestworks " + name}, spokeWrites())
	assert.Equal(t, map[string]string{appliedwork.ClusterLabel: fixture.Cluster, "app": "web", "tier": "front"}, stored().Labels)

	work = e.work(t)
	work.Labels = map[string]string{"app": "web", "tier": "front"}
	require.NoError(t, e.c.reconcile(context.Background(), work))
	assert.Empty(t, spokeWrites(), "labels unchanged: no write of the record")

	work = e.work(t)
	work.Labels = map[string]string{"app": "web"}
	require.NoError(t, e.c.reconcile(context.Background(), work))
	assert.Empty(t, spokeWrites(), "a label the work drops stays on the record")
}
