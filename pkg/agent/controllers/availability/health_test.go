package availability

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	k8smetrics "k8s.io/component-base/metrics"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/test/fixture"
)

// deploymentStatus is the web Deployment as the status cache keeps it.
func deploymentStatus(available int64, progress string) string {
	return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"namespace":"default","name":"web","generation":1},
"spec":{"replicas":3},"status":{"observedGeneration":1,"replicas":3,"updatedReplicas":3,"readyReplicas":3,
"availableReplicas":` + itoa(available) + `,"conditions":[` + progress + `]}}`
}

func itoa(n int64) string { return string(rune('0' + n)) }

const (
	rollingOut = `{"type":"Progressing","status":"True","reason":"ReplicaSetUpdated","message":"ReplicaSet \"web-7d9f\" is progressing."}`
	timedOut   = `{"type":"Progressing","status":"False","reason":"ProgressDeadlineExceeded","message":"ReplicaSet \"web-7d9f\" has timed out progressing."}`
	rolledOut  = `{"type":"Progressing","status":"True","reason":"NewReplicaSetAvailable","message":"ReplicaSet \"web-7d9f\" has successfully progressed."}`
)

func healthOf(t *testing.T, w *workv1.ManifestWork, i int) *metav1.Condition {
	t.Helper()
	c := apimeta.FindStatusCondition(w.Status.ResourceStatus.Manifests[i].Conditions, workv1.ManifestHealthy)
	require.NotNil(t, c, "manifest %d has no Healthy condition", i)
	return c
}

func workHealthOf(t *testing.T, w *workv1.ManifestWork) *metav1.Condition {
	t.Helper()
	c := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkHealthy)
	require.NotNil(t, c, "the work has no Healthy condition")
	return c
}

// A Deployment's health follows its status in the cache, with one patch per
// change and none, nor any read, when nothing changed.
func TestHealthFollowsTheStatusCache(t *testing.T) {
	cache := withStatus(cached(cm, deploy), deploy, deploymentStatus(2, rollingOut))
	work := newWork(nil, manifest(meta(0, cm), applied, available), manifest(meta(1, deploy), applied, available))
	f := newHarness(work, cache)

	_, err := f.reconcile(t, work)
	require.NoError(t, err)
	require.Len(t, f.patches(t), 1)
	stored := f.stored(t)
	assert.Equal(t, metav1.Condition{Type: workv1.ManifestHealthy, Status: metav1.ConditionFalse, Reason: workv1.HealthyReasonProgressing,
		Message: "2 of 3 replicas available; rollout waiting on ReplicaSet web-7d9f", ObservedGeneration: generation,
		LastTransitionTime: healthOf(t, stored, 1).LastTransitionTime}, *healthOf(t, stored, 1))
	assert.Equal(t, workv1.HealthyReasonNoHealthCheck, healthOf(t, stored, 0).Reason)
	wh := workHealthOf(t, stored)
	assert.Equal(t, metav1.ConditionFalse, wh.Status)
	assert.Equal(t, "1 of 2 resources are not healthy: Deployment default/web is Progressing (2 of 3 replicas available; rollout waiting on ReplicaSet web-7d9f)", wh.Message)

	_, err = f.reconcile(t, stored)
	require.NoError(t, err)
	assert.Empty(t, f.patches(t), "nothing changed, nothing written")
	assert.Zero(t, f.liveGets())

	withStatus(cache, deploy, deploymentStatus(3, rolledOut))
	_, err = f.reconcile(t, stored)
	require.NoError(t, err)
	require.Len(t, f.patches(t), 1)
	stored = f.stored(t)
	assert.Equal(t, "3 of 3 replicas updated and available", healthOf(t, stored, 1).Message)
	assert.Equal(t, metav1.Condition{Type: workv1.WorkHealthy, Status: metav1.ConditionTrue, Reason: workv1.HealthyReasonHealthy,
		Message: "All 2 resources are healthy", ObservedGeneration: generation, LastTransitionTime: workHealthOf(t, stored).LastTransitionTime},
		*workHealthOf(t, stored))
}

// Until the status cache has synced, the object is read from the API; an
// object that cannot be read has an Unknown health.
func TestHealthWithoutStatusCache(t *testing.T) {
	work := newWork(nil, manifest(meta(0, deploy), applied, available))
	obj := withStatus(&stubCache{}, deploy, deploymentStatus(3, rolledOut)).statuses[deploy]
	f := newHarness(work, cached(deploy))
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{deployments: "DeploymentList"}, obj)
	f.c.Assessor.Dynamic = dyn

	_, err := f.reconcile(t, work)
	require.NoError(t, err)
	assert.Equal(t, metav1.ConditionTrue, healthOf(t, f.stored(t), 0).Status)
	assert.Len(t, dyn.Actions(), 1, "one read")

	f = newHarness(work, cached(deploy))
	f.c.Assessor.Dynamic = dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{deployments: "DeploymentList"})
	withStatus(f.cache, cm, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"}}`) // a synced status cache that lacks the Deployment: gone meanwhile
	_, err = f.reconcile(t, work)
	require.NoError(t, err)
	assert.Equal(t, workv1.HealthyReasonProgressing, healthOf(t, f.stored(t), 0).Reason)
	assert.Equal(t, "Deployment default/web does not exist", healthOf(t, f.stored(t), 0).Message)

	f = newHarness(work, cached(deploy))
	f.cache.statuses = nil
	_, err = f.reconcile(t, work)
	require.NoError(t, err)
	h := healthOf(t, f.stored(t), 0)
	assert.Equal(t, metav1.ConditionUnknown, h.Status)
	assert.Equal(t, workv1.HealthyReasonUnknown, h.Reason)
	assert.Equal(t, metav1.ConditionUnknown, workHealthOf(t, f.stored(t)).Status)
}

