package availability

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/manifestwork/work/pkg/agent/status/health"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workfake "github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	"github.com/manifestwork/work/test/fixture"
)

const (
	workName   = "web"
	generation = 3
)

var (
	configMaps  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	namespaces  = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

// object names an applied object.
type object struct {
	gvr             schema.GroupVersionResource
	namespace, name string
}

var (
	cm     = object{configMaps, "default", "cm"}
	deploy = object{deployments, "default", "web"}
	ns     = object{namespaces, "", "team"}
)

// stubCache is the watch cache: objects it holds exist, others do not.
type stubCache struct {
	synced  bool
	err     error
	objects map[object]bool
	deleted map[object]time.Time // when the watch saw it deleted
	gets    int
	// statuses are the objects of a status-carrying cache; nil: none
	statuses map[object]*unstructured.Unstructured
}

func (s *stubCache) DeletedSince(gvr schema.GroupVersionResource, namespace, name string, since time.Time) bool {
	at, ok := s.deleted[object{gvr, namespace, name}]
	return ok && !at.Before(since)
}

func (s *stubCache) Get(gvr schema.GroupVersionResource, namespace, name string) (*metav1.PartialObjectMetadata, bool, error) {
	s.gets++
	if s.err != nil {
		return nil, false, s.err
	}
	if !s.synced {
		return nil, false, nil
	}
	if !s.objects[object{gvr, namespace, name}] {
		return nil, true, nil
	}
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}, true, nil
}

// GetObject has no status to give: every test object is judged from the
// objects the health tests put in statuses.
func (s *stubCache) GetObject(gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, bool, error) {
	if s.statuses == nil {
		return nil, false, nil
	}
	obj, ok := s.statuses[object{gvr, namespace, name}]
	if !ok {
		return nil, true, nil
	}
	return obj.DeepCopy(), true, nil
}

// withStatus puts an object, as JSON, in the status-carrying cache.
func withStatus(s *stubCache, o object, doc string) *stubCache {
	if s.statuses == nil {
		s.statuses = map[object]*unstructured.Unstructured{}
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON([]byte(doc)); err != nil {
		panic(err)
	}
	s.statuses[o] = u
	return s
}

func cached(objs ...object) *stubCache {
	s := &stubCache{synced: true, objects: map[object]bool{}}
	for _, o := range objs {
		s.objects[o] = true
	}
	return s
}

var kinds = map[schema.GroupVersionResource]schema.GroupVersionKind{
	configMaps:  {Version: "v1", Kind: "ConfigMap"},
	deployments: {Group: "apps", Version: "v1", Kind: "Deployment"},
	namespaces:  {Version: "v1", Kind: "Namespace"},
}

// metadataScheme knows the kinds of the tests as metadata-only objects.
func metadataScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	for _, gvk := range kinds {
		scheme.AddKnownTypeWithName(gvk, &metav1.PartialObjectMetadata{})
		scheme.AddKnownTypeWithName(gvk.GroupVersion().WithKind(gvk.Kind+"List"), &metav1.PartialObjectMetadataList{})
	}
	return scheme
}

// live is the managed cluster behind the cache, for the metadata client.
func live(objs ...object) []runtime.Object {
	var out []runtime.Object
	for _, o := range objs {
		gvk := kinds[o.gvr]
		out = append(out, &metav1.PartialObjectMetadata{
			TypeMeta:   metav1.TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind},
			ObjectMeta: metav1.ObjectMeta{Namespace: o.namespace, Name: o.name},
		})
	}
	return out
}

func meta(ordinal int32, o object) workv1.ManifestResourceMeta {
	return workv1.ManifestResourceMeta{
		Ordinal: ordinal, Group: o.gvr.Group, Version: o.gvr.Version, Resource: o.gvr.Resource,
		Kind: kinds[o.gvr].Kind, Namespace: o.namespace, Name: o.name,
	}
}

func cond(typ string, status metav1.ConditionStatus, reason, message string) metav1.Condition {
	return metav1.Condition{
		Type: typ, Status: status, Reason: reason, Message: message, ObservedGeneration: generation,
		LastTransitionTime: metav1.NewTime(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)),
	}
}

