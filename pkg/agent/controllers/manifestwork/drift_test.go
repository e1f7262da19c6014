package manifestwork

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/component-base/metrics/testutil"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/test/fixture"
)

// edits tells the managedFields of successive edits apart.
var edits int64 = 1

// edit changes data.k of ConfigMap team/a as a writer on the managed
// cluster would: the API server gives the field to that writer's entry in
// managedFields, which moves the object's content version.
func (e *env) edit(t *testing.T, value, manager string) {
	t.Helper()
	obj, err := e.dynamic.Tracker().Get(configMaps, "team", "a")
	require.NoError(t, err)
	edited := obj.(*unstructured.Unstructured).DeepCopy()
	require.NoError(t, unstructured.SetNestedField(edited.Object, value, "data", "k"))
	edited.SetManagedFields([]metav1.ManagedFieldsEntry{{
		Manager: manager, Operation: metav1.ManagedFieldsOperationUpdate, FieldsType: "FieldsV1",
		FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:data":{"f:k":{}}}`)},
		Time:     &metav1.Time{Time: time.Unix(edits, 0)}, // moves the content version
	}})
	edits++
	require.NoError(t, e.dynamic.Tracker().Update(configMaps, edited, "team"))
}

func (e *env) inSync(t *testing.T) (work, manifest *metav1.Condition) {
	t.Helper()
	w := e.work(t)
	return apimeta.FindStatusCondition(w.Status.Conditions, ConditionInSync),
		apimeta.FindStatusCondition(w.Status.ResourceStatus.Manifests[0].Conditions, ConditionInSync)
}

// A repaired drift records one Event naming the object, the field with the
// value found and the one restored, and the writer; repeated drift within a
// minute records the same message, which the recorder counts on one Event.
// InSync stays True: no status write.
func TestDriftRepairedEvent(t *testing.T) {
	metrics.Register()
	ctx := context.Background()
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
		WithManifest(fixture.ConfigMap("team", "a", map[string]string{"k": "1"})).Build()
	e := newEnv(t, work)
	e.c.Objects = trackerCache{dynamic: e.dynamic}
	now := time.Unix(1000, 0)
	e.c.now = func() time.Time { return now }
	repairs := func() float64 {
		v, err := testutil.GetCounterMetricValue(metrics.DriftRepairs.WithLabelValues("ConfigMap"))
		require.NoError(t, err)
		return v
	}
	before := repairs()

	require.NoError(t, e.c.reconcile(ctx, work))
	assert.Empty(t, e.recorded(), "a first apply is no drift")
	workInSync, manifestInSync := e.inSync(t)
	require.NotNil(t, manifestInSync)
	assert.Equal(t, metav1.ConditionTrue, manifestInSync.Status)
	assert.Equal(t, metav1.ConditionTrue, workInSync.Status)

	e.edit(t, "changed", "kubectl-edit")
	e.dynamicRequests()
	sent := patches(t, metrics.PatchSent)
	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Equal(t, []string{"get configmaps", "update configmaps"}, e.dynamicRequests(), "the diff costs no request")
	first := `Warning DriftRepaired Repaired ConfigMap team/a, changed by kubectl-edit: .data.k: found "changed", restored "1"`
	assert.Equal(t, []string{first}, e.recorded())
	assert.Equal(t, before+1, repairs())
	assert.Equal(t, sent, patches(t, metrics.PatchSent), "InSync stays True: no status write")

	now = now.Add(30 * time.Second)
	e.edit(t, "again", "kubectl-patch")
	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Equal(t, []string{first}, e.recorded(), "within a minute: the same message, counted on one Event")
	assert.Equal(t, before+2, repairs())

	now = now.Add(31 * time.Second)
	e.edit(t, "later", "kubectl-patch")
	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Equal(t, []string{`Warning DriftRepaired Repaired ConfigMap team/a, changed by kubectl-patch: .data.k: found "later", restored "1"`},
		e.recorded(), "a minute later: a new Event")
}