// A condition rule that sets Healthy replaces the built-in rule: its
// condition is kept, and the work's Healthy aggregates it. (A work with
// rules is written by the status feedback controller, with this
// assessment.)
func TestConditionRuleOverridesHealth(t *testing.T) {
	fromRule := cond(workv1.ManifestHealthy, metav1.ConditionFalse, workv1.ConditionRuleEvaluated, "widget count is 0")
	work := newWork(nil, manifest(meta(0, deploy), applied, available, fromRule))
	work.Spec.ManifestConfigs = []workv1.ManifestConfigOption{{
		ResourceIdentifier: workv1.ResourceIdentifier{Group: "apps", Resource: "deployments", Namespace: "default", Name: "web"},
		ConditionRules:     []workv1.ConditionRule{{Type: workv1.CELConditionExpressionsType, Condition: workv1.ManifestHealthy, CelExpressions: []string{"false"}}},
	}}
	f := newHarness(work, withStatus(cached(deploy), deploy, deploymentStatus(3, rolledOut)))

	stored := f.assessed(t, work)
	got := healthOf(t, stored, 0)
	utc([]metav1.Condition{*got})
	assert.Equal(t, fromRule.Message, got.Message, "the rule's condition is kept")
	assert.Equal(t, fromRule.Reason, got.Reason)
	assert.Equal(t, metav1.ConditionFalse, workHealthOf(t, stored).Status)
	assert.Equal(t, workv1.HealthyReasonProgressing, workHealthOf(t, stored).Reason)
}

// A WellKnownConditions rule of type Healthy gives no condition (no kind has
// a built-in Healthy rule, as in OCM), so it overrides nothing: the built-in
// rule judges the manifest and the work's Healthy is written.
func TestWellKnownHealthyRuleKeepsBuiltInHealth(t *testing.T) {
	work := newWork(nil, manifest(meta(0, deploy), applied, available))
	work.Spec.ManifestConfigs = []workv1.ManifestConfigOption{fixture.WithConditionRules(
		fixture.Config("apps", "deployments", "default", "web"),
		workv1.ConditionRule{Type: workv1.WellKnownConditionsType, Condition: workv1.ManifestHealthy})}
	f := newHarness(work, withStatus(cached(deploy), deploy, deploymentStatus(3, rolledOut)))

	stored := f.assessed(t, work)
	assert.Equal(t, workv1.HealthyReasonHealthy, healthOf(t, stored, 0).Reason)
	assert.Equal(t, metav1.ConditionTrue, workHealthOf(t, stored).Status)
}