var (
	applied      = cond(workv1.ManifestApplied, metav1.ConditionTrue, workv1.ManifestAppliedReasonComplete, workv1.ManifestAppliedMessageComplete)
	available    = cond(workv1.ManifestAvailable, metav1.ConditionTrue, workv1.ManifestAvailableReasonAvailable, workv1.ManifestAvailableMessageAvailable)
	notAvailable = cond(workv1.ManifestAvailable, metav1.ConditionFalse, workv1.ManifestAvailableReasonNotAvailable, "Resource is not available")
	noFeedback   = cond(workv1.ManifestStatusFeedbackSynced, metav1.ConditionTrue, workv1.StatusFeedbackSyncedReasonNoRules, "")
	workApplied  = cond(workv1.WorkApplied, metav1.ConditionTrue, workv1.WorkAppliedReasonComplete, workv1.WorkAppliedMessageComplete)
	progressing  = cond(workv1.WorkProgressing, metav1.ConditionFalse, workv1.WorkProgressingReasonCompleted, "All manifests are applied")
	workAvail    = cond(workv1.WorkAvailable, metav1.ConditionTrue, workv1.WorkAvailableReasonAvailable, workv1.WorkAvailableMessageAvailable)
	// Healthy conditions as the controller writes them for these objects.
	cmNoCheck     = cond(workv1.ManifestHealthy, metav1.ConditionTrue, workv1.HealthyReasonNoHealthCheck, "ConfigMap exists; its kind has no health check")
	cmMissing     = cond(workv1.ManifestHealthy, metav1.ConditionFalse, workv1.HealthyReasonProgressing, "ConfigMap default/cm does not exist")
	nsNoStatus    = cond(workv1.ManifestHealthy, metav1.ConditionTrue, workv1.HealthyReasonHealthy, "Namespace is Active")
	workHealthy1  = cond(workv1.WorkHealthy, metav1.ConditionTrue, workv1.HealthyReasonHealthy, "All 1 resources are healthy")
	workCMMissing = cond(workv1.WorkHealthy, metav1.ConditionFalse, workv1.HealthyReasonProgressing,
		"1 of 2 resources are not healthy: ConfigMap default/cm is Progressing (ConfigMap default/cm does not exist)")
)

// manifest is one entry of status.resourceStatus.manifests. An available
// one without a StatusFeedbackSynced condition gets noFeedback, as the
// agent writes it for a manifest without feedback rules.
func manifest(m workv1.ManifestResourceMeta, conditions ...metav1.Condition) workv1.ManifestCondition {
	mc := workv1.ManifestCondition{ResourceMeta: m, Conditions: append([]metav1.Condition{}, conditions...)}
	if apimeta.IsStatusConditionTrue(mc.Conditions, workv1.ManifestAvailable) &&
		apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestStatusFeedbackSynced) == nil {
		mc.Conditions = append(mc.Conditions, noFeedback)
	}
	return mc
}

// newWork is the work at generation 3 with the given status.
func newWork(conditions []metav1.Condition, manifests ...workv1.ManifestCondition) *workv1.ManifestWork {
	return fixture.NewWork(fixture.Cluster, workName).WithGeneration(generation).WithResourceVersion("42").
		WithCondition(conditions...).WithManifestStatus(manifests...).Build()
}

// withRollout gives the work the Progressing and Degraded conditions its
// manifests' status makes, as every writer of that status sets them.
func withRollout(work *workv1.ManifestWork) *workv1.ManifestWork {
	progressing, degraded := health.Rollout(work, work.Status.ResourceStatus.Manifests, time.Now())
	apimeta.SetStatusCondition(&work.Status.Conditions, progressing)
	apimeta.SetStatusCondition(&work.Status.Conditions, degraded)
	return work
}

type harness struct {
	c     *Controller
	hub   *workfake.Clientset
	spoke *metadatafake.FakeMetadataClient
	cache *stubCache
}

func newHarness(work *workv1.ManifestWork, cache *stubCache, liveObjects ...object) *harness {
	hub := workfake.NewSimpleClientset(work)
	spoke := metadatafake.NewSimpleMetadataClient(metadataScheme(), live(liveObjects...)...)
	return &harness{
		c: &Controller{
			Deps: Deps{ClusterName: fixture.Cluster, Writes: workwriter.Shared{Client: hub},
				Assessor: NewAssessor(AssessorDeps{Objects: cache, Metadata: spoke})},
			writer: workwriter.New(workwriter.Shared{Client: hub}, ControllerName, workwriter.Plain),
		},
		hub:   hub,
		spoke: spoke,
		cache: cache,
	}
}

func (f *harness) reconcile(t *testing.T, work *workv1.ManifestWork) (outcome, error) {
	t.Helper()
	f.hub.ClearActions()
	return f.c.reconcile(t.Context(), work)
}

// patches returns the status patches sent to the hub.
// assessed is the work with the status the assessor gives it, as the
// status feedback controller writes it for a work with rules.
func (f *harness) assessed(t *testing.T, work *workv1.ManifestWork) *workv1.ManifestWork {
	t.Helper()
	out := work.DeepCopy()
	f.c.Assessor.Assess(t.Context(), work, &out.Status)
	return out
}