// A ReadOnly manifest reports whether the live object still holds it: read
// once per change of the object, never repaired, InSync False with the
// differing path and both values, True again once reverted.
func TestReadOnlyReportsInSync(t *testing.T) {
	ctx := context.Background()
	cm := fixture.ConfigMap("team", "a", map[string]string{"k": "1"})
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().WithManifest(cm).
		WithConfig(fixture.WithStrategy(fixture.Config("", "configmaps", "team", "a"), workv1.UpdateStrategyTypeReadOnly)).Build()
	live := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": "team", "name": "a"}, "data": map[string]any{"k": "1"}}}
	e := newEnv(t, work, live)
	e.c.Objects = trackerCache{dynamic: e.dynamic}

	require.NoError(t, e.c.reconcile(ctx, work))
	_, manifestInSync := e.inSync(t)
	require.NotNil(t, manifestInSync)
	assert.Equal(t, metav1.ConditionTrue, manifestInSync.Status)
	e.dynamicRequests()
	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Empty(t, e.dynamicRequests(), "unchanged: not read again")

	e.edit(t, "2", "kubectl-edit")
	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Equal(t, []string{"get configmaps"}, e.dynamicRequests(), "changed: read once, never written")
	workInSync, manifestInSync := e.inSync(t)
	assert.Equal(t, metav1.ConditionFalse, manifestInSync.Status)
	assert.Equal(t, InSyncReasonDrifted, manifestInSync.Reason)
	assert.Equal(t, `1 field differs from the manifest: .data.k: manifest "1", live "2"`, manifestInSync.Message)
	assert.Equal(t, metav1.ConditionFalse, workInSync.Status)
	assert.Empty(t, e.recorded(), "nothing repaired, no Event")

	e.edit(t, "1", "kubectl-edit")
	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	workInSync, manifestInSync = e.inSync(t)
	assert.Equal(t, metav1.ConditionTrue, manifestInSync.Status)
	assert.Equal(t, metav1.ConditionTrue, workInSync.Status)
}

// laggingCache is a watch cache that still shows a frozen copy of team/a,
// as one does until the event of the agent's own write arrives.
type laggingCache struct {
	trackerCache
	frozen *metav1.PartialObjectMetadata
}

func (c laggingCache) Get(gvr schema.GroupVersionResource, namespace, name string) (*metav1.PartialObjectMetadata, bool, error) {
	if c.frozen != nil && namespace == "team" && name == "a" {
		return c.frozen.DeepCopy(), true, nil
	}
	return c.trackerCache.Get(gvr, namespace, name)
}

// A reconcile that runs while the watch cache still shows the drifted copy
// that the repair replaced (an event of the drift queued it during the
// repair) reads nothing: that copy is behind the agent's own write, whose
// event follows. A change made after the repair is drift again.
func TestACacheBehindTheRepairCostsNoRead(t *testing.T) {
	ctx := context.Background()
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
		WithManifest(fixture.ConfigMap("team", "a", map[string]string{"k": "1"}), fixture.ConfigMap("team", "b", map[string]string{"k": "2"})).Build()
	e := newEnv(t, work)
	tracker := trackerCache{dynamic: e.dynamic}
	e.c.Objects = tracker
	require.NoError(t, e.c.reconcile(ctx, work))

	e.edit(t, "changed", "kubectl-edit")
	drifted, _, err := tracker.Get(configMaps, "team", "a")
	require.NoError(t, err)
	e.c.Objects = laggingCache{trackerCache: tracker, frozen: drifted}
	e.dynamicRequests()
	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Equal(t, []string{"get configmaps", "update configmaps"}, e.dynamicRequests(), "the drift is repaired")

	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Empty(t, e.dynamicRequests(), "the cache is behind the repair: nothing to read")

	e.c.Objects = tracker
	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Empty(t, e.dynamicRequests(), "the cache shows the repair")

	e.edit(t, "again", "kubectl-edit")
	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Equal(t, []string{"get configmaps", "update configmaps"}, e.dynamicRequests(), "a later change is drift again")
	repaired, err := e.dynamic.Tracker().Get(configMaps, "team", "a")
	require.NoError(t, err)
	value, _, _ := unstructured.NestedString(repaired.(*unstructured.Unstructured).Object, "data", "k")
	assert.Equal(t, "1", value)
}