// An object applied a moment ago, not yet in the cache, is not judged: no
// Healthy for it yet, nor for the work, so that the first verdict costs no
// extra write.
func TestJustAppliedIsNotJudgedYet(t *testing.T) {
	fresh := available
	fresh.LastTransitionTime = metav1.Now()
	work := withRollout(newWork([]metav1.Condition{workAvail}, manifest(meta(0, deploy), applied, fresh)))
	f := newHarness(work, cached())

	result, err := f.reconcile(t, work)
	require.NoError(t, err)
	assert.Equal(t, unsettled, result)
	assert.Empty(t, f.patches(t))
}

// Events tell when a manifest turns Degraded and when it recovers; a
// flapping one gives one Event per interval, with the count of changes. The
// gauges count the manifest by health and the work by condition.
func TestHealthEvents(t *testing.T) {
	metrics.Register() // the gauge counts only once registered
	cache := withStatus(cached(deploy), deploy, deploymentStatus(3, rolledOut))
	work := newWork(nil, manifest(meta(0, deploy), applied, available))
	f := newHarness(work, cache)
	recorder := record.NewFakeRecorder(10)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	f.c.Assessor.health = newHealthReport(recorder, func() time.Time { return now })

	step := func(progress string, available int64) {
		t.Helper()
		withStatus(cache, deploy, deploymentStatus(available, progress))
		_, err := f.reconcile(t, f.stored(t))
		require.NoError(t, err)
	}
	events := func() []string { return ct.Recorded(recorder) }
	// The gauges are the process's, which the works of other tests (and of
	// an earlier run, with -count) move too: the test reads how far they
	// moved since it started.
	start := map[k8smetrics.GaugeMetric]float64{}
	moved := func(g k8smetrics.GaugeMetric) float64 {
		t.Helper()
		return ct.GaugeValue(t, g) - start[g]
	}
	gauge := func(health string) float64 {
		t.Helper()
		return moved(metrics.ManifestHealth.WithLabelValues("Deployment", health))
	}
	works := func(condition string, status metav1.ConditionStatus) float64 {
		t.Helper()
		return moved(metrics.ManifestWorks.WithLabelValues(condition, string(status)))
	}
	for _, h := range []string{workv1.HealthyReasonHealthy, workv1.HealthyReasonDegraded} {
		g := metrics.ManifestHealth.WithLabelValues("Deployment", h)
		start[g] = moved(g)
	}
	for _, condition := range countedConditions {
		for _, status := range []metav1.ConditionStatus{metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown} {
			g := metrics.ManifestWorks.WithLabelValues(condition, string(status))
			start[g] = moved(g)
		}
	}
	step(rolledOut, 3)
	assert.Empty(t, events(), "healthy from the start: nothing to tell")
	assert.Equal(t, 1.0, works(workv1.WorkDegraded, metav1.ConditionFalse))
	assert.Equal(t, 1.0, works(workv1.WorkAvailable, metav1.ConditionTrue))

	step(timedOut, 1)
	assert.Equal(t, []string{`Warning ManifestDegraded Deployment default/web is Degraded: Rollout exceeded its progress deadline: ReplicaSet "web-7d9f" has timed out progressing.`}, events())
	assert.Equal(t, 1.0, gauge(workv1.HealthyReasonDegraded))
	assert.Equal(t, 1.0, works(workv1.WorkDegraded, metav1.ConditionTrue), "the work counts as Degraded")
	assert.Zero(t, works(workv1.WorkDegraded, metav1.ConditionFalse), "and only so")

	now = now.Add(10 * time.Second)
	step(rolledOut, 3)
	step(timedOut, 1)
	step(rolledOut, 3)
	assert.Empty(t, events(), "flapping within the interval is not recorded")

	now = now.Add(eventInterval)
	step(timedOut, 1)
	assert.Equal(t, []string{`Warning ManifestDegraded Deployment default/web is Degraded: Rollout exceeded its progress deadline: ReplicaSet "web-7d9f" has timed out progressing. (health changed 3 more times since the last Event)`}, events())

	now = now.Add(eventInterval)
	step(rolledOut, 3)
	assert.Equal(t, []string{`Normal ManifestRecovered Deployment default/web recovered: 3 of 3 replicas updated and available`}, events())
	assert.Equal(t, 0.0, gauge(workv1.HealthyReasonDegraded))
	assert.Equal(t, 1.0, gauge(workv1.HealthyReasonHealthy))

	f.c.Assessor.health.forget(fixture.Cluster + "/" + workName)
	assert.Equal(t, 0.0, gauge(workv1.HealthyReasonHealthy), "a work that is gone leaves the gauge")
	for _, condition := range countedConditions {
		for _, status := range []metav1.ConditionStatus{metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown} {
			assert.Zero(t, works(condition, status), "a work that is gone leaves the gauge of works: %s %s", condition, status)
		}
	}
	step(timedOut, 1)
	assert.Len(t, events(), 1, "and its Events start over: within the interval of the last one, a change is recorded")
}

