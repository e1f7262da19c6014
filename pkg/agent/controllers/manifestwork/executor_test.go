package manifestwork

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

const executor1 = "system:serviceaccount:default:executor1"

// A manifest its executor may not write is not touched and says why; the
// manifests it may write are applied. When RBAC changes the retry is due at
// once, and the manifest is applied.
func TestExecutorWithoutRightsGetsNothingApplied(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithExecutor("default", "executor1").
		WithManifest(fixture.Namespace("team"), fixture.ConfigMap("team", "settings", nil)).Build()
	e := newEnv(t, work)
	for _, verb := range []string{"get", "create", "update", "patch", "delete"} {
		e.rbac.Grant(executor1, verb, "", "namespaces")
	}
	now := time.Unix(1000, 0)
	e.c.now = func() time.Time { return now }
	key := fixture.Cluster + "/w"
	syncCtx := ct.NewSyncContext(key)

	require.NoError(t, e.c.sync(context.Background(), syncCtx))
	assert.Equal(t, []string{"create namespaces team"}, ct.Writes(e.dynamic.Actions()), "the configmap is not touched")
	got := e.work(t)
	require.Len(t, got.Status.ResourceStatus.Manifests, 2)
	ns := apimeta.FindStatusCondition(got.Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestApplied)
	require.NotNil(t, ns)
	assert.Equal(t, metav1.ConditionTrue, ns.Status)
	cm := apimeta.FindStatusCondition(got.Status.ResourceStatus.Manifests[1].Conditions, workv1.ManifestApplied)
	require.NotNil(t, cm)
	assert.Equal(t, metav1.ConditionFalse, cm.Status)
	assert.Equal(t, workv1.ManifestAppliedReasonFailed, cm.Reason)
	assert.Equal(t, "Failed to apply manifest: not allowed to apply the resource  configmaps, team settings, will try again in 1m0s", cm.Message,
		"the words of OCM's agent")
	_, scheduled := syncCtx.Q.Delay(key)
	assert.True(t, scheduled, "retried with backoff")

	// Before the retry is due, a sync does nothing; after an RBAC change it
	// applies at once.
	e.dynamic.ClearActions()
	require.NoError(t, e.c.sync(context.Background(), syncCtx))
	assert.Empty(t, ct.Writes(e.dynamic.Actions()))
	for _, verb := range []string{"get", "create", "update", "patch", "delete"} {
		e.rbac.Grant(executor1, verb, "", "configmaps")
	}
	e.c.Executors.(interface{ Invalidate(string) }).Invalidate(executor1)
	require.NoError(t, e.c.sync(context.Background(), syncCtx))
	assert.Equal(t, []string{"create configmaps team/settings"}, ct.Writes(e.dynamic.Actions()))
	got = e.work(t)
	assert.True(t, apimeta.IsStatusConditionTrue(got.Status.Conditions, workv1.WorkApplied))
}

// As with OCM's agent, the executor must be allowed to delete what the work
// owns, before it is created, but not what the work orphans.
func TestExecutorNeedsDeleteOnlyForOwnedObjects(t *testing.T) {
	for _, tc := range []struct {
		name    string
		option  *workv1.DeleteOption
		applied bool
	}{
		{name: "owned", applied: false},
		{name: "orphaned", option: &workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeOrphan}, applied: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithExecutor("default", "executor1").
				WithManifest(fixture.ConfigMap("team", "settings", nil))
			if tc.option != nil {
				b.WithDeleteOption(*tc.option)
			}
			work := b.Build()
			e := newEnv(t, work)
			for _, verb := range []string{"get", "create", "update", "patch"} {
				e.rbac.Grant(executor1, verb, "", "configmaps")
			}
			_ = e.c.reconcile(context.Background(), work)
			assert.Equal(t, tc.applied, apimeta.IsStatusConditionTrue(e.work(t).Status.Conditions, workv1.WorkApplied))
		})
	}
}