func (f *harness) patches(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, a := range f.hub.Actions() {
		if a.GetVerb() != "patch" {
			continue
		}
		p := a.(clienttesting.PatchAction)
		require.Equal(t, "status", p.GetSubresource())
		var doc map[string]any
		require.NoError(t, json.Unmarshal(p.GetPatch(), &doc))
		out = append(out, doc)
	}
	return out
}

func (f *harness) stored(t *testing.T) *workv1.ManifestWork {
	t.Helper()
	work, err := f.hub.WorkV1().ManifestWorks(fixture.Cluster).Get(context.Background(), workName, metav1.GetOptions{})
	require.NoError(t, err)
	return work
}

func (f *harness) liveGets() int {
	n := 0
	for _, a := range f.spoke.Actions() {
		if a.GetVerb() == "get" {
			n++
		}
	}
	return n
}

// utc puts the transition times read back from JSON in UTC, as the
// fixtures are, so that conditions compare with assert.Equal.
func utc(conditions []metav1.Condition) {
	for i := range conditions {
		conditions[i].LastTransitionTime = metav1.NewTime(conditions[i].LastTransitionTime.UTC())
	}
}

// want is the expected outcome of a condition, without its timestamps.
type want struct {
	status metav1.ConditionStatus
	reason string
}

func find(t *testing.T, conditions []metav1.Condition, typ string) want {
	t.Helper()
	c := apimeta.FindStatusCondition(conditions, typ)
	require.NotNil(t, c, "no %s condition in %v", typ, conditions)
	assert.Equal(t, int64(generation), c.ObservedGeneration, "observedGeneration of %s", typ)
	return want{c.Status, c.Reason}
}