// A ReadOnly manifest whose object the agent may not read is Available
// Unknown with OCM's reason and message (the server's refusal), its Healthy
// Unknown with the same message, and it does not hold the work's
// Progressing: the work is rolled out, and not Degraded.
func TestUnreadableReadOnlyDoesNotHoldTheRollout(t *testing.T) {
	work := newWork([]metav1.Condition{workApplied}, manifest(meta(0, cm), applied))
	work.Spec.ManifestConfigs = []workv1.ManifestConfigOption{
		fixture.WithStrategy(fixture.Config("", "configmaps", "default", "cm"), workv1.UpdateStrategyTypeReadOnly),
	}
	f := newHarness(work, &stubCache{})
	refused := apierrors.NewForbidden(configMaps.GroupResource(), "cm",
		errors.New(`User "system:serviceaccount:open-cluster-management-agent:klusterlet-work-sa" cannot get resource "configmaps"`))
	f.spoke.PrependReactor("get", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, refused
	})

	_, err := f.reconcile(t, work)
	require.NoError(t, err)
	stored := f.stored(t)
	m := stored.Status.ResourceStatus.Manifests[0].Conditions
	avail := apimeta.FindStatusCondition(m, workv1.ManifestAvailable)
	require.NotNil(t, avail)
	assert.Equal(t, metav1.ConditionUnknown, avail.Status)
	assert.Equal(t, "FetchingResourceFailed", avail.Reason)
	assert.Equal(t, "Failed to fetch resource: "+refused.Error(), avail.Message)
	h := healthOf(t, stored, 0)
	assert.Equal(t, metav1.ConditionUnknown, h.Status)
	assert.Contains(t, h.Message, refused.Error())
	assert.Equal(t, metav1.ConditionUnknown, workHealthOf(t, stored).Status)
	p := apimeta.FindStatusCondition(stored.Status.Conditions, workv1.WorkProgressing)
	require.NotNil(t, p)
	assert.Equal(t, metav1.ConditionFalse, p.Status, p.Message)
	assert.Equal(t, workv1.WorkProgressingReasonCompleted, p.Reason)
	assert.Contains(t, p.Message, "ConfigMap default/cm")
	assert.False(t, apimeta.IsStatusConditionTrue(stored.Status.Conditions, workv1.WorkDegraded))
	wa := apimeta.FindStatusCondition(stored.Status.Conditions, workv1.WorkAvailable)
	require.NotNil(t, wa)
	assert.Equal(t, "1 of 1 resources have unknown status", wa.Message, "as OCM's")
}