// A work without executor is applied as the agent: no review is sent.
func TestNoExecutorNoReviews(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithManifest(fixture.ConfigMap("team", "settings", nil)).Build()
	e := newEnv(t, work)
	require.NoError(t, e.c.reconcile(context.Background(), work))
	assert.Zero(t, e.rbac.Reviews())
	assert.Equal(t, []string{"create configmaps team/settings"}, ct.Writes(e.dynamic.Actions()))
}

// Objects just applied are known to exist: the apply's one status patch
// already reports them, and the work, Available; a manifest that failed is
// left to the availability controller.
func TestApplyReportsWhatItAppliedAvailable(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(3).
		WithManifest(fixture.Namespace("team"), fixture.ConfigMap("team", "settings", nil)).Build()
	e := newEnv(t, work)
	require.NoError(t, e.c.reconcile(context.Background(), work))
	got := e.work(t)
	for i, m := range got.Status.ResourceStatus.Manifests {
		c := apimeta.FindStatusCondition(m.Conditions, workv1.ManifestAvailable)
		require.NotNil(t, c, "manifest %d", i)
		assert.Equal(t, metav1.ConditionTrue, c.Status)
		assert.Equal(t, int64(3), c.ObservedGeneration)
	}
	available := apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkAvailable)
	require.NotNil(t, available)
	assert.Equal(t, workv1.WorkAvailableReasonAvailable, available.Reason)
	assert.Equal(t, []string{"patch manifestworks " + fixture.Cluster + "/w", "patch manifestworks/status " + fixture.Cluster + "/w"}, ct.Writes(e.hub.Actions()))

	failing := fixture.NewWork(fixture.Cluster, "f").WithGeneration(1).
		WithManifest(fixture.ConfigMap("team", "ok", nil)).
		WithRawManifest(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "team"}}`).Build()
	e = newEnv(t, failing)
	require.Error(t, e.c.reconcile(context.Background(), failing))
	got, err := e.hub.WorkV1().ManifestWorks(fixture.Cluster).Get(context.Background(), "f", metav1.GetOptions{})
	require.NoError(t, err)
	assert.True(t, apimeta.IsStatusConditionTrue(got.Status.ResourceStatus.Manifests[0].Conditions, workv1.ManifestAvailable))
	assert.Nil(t, apimeta.FindStatusCondition(got.Status.ResourceStatus.Manifests[1].Conditions, workv1.ManifestAvailable))
	assert.Nil(t, apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkAvailable), "not all are known to exist")
}

// A lister copy that our own writes have replaced is not reconciled again:
// it would only send a write that conflicts. The informer brings the
// current copy a moment later.
func TestOwnWritesAreNotReconciledFromAnOlderCopy(t *testing.T) {
	work := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).WithManifest(fixture.ConfigMap("team", "settings", nil)).Build()
	work.ResourceVersion = "5"
	e := newEnv(t, work)
	ct.VersionPatches(e.hub)
	key := fixture.Cluster + "/w"

	require.NoError(t, e.c.sync(context.Background(), ct.NewSyncContext(key)))
	assert.Equal(t, []string{"patch manifestworks " + key, "patch manifestworks/status " + key}, ct.Writes(e.hub.Actions()))
	assert.Equal(t, "7", e.work(t).ResourceVersion, "the finalizer made 6, the status 7")

	for _, rv := range []string{"5", "6"} {
		e.hub.ClearActions()
		e.dynamic.ClearActions()
		require.NoError(t, e.works.Update(withResourceVersion(work, rv)))
		require.NoError(t, e.c.sync(context.Background(), ct.NewSyncContext(key)))
		assert.Empty(t, ct.Writes(e.hub.Actions()), "the lister still has version %s", rv)
		assert.Empty(t, e.dynamic.Actions())
	}

	require.NoError(t, e.works.Update(withResourceVersion(work, "7")))
	require.NoError(t, e.c.sync(context.Background(), ct.NewSyncContext(key)))
	assert.NotEmpty(t, ct.Writes(e.hub.Actions()), "the current copy is reconciled")
}

func withResourceVersion(work *workv1.ManifestWork, rv string) *workv1.ManifestWork {
	w := work.DeepCopy()
	w.ResourceVersion = rv
	return w
}