func TestReconcileManifestAvailability(t *testing.T) {
	var (
		isAvailable    = want{metav1.ConditionTrue, workv1.ManifestAvailableReasonAvailable}
		isNotAvailable = want{metav1.ConditionFalse, workv1.ManifestAvailableReasonNotAvailable}
		isIncomplete   = want{metav1.ConditionUnknown, workv1.ManifestAvailableReasonIncompleteResource}
		fetchFailed    = want{metav1.ConditionUnknown, workv1.ManifestAvailableReasonFetchFailed}
		workAvailable  = want{metav1.ConditionTrue, workv1.WorkAvailableReasonAvailable}
		workMissing    = want{metav1.ConditionFalse, workv1.WorkAvailableReasonNotAvailable}
		workUnknown    = want{metav1.ConditionUnknown, workv1.WorkAvailableReasonUnknown}
	)
	boom := errors.New("boom")
	tests := []struct {
		name      string
		manifests []workv1.ManifestCondition
		cache     *stubCache
		live      []object // on the managed fixture.Cluster, for reads that bypass the cache
		liveErr   error    // every live read fails with it
		manifest  []want
		work      want
		liveGets  int
		recheck   bool // unsettled: checked again soon rather than by the safety net
	}{
		{
			name:      "objects in the cache are available without any request",
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied, available), manifest(meta(1, ns), applied, available), manifest(meta(2, deploy), applied)},
			cache:     cached(cm, ns, deploy),
			manifest:  []want{isAvailable, isAvailable, isAvailable},
			work:      workAvailable,
		},
		{
			name:      "an available object gone from the cache is confirmed missing with the API",
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied, available), manifest(meta(1, deploy), applied, available)},
			cache:     cached(cm),
			manifest:  []want{isAvailable, isNotAvailable},
			work:      workMissing,
			recheck:   true,
			liveGets:  1,
		},
		{
			name:      "an available object the cache has not seen yet stays available",
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied, available), manifest(meta(1, deploy), applied, available)},
			cache:     cached(cm),
			live:      []object{deploy}, // just applied; the watch is a moment behind
			manifest:  []want{isAvailable, isAvailable},
			work:      workAvailable,
			liveGets:  1,
		},
		{
			name:      "a new manifest absent from the cache is confirmed with the API: present",
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied)},
			cache:     cached(),
			live:      []object{cm},
			manifest:  []want{isAvailable},
			work:      workAvailable,
			liveGets:  1,
		},
		{
			name:      "a new manifest absent from the cache is confirmed with the API: absent",
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied)},
			cache:     cached(),
			manifest:  []want{isNotAvailable},
			work:      workMissing,
			liveGets:  1,
			recheck:   true,
		},
		{
			name:      "without a synced cache the API answers",
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied, available), manifest(meta(1, ns), applied, available)},
			cache:     &stubCache{},
			live:      []object{ns},
			manifest:  []want{isNotAvailable, isAvailable},
			work:      workMissing,
			liveGets:  2,
			recheck:   true,
		},
		{
			name: "incomplete resource meta is unknown",
			manifests: []workv1.ManifestCondition{
				manifest(workv1.ManifestResourceMeta{Ordinal: 0}, cond(workv1.ManifestApplied, metav1.ConditionFalse, workv1.ManifestAppliedReasonFailed, "cannot decode")),
				manifest(meta(1, cm), applied, available),
			},
			cache:    cached(cm),
			manifest: []want{isIncomplete, isAvailable},
			work:     workUnknown,
			recheck:  true,
		},
		{
			name:      "a missing resource (mapping failed) alone makes the meta incomplete",
			manifests: []workv1.ManifestCondition{manifest(workv1.ManifestResourceMeta{Version: "v1", Kind: "Widget", Name: "w"})},
			cache:     cached(),
			manifest:  []want{isIncomplete},
			work:      workUnknown,
			recheck:   true,
		},
		{
			name:      "a cache error is unknown",
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied, available)},
			cache:     &stubCache{err: boom},
			live:      []object{cm},
			manifest:  []want{fetchFailed},
			work:      workUnknown,
			recheck:   true,
		},
		{
			name:      "a failing API read is unknown",
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied, available)},
			cache:     &stubCache{},
			liveErr:   apierrors.NewForbidden(configMaps.GroupResource(), "cm", boom),
			manifest:  []want{fetchFailed},
			work:      workUnknown,
			liveGets:  1,
			recheck:   true,
		},
		{
			name:      "not available wins over unknown, as in OCM",
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied, available), manifest(workv1.ManifestResourceMeta{Ordinal: 1})},
			cache:     cached(),
			manifest:  []want{isNotAvailable, isIncomplete},
			work:      workMissing,
			recheck:   true,
			liveGets:  1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := newWork([]metav1.Condition{workApplied, progressing}, tt.manifests...)
			f := newHarness(work, tt.cache, tt.live...)
			if tt.liveErr != nil {
				f.spoke.PrependReactor("get", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
					return true, nil, tt.liveErr
				})
			}

			result, err := f.reconcile(t, work)
			require.NoError(t, err)

			require.Len(t, f.patches(t), 1, "exactly one status patch")
			got := f.stored(t)
			require.Len(t, got.Status.ResourceStatus.Manifests, len(tt.manifest))
			for i, w := range tt.manifest {
				assert.Equal(t, w, find(t, got.Status.ResourceStatus.Manifests[i].Conditions, workv1.ManifestAvailable), "manifest %d", i)
			}
			assert.Equal(t, tt.work, find(t, got.Status.Conditions, workv1.WorkAvailable), "work")
			assert.Equal(t, tt.liveGets, f.liveGets(), "requests to the managed cluster")
			if tt.recheck {
				assert.Equal(t, unsettled, result)
			} else {
				assert.Equal(t, settled, result)
			}
		})
	}
}

func TestReconcileWorkMessages(t *testing.T) {
	work := newWork(nil,
		manifest(meta(0, cm), applied, available), manifest(meta(1, deploy), applied, available),
		manifest(meta(2, ns), applied, available))
	f := newHarness(work, cached(ns))

	_, err := f.reconcile(t, work)
	require.NoError(t, err)

	got := apimeta.FindStatusCondition(f.stored(t).Status.Conditions, workv1.WorkAvailable)
	require.NotNil(t, got)
	assert.Equal(t, "2 of 3 resources are not available", got.Message)

	manifests := f.stored(t).Status.ResourceStatus.Manifests
	assert.Equal(t, "Resource is not available", apimeta.FindStatusCondition(manifests[0].Conditions, workv1.ManifestAvailable).Message)
	assert.Equal(t, workv1.ManifestAvailableMessageAvailable, apimeta.FindStatusCondition(manifests[2].Conditions, workv1.ManifestAvailable).Message)
}

func TestReconcileAllAvailableMessage(t *testing.T) {
	work := newWork(nil, manifest(meta(0, cm), applied))
	f := newHarness(work, cached(cm))

	_, err := f.reconcile(t, work)
	require.NoError(t, err)

	got := apimeta.FindStatusCondition(f.stored(t).Status.Conditions, workv1.WorkAvailable)
	require.NotNil(t, got)
	assert.Equal(t, workv1.WorkAvailableMessageAvailable, got.Message)
	assert.Equal(t, metav1.ConditionTrue, got.Status)
}