// A writer that changes a field back after each repair (an autoscaler, a
// webhook) is reverted four times within a minute, then left alone for a
// backoff: no request while it lasts, the manifest's InSync False with
// reason Contested naming the field and the writer, one DriftContested
// Event, and the work queued for the end of the backoff, when the agent
// reverts it again.
func TestFightIsDetectedAndBackedOff(t *testing.T) {
	ctx := context.Background()
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithFinalizer().
		WithManifest(fixture.ConfigMap("team", "a", map[string]string{"k": "1"})).Build()
	e := newEnv(t, work)
	e.c.Objects = trackerCache{dynamic: e.dynamic}
	sc := ct.NewSyncContext("")
	e.c.SyncContext = sc
	now := time.Unix(10000, 0)
	e.c.now = func() time.Time { return now }
	require.NoError(t, e.c.reconcile(ctx, work))

	value := func() string {
		obj, err := e.dynamic.Tracker().Get(configMaps, "team", "a")
		require.NoError(t, err)
		v, _, _ := unstructured.NestedString(obj.(*unstructured.Unstructured).Object, "data", "k")
		return v
	}
	for i := range contestReverts {
		now = now.Add(10 * time.Second)
		e.edit(t, "5", "autoscaler")
		e.dynamicRequests()
		require.NoError(t, e.c.reconcile(ctx, e.work(t)))
		assert.Equal(t, []string{"get configmaps", "update configmaps"}, e.dynamicRequests(), "revert %d", i+1)
		assert.Equal(t, "1", value(), "revert %d", i+1)
	}
	workInSync, manifestInSync := e.inSync(t)
	require.NotNil(t, manifestInSync)
	assert.Equal(t, metav1.ConditionFalse, manifestInSync.Status)
	assert.Equal(t, InSyncReasonContested, manifestInSync.Reason)
	assert.Equal(t, "Stopped reverting ConfigMap team/a until 1970-01-01T02:52:20Z: autoscaler changed .data.k back after 4 repairs "+
		"within 1m0s. To leave the field to that writer, use the ServerSideApply update strategy for this manifest "+
		"(with ignoreFields for .data.k when the manifest sets it)", manifestInSync.Message)
	assert.Equal(t, InSyncReasonContested, workInSync.Reason)
	assert.Contains(t, e.recorded(), "Warning DriftContested "+manifestInSync.Message)
	delay, ok := sc.Q.Delay(fixture.Cluster + "/w")
	require.True(t, ok, "the work is looked at again when the backoff ends")
	assert.Equal(t, contestBackoffFirst, delay)

	for range 3 {
		now = now.Add(10 * time.Second)
		e.edit(t, "5", "autoscaler")
		e.dynamicRequests()
		require.NoError(t, e.c.reconcile(ctx, e.work(t)))
		assert.Empty(t, e.dynamicRequests(), "contested: neither read nor reverted")
		assert.Equal(t, "5", value())
	}

	now = now.Add(contestBackoffFirst)
	require.NoError(t, e.c.reconcile(ctx, e.work(t)))
	assert.Equal(t, []string{"get configmaps", "update configmaps"}, e.dynamicRequests(), "the backoff is over: reverted again")
	assert.Equal(t, "1", value())
	_, manifestInSync = e.inSync(t)
	assert.Equal(t, InSyncReasonInSync, manifestInSync.Reason)
}

// Reverts count towards a contest only for the same field, within the
// window, for the same desired state; the backoff doubles with each contest
// in a row, up to its maximum.
func TestContests(t *testing.T) {
	start := time.Unix(0, 0)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	k, r := []string{".spec.replicas"}, []string{".spec.template"}

	var c contests
	assert.Nil(t, c.reverted(1, 7, k, nil, at(0)))
	assert.Nil(t, c.reverted(1, 7, r, nil, at(time.Second)), "another field")
	assert.Nil(t, c.reverted(1, 7, k, nil, at(2*time.Second)))
	assert.Nil(t, c.reverted(1, 7, k, nil, at(3*time.Second)))
	got := c.reverted(1, 7, k, []string{"hpa"}, at(4*time.Second))
	require.NotNil(t, got, "the fourth revert of .spec.replicas within a minute")
	assert.Equal(t, ".spec.replicas", got.field)
	assert.Equal(t, at(4*time.Second+contestBackoffFirst), got.until)
	assert.NotNil(t, c.contested(1, 7, at(5*time.Second)))
	assert.Nil(t, c.contested(2, 7, at(5*time.Second)), "another object")
	assert.Nil(t, c.contested(1, 7, got.until), "the backoff is over")

	for i := range contestReverts - 1 {
		assert.Nil(t, c.reverted(1, 7, k, nil, got.until.Add(time.Duration(i)*time.Second)))
	}
	second := c.reverted(1, 7, k, nil, got.until.Add(contestReverts*time.Second))
	require.NotNil(t, second)
	assert.Equal(t, 2*contestBackoffFirst, second.until.Sub(got.until.Add(contestReverts*time.Second)), "a fight that goes on backs off longer")
	last := second
	for _, want := range []time.Duration{4 * contestBackoffFirst, 8 * contestBackoffFirst, contestBackoffMax, contestBackoffMax} {
		var next *contest
		for i := range contestReverts {
			next = c.reverted(1, 7, k, nil, last.until.Add(time.Duration(i)*time.Second))
		}
		require.NotNil(t, next)
		assert.Equal(t, want, next.until.Sub(last.until.Add((contestReverts-1)*time.Second)), "and longer, up to its maximum")
		last = next
	}

	var slow contests
	for i := range contestReverts {
		assert.Nil(t, slow.reverted(1, 7, k, nil, at(time.Duration(i)*21*time.Second)), "four reverts over more than a minute")
	}
	var changed contests
	for i := range contestReverts {
		changed.reverted(1, 7, k, nil, at(time.Duration(i)*time.Second))
	}
	assert.NotNil(t, changed.contested(1, 7, at(5*time.Second)))
	assert.Nil(t, changed.contested(1, 8, at(5*time.Second)), "the work changed: reverted again")
	assert.Nil(t, changed.contested(1, 7, at(5*time.Second)), "and the contest is over")
}