func TestReconcileFetchErrorMessage(t *testing.T) {
	work := newWork(nil, manifest(meta(0, cm), applied, available))
	f := newHarness(work, &stubCache{err: errors.New("cache is broken")})

	_, err := f.reconcile(t, work)
	require.NoError(t, err)

	got := apimeta.FindStatusCondition(f.stored(t).Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestAvailable)
	require.NotNil(t, got)
	assert.Contains(t, got.Message, "cache is broken")
}

func TestReconcileNoPatchWhenUnchanged(t *testing.T) {
	tests := map[string]struct {
		manifests []workv1.ManifestCondition
		work      []metav1.Condition
		cache     *stubCache
	}{
		"available": {
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied, available, cmNoCheck)},
			work:      []metav1.Condition{workAvail, workHealthy1},
			cache:     cached(cm),
		},
		"not available": {
			manifests: []workv1.ManifestCondition{manifest(meta(0, cm), applied, notAvailable, cmMissing), manifest(meta(1, ns), applied, available, nsNoStatus)},
			work: []metav1.Condition{
				cond(workv1.WorkAvailable, metav1.ConditionFalse, workv1.WorkAvailableReasonNotAvailable, "1 of 2 resources are not available"),
				workCMMissing,
			},
			cache: withStatus(cached(ns), ns, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team"},"status":{"phase":"Active"}}`),
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			work := withRollout(newWork(append([]metav1.Condition{workApplied}, tt.work...), tt.manifests...))
			f := newHarness(work, tt.cache)

			_, err := f.reconcile(t, work)
			require.NoError(t, err)

			assert.Empty(t, f.patches(t))
			assert.Zero(t, f.liveGets())
		})
	}
}

// Only the Available conditions change; every other condition, the feedback
// values and the order of everything are kept, and the patch carries the
// resourceVersion it was computed from.
func TestReconcilePreservesTheRestOfTheStatus(t *testing.T) {
	feedback := workv1.StatusFeedbackResult{Values: []workv1.FeedbackValue{{
		Name: "ReadyReplicas", Value: workv1.FieldValue{Type: workv1.Integer, Integer: new(int64)},
	}}}
	synced := cond(workv1.ManifestStatusFeedbackSynced, metav1.ConditionTrue, workv1.StatusFeedbackSyncedReasonSynced, "")
	deployStatus := manifest(meta(0, deploy), applied, synced, available)
	deployStatus.StatusFeedbacks = feedback
	degraded := cond(workv1.WorkDegraded, metav1.ConditionFalse, "AsExpected", "")
	work := newWork([]metav1.Condition{workApplied, workAvail, progressing, degraded},
		deployStatus, manifest(meta(1, cm), applied))
	f := newHarness(work, cached(cm))

	_, err := f.reconcile(t, work)
	require.NoError(t, err)

	patches := f.patches(t)
	require.Len(t, patches, 1)
	assert.Equal(t, map[string]any{"resourceVersion": "42"}, patches[0]["metadata"])

	got := f.stored(t).Status
	utc(got.Conditions)
	assert.Equal(t, []metav1.Condition{workApplied, got.Conditions[1], got.Conditions[2], got.Conditions[3]}, got.Conditions[:4])
	assert.Equal(t, workv1.WorkProgressingReasonRollingOut, got.Conditions[2].Reason, "Progressing follows the health: the Deployment is not judged yet")
	assert.Equal(t, workv1.WorkDegraded, got.Conditions[3].Type, "in its place")
	assert.Equal(t, workv1.WorkHealthy, got.Conditions[4].Type, "the Healthy condition is added after the others")
	assert.Equal(t, workv1.WorkAvailable, got.Conditions[1].Type)
	assert.Equal(t, metav1.ConditionFalse, got.Conditions[1].Status)
	assert.False(t, got.Conditions[1].LastTransitionTime.Equal(&workAvail.LastTransitionTime), "status changed: new transition time")

	require.Len(t, got.ResourceStatus.Manifests, 2)
	d := got.ResourceStatus.Manifests[0]
	utc(d.Conditions)
	assert.Equal(t, meta(0, deploy), d.ResourceMeta)
	assert.Equal(t, feedback, d.StatusFeedbacks)
	require.Len(t, d.Conditions, 4)
	assert.Equal(t, []metav1.Condition{applied, synced}, d.Conditions[:2])
	assert.Equal(t, workv1.ManifestHealthy, d.Conditions[3].Type)
	flipped := d.Conditions[2]
	assert.False(t, flipped.LastTransitionTime.Equal(&notAvailable.LastTransitionTime), "status changed: new transition time")
	flipped.LastTransitionTime = notAvailable.LastTransitionTime
	assert.Equal(t, notAvailable, flipped)
	c := got.ResourceStatus.Manifests[1]
	utc(c.Conditions)
	assert.Equal(t, []metav1.Condition{applied}, c.Conditions[:1])
	assert.Equal(t, workv1.ManifestAvailable, c.Conditions[1].Type)
	assert.Equal(t, metav1.ConditionTrue, c.Conditions[1].Status)
}

// A condition whose status stays the same keeps its transition time while
// its observedGeneration follows the work.
func TestReconcileFollowsTheGeneration(t *testing.T) {
	old := available
	old.ObservedGeneration = generation - 1
	oldWork := workAvail
	oldWork.ObservedGeneration = generation - 1
	oldHealth, oldWorkHealth, oldFeedback := cmNoCheck, workHealthy1, noFeedback
	oldHealth.ObservedGeneration, oldWorkHealth.ObservedGeneration, oldFeedback.ObservedGeneration = generation-1, generation-1, generation-1
	work := newWork([]metav1.Condition{oldWork, oldWorkHealth}, manifest(meta(0, cm), applied, old, oldHealth, oldFeedback))
	f := newHarness(work, cached(cm))

	_, err := f.reconcile(t, work)
	require.NoError(t, err)

	require.Len(t, f.patches(t), 1)
	got := f.stored(t).Status
	utc(got.Conditions)
	utc(got.ResourceStatus.Manifests[0].Conditions)
	assert.Equal(t, []metav1.Condition{workAvail, workHealthy1}, got.Conditions[:2])
	for _, c := range got.Conditions[2:] {
		assert.Equal(t, int64(generation), c.ObservedGeneration, "%s follows the generation", c.Type)
		assert.Equal(t, metav1.ConditionFalse, c.Status, "%s: rolled out, not degraded", c.Type)
	}
	assert.Equal(t, []metav1.Condition{applied, available, cmNoCheck, noFeedback}, got.ResourceStatus.Manifests[0].Conditions)
}

// Each manifest's Available condition carries OCM's reason and message.
func TestManifestAvailableMessagesAsOCM(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name    string
		meta    workv1.ManifestResourceMeta
		cache   *stubCache
		want    metav1.Condition
		liveErr error
	}{
		{name: "available", meta: meta(0, cm), cache: cached(cm),
			want: metav1.Condition{Status: metav1.ConditionTrue, Reason: "ResourceAvailable", Message: "Resource is available"}},
		{name: "missing", meta: meta(0, cm), cache: cached(),
			want: metav1.Condition{Status: metav1.ConditionFalse, Reason: "ResourceNotAvailable", Message: "Resource is not available"}},
		{name: "no resource, as when the manifest could not be decoded", meta: workv1.ManifestResourceMeta{},
			want: metav1.Condition{Status: metav1.ConditionUnknown, Reason: "IncompletedResourceMeta", Message: "Resource meta is incompleted"}},
		{name: "no name, as a manifest without metadata.name", meta: meta(0, object{gvr: cm.gvr, namespace: cm.namespace}), cache: cached(cm),
			want: metav1.Condition{Status: metav1.ConditionUnknown, Reason: "IncompletedResourceMeta", Message: "Resource meta is incompleted"}},
		{name: "read failure", meta: meta(0, cm), cache: &stubCache{err: boom},
			want: metav1.Condition{Status: metav1.ConditionUnknown, Reason: "FetchingResourceFailed", Message: "Failed to fetch resource: boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := newWork([]metav1.Condition{workApplied}, manifest(tt.meta, applied))
			cache := tt.cache
			if cache == nil {
				cache = cached()
			}
			f := newHarness(work, cache)
			got := f.c.Assessor.checkManifest(context.Background(), &work.Status.ResourceStatus.Manifests[0], generation)
			tt.want.Type, tt.want.ObservedGeneration = workv1.ManifestAvailable, generation
			assert.Equal(t, tt.want, got)
		})
	}
}

// An available manifest without feedback rules gets StatusFeedbackSynced
// True with reason NoStatusFeedbackSynced, and loses the values of rules
// removed since; one with rules, or whose object is missing, keeps its own.
func TestNoFeedbackRulesAsOCM(t *testing.T) {
	stale := workv1.StatusFeedbackResult{Values: []workv1.FeedbackValue{{Name: "old",
		Value: workv1.FieldValue{Type: workv1.String, String: ptr("x")}}}}
	synced := cond(workv1.ManifestStatusFeedbackSynced, metav1.ConditionTrue, workv1.StatusFeedbackSyncedReasonSynced, "")
	withRules := fixture.Config("", "configmaps", "default", "cm")
	withRules.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	tests := []struct {
		name       string
		config     *workv1.ManifestConfigOption
		cache      *stubCache
		wantReason string // of StatusFeedbackSynced
		wantValues []workv1.FeedbackValue
	}{
		{name: "available without rules", cache: cached(cm),
			wantReason: workv1.StatusFeedbackSyncedReasonNoRules},
		{name: "available with rules is the feedback controller's", config: &withRules, cache: cached(cm),
			wantReason: workv1.StatusFeedbackSyncedReasonSynced, wantValues: stale.Values},
		{name: "missing keeps what it had", cache: cached(),
			wantReason: workv1.StatusFeedbackSyncedReasonSynced, wantValues: stale.Values},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := fixture.NewWork(fixture.Cluster, workName).WithGeneration(generation).WithResourceVersion("42").
				WithCondition(workApplied).WithManifestStatus(workv1.ManifestCondition{
				ResourceMeta: meta(0, cm), StatusFeedbacks: stale, Conditions: []metav1.Condition{applied, synced}})
			if tt.config != nil {
				b.WithConfig(*tt.config)
			}
			work := b.Build()
			f := newHarness(work, tt.cache)
			_, err := f.reconcile(t, work)
			require.NoError(t, err)
			got := f.stored(t).Status.ResourceStatus.Manifests[0]
			c := apimeta.FindStatusCondition(got.Conditions, workv1.ManifestStatusFeedbackSynced)
			require.NotNil(t, c)
			assert.Equal(t, tt.wantReason, c.Reason)
			assert.Equal(t, metav1.ConditionTrue, c.Status)
			assert.Empty(t, c.Message)
			assert.Equal(t, tt.wantValues, got.StatusFeedbacks.Values)
		})
	}
}

func ptr[T any](v T) *T { return &v }

// Only what changed is in the patch: a work-level change alone leaves the
// manifests out.
func TestReconcilePatchesOnlyWhatChanged(t *testing.T) {
	work := newWork(nil, manifest(meta(0, cm), applied, available, cmNoCheck))
	f := newHarness(work, cached(cm))

	_, err := f.reconcile(t, work)
	require.NoError(t, err)

	patches := f.patches(t)
	require.Len(t, patches, 1)
	status := patches[0]["status"].(map[string]any)
	assert.Contains(t, status, "conditions")
	assert.NotContains(t, status, "resourceStatus")
}

// A work being deleted is assessed until the agent releases it, as OCM's
// agent does: an object gone ahead of the others shows on the work, and
// the finalize controller's Deleting condition stays.
func TestReconcileWhileDeleting(t *testing.T) {
	deleting := cond(workv1.WorkDeleting, metav1.ConditionTrue, "WorkDeleting", "waiting for Namespace ns to be deleted")
	work := newWork([]metav1.Condition{workApplied, progressing, workAvail, deleting},
		manifest(meta(0, cm), applied, available), manifest(meta(1, ns), applied, available))
	work.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	work.Finalizers = []string{workv1.ManifestWorkFinalizer}
	f := newHarness(work, cached(ns))

	result, err := f.reconcile(t, work)
	require.NoError(t, err)

	assert.Equal(t, unsettled, result)
	stored := f.stored(t)
	assert.Equal(t, metav1.ConditionFalse, apimeta.FindStatusCondition(stored.Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestAvailable).Status)
	workAvailable := apimeta.FindStatusCondition(stored.Status.Conditions, workv1.WorkAvailable)
	assert.Equal(t, metav1.ConditionFalse, workAvailable.Status)
	assert.Equal(t, "1 of 2 resources are not available", workAvailable.Message)
	assert.True(t, apimeta.IsStatusConditionTrue(stored.Status.Conditions, workv1.WorkDeleting))
}

func TestReconcileSkips(t *testing.T) {
	released := newWork(nil, manifest(meta(0, cm), applied))
	released.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	released.Finalizers = []string{"example.com/someone-else"}
	tests := map[string]struct {
		work *workv1.ManifestWork
		want outcome
	}{
		"a work the agent released (deleted, without the agent's finalizer)": {work: released, want: finished},
		"a work not applied yet": {
			work: newWork([]metav1.Condition{cond(workv1.WorkProgressing, metav1.ConditionTrue, workv1.WorkProgressingReasonApplying, "")}),
			want: settled,
		},
		"a new generation the apply has not reported on yet": {
			work: func() *workv1.ManifestWork {
				applied := cond(workv1.WorkApplied, metav1.ConditionTrue, workv1.WorkAppliedReasonComplete, "")
				applied.ObservedGeneration = generation - 1
				return newWork([]metav1.Condition{applied}, manifest(meta(0, cm), applied))
			}(),
			want: settled,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			cache := cached(cm)
			f := newHarness(tt.work, cache)

			result, err := f.reconcile(t, tt.work)
			require.NoError(t, err)

			assert.Empty(t, f.patches(t))
			assert.Zero(t, cache.gets)
			assert.Equal(t, tt.want, result)
		})
	}
}

func TestReconcileConflict(t *testing.T) {
	work := newWork(nil, manifest(meta(0, cm), applied))
	f := newHarness(work, cached(cm))
	f.hub.PrependReactor("patch", "manifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(workv1.Resource("manifestworks"), workName, errors.New("changed"))
	})

	_, err := f.reconcile(t, work)

	require.Error(t, err)
	assert.True(t, apierrors.IsConflict(err), "a conflict stays recognisable, so sync requeues: %v", err)
}

// An object the apply reported Available a moment ago and the watch cache
// has not seen yet keeps its condition without a request, and the work is
// looked at again soon; later, its absence is confirmed with the API.
func TestJustAppliedObjectTrustsTheApply(t *testing.T) {
	appliedAt := available.LastTransitionTime.Time
	// As the apply wrote it: the ConfigMap, with nothing to judge, rolled out.
	rolledOut := cond(workv1.WorkProgressing, metav1.ConditionFalse, workv1.WorkProgressingReasonCompleted, "All 1 manifests are rolled out")
	notDegraded := cond(workv1.WorkDegraded, metav1.ConditionFalse, workv1.WorkDegradedReasonAsExpected, "No manifest is degraded or keeps failing to apply")
	work := newWork([]metav1.Condition{workApplied, rolledOut, workAvail, notDegraded, workHealthy1},
		manifest(meta(0, cm), applied, available, cmNoCheck))
	f := newHarness(work, cached())
	f.c.Assessor.now = func() time.Time { return appliedAt.Add(time.Second) }

	result, err := f.reconcile(t, work)
	require.NoError(t, err)
	assert.Equal(t, unsettled, result, "looked at again soon")
	assert.Empty(t, f.patches(t))
	assert.Zero(t, f.liveGets())

	f.c.Assessor.now = func() time.Time { return appliedAt.Add(justAppliedGrace + time.Second) }
	_, err = f.reconcile(t, work)
	require.NoError(t, err)
	assert.Equal(t, 1, f.liveGets(), "after the grace, the absence is confirmed")
	require.Len(t, f.patches(t), 1, "and reported")

	// Within the grace, an object the watch saw deleted is confirmed at once.
	f = newHarness(work, cached())
	f.cache.deleted = map[object]time.Time{cm: appliedAt.Add(time.Second)}
	f.c.Assessor.now = func() time.Time { return appliedAt.Add(2 * time.Second) }
	_, err = f.reconcile(t, work)
	require.NoError(t, err)
	assert.Equal(t, 1, f.liveGets())
	require.Len(t, f.patches(t), 1)
}

// A work with feedback or condition rules is the status feedback
// controller's: it writes the availability part of the status with its own,
// in one patch. The availability controller neither reads nor writes it,
// nor schedules a recheck of it.
func TestReconcileLeavesWorksWithRules(t *testing.T) {
	feedbackRules := fixture.Config("", "configmaps", "default", "cm")
	feedbackRules.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	conditionRules := fixture.WithConditionRules(fixture.Config("", "configmaps", "default", "cm"),
		workv1.ConditionRule{Type: workv1.CELConditionExpressionsType, Condition: "Ready", CelExpressions: []string{"true"}})
	otherObject := fixture.Config("", "configmaps", "default", "other")
	otherObject.FeedbackRules = feedbackRules.FeedbackRules
	tests := map[string]struct {
		config    workv1.ManifestConfigOption
		wantWrite bool
	}{
		"feedback rules":                      {config: feedbackRules},
		"condition rules":                     {config: conditionRules},
		"rules of an object the work has not": {config: otherObject, wantWrite: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			work := newWork(nil, manifest(meta(0, cm), applied))
			work.Spec.ManifestConfigs = []workv1.ManifestConfigOption{tt.config}
			cache := cached(cm)
			f := newHarness(work, cache)

			result, err := f.reconcile(t, work)
			require.NoError(t, err)

			if tt.wantWrite {
				assert.Len(t, f.patches(t), 1)
				assert.Equal(t, settled, result)
				return
			}
			assert.Empty(t, f.patches(t))
			assert.Zero(t, cache.gets)
			assert.Equal(t, finished, result, "no recheck: the status feedback controller does them")
		})
	}
}
