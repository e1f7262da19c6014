package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/manifestwork/work/pkg/agent/controllers/availability"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// unschedulable is a nodeSelector that no fake node matches.
var unschedulable = map[string]string{"e2e.example.com/no-such-node": "true"}

// waitManifestHealth waits until the manifest at ordinal has a Healthy
// condition with the status and reason whose message contains text.
func waitManifestHealth(t *testing.T, cluster, work string, ordinal int, status metav1.ConditionStatus, reason, text string) *workv1.ManifestWork {
	t.Helper()
	return waitWork(t, 2*convergeTimeout, cluster, work, func(w *workv1.ManifestWork) error {
		c := manifestCondition(w, ordinal, workv1.ManifestHealthy)
		switch {
		case c == nil:
			return fmt.Errorf("manifest %d has no Healthy condition yet", ordinal)
		case c.Status != status || c.Reason != reason || !strings.Contains(c.Message, text):
			return fmt.Errorf("manifest %d is Healthy=%s (%s: %s)", ordinal, c.Status, c.Reason, c.Message)
		}
		return nil
	}, "manifest %d of %s Healthy=%s %s %q", ordinal, work, status, reason, text)
}

// A work's Healthy follows what kube-controller-manager and kwok make of its
// objects: a Deployment on fake nodes becomes healthy; one whose pods can
// never be scheduled exceeds its progress deadline and is Degraded; a Job
// past its deadline fails; a claim without a provisioner stays Pending; a
// ConfigMap has nothing to judge. kubectl shows the HEALTHY column, and the
// hub has an Event for each manifest that turned Degraded.
func TestHealthOfWorkloads(t *testing.T) {
	e := setup(t)
	agent := runningAgent(t, "cluster1")
	ns := "e2e-health"

	stuck := fixture.Deployment(ns, "stuck", 2)
	deadline := int32(10)
	stuck.Spec.ProgressDeadlineSeconds = &deadline
	stuck.Spec.Template.Spec.NodeSelector = unschedulable
	failing := fixture.Job(ns, "fails")
	active, backoff := int64(5), int32(0)
	failing.Spec.ActiveDeadlineSeconds, failing.Spec.BackoffLimit = &active, &backoff
	failing.Spec.Template.Spec.NodeSelector = unschedulable
	claim := &corev1.PersistentVolumeClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "data"},
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
		},
	}
	createWork(t, fixture.NewWork("cluster1", "health").WithManifest(
		fixture.Namespace(ns),                  // 0
		fixture.Deployment(ns, "ready", 2),     // 1
		stuck,                                  // 2
		failing,                                // 3
		claim,                                  // 4
		fixture.ConfigMap(ns, "settings", nil), // 5
	).Build())

	created := time.Now()
	waitManifestHealth(t, "cluster1", "health", 1, metav1.ConditionTrue, workv1.HealthyReasonHealthy, "2 of 2 replicas updated and available")
	t.Logf("ready Deployment healthy %s after the work was created", time.Since(created).Round(time.Millisecond))
	waitManifestHealth(t, "cluster1", "health", 3, metav1.ConditionFalse, workv1.HealthyReasonDegraded, "Job failed: DeadlineExceeded")
	w := waitManifestHealth(t, "cluster1", "health", 2, metav1.ConditionFalse, workv1.HealthyReasonDegraded,
		`Rollout exceeded its progress deadline: ReplicaSet "stuck-`)
	t.Logf("stuck Deployment Degraded %s after the work was created", time.Since(created).Round(time.Millisecond))

	assert.Equal(t, "PersistentVolumeClaim data is Pending", manifestCondition(w, 4, workv1.ManifestHealthy).Message)
	assert.Equal(t, workv1.HealthyReasonProgressing, manifestCondition(w, 4, workv1.ManifestHealthy).Reason)
	assert.Equal(t, workv1.HealthyReasonNoHealthCheck, manifestCondition(w, 5, workv1.ManifestHealthy).Reason)
	assert.Equal(t, metav1.ConditionTrue, manifestCondition(w, 0, workv1.ManifestHealthy).Status, "the Namespace is Active")
	for i := range 6 {
		assert.Equal(t, metav1.ConditionTrue, manifestCondition(w, i, workv1.ManifestAvailable).Status, "Available keeps its meaning: manifest %d exists", i)
		assert.Nil(t, manifestCondition(w, i, workv1.ManifestDegraded), "the Degraded type stays the rules'")
	}
	healthy := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkHealthy)
	require.NotNil(t, healthy)
	assert.Equal(t, metav1.ConditionFalse, healthy.Status)
	assert.Equal(t, workv1.HealthyReasonDegraded, healthy.Reason)
	assert.Contains(t, healthy.Message, "Deployment e2e-health/stuck is Degraded")
	assert.Contains(t, healthy.Message, "Job e2e-health/fails is Degraded")

	out, err := e.Kubectl("hub", "get", "manifestwork", "-n", "cluster1", "health")
	require.NoError(t, err)
	assert.Contains(t, out, "HEALTHY")
	assert.Regexp(t, `health\s+True\s+True\s+False`, out)

	waitEvent(t, "cluster1", "health", corev1.EventTypeWarning, availability.EventManifestDegraded, "Deployment e2e-health/stuck is Degraded")
	// The gauge counts manifests by kind and health, with no per-work label.
	waitMetric(t, agent, `work_manifest_health{health="Degraded",kind="Deployment"}`)
	waitMetric(t, agent, `work_manifest_health{health="Degraded",kind="Job"}`)
	waitMetric(t, agent, `work_manifest_health{health="NoHealthCheck",kind="ConfigMap"}`)
	const degradedDeployments = `work_manifest_health{health="Degraded",kind="Deployment"}`
	degraded := scrape(t, agent)[degradedDeployments]

	// Fixing the stuck Deployment on the managed cluster is not the work's
	// business (the work sets the selector again), but scaling it to zero
	// through the work is: it recovers.
	updateWork(t, "cluster1", "health", func(w *workv1.ManifestWork) {
		zero := int32(0)
		stuck.Spec.Replicas = &zero
		w.Spec.Workload.Manifests[2] = manifestOf(t, stuck)
	})
	waitManifestHealth(t, "cluster1", "health", 2, metav1.ConditionTrue, workv1.HealthyReasonHealthy, "0 of 0 replicas")
	framework.Eventually(t, convergeTimeout, func() error {
		if v := scrape(t, agent)[degradedDeployments]; v != degraded-1 {
			return fmt.Errorf("%v Deployments Degraded, want %v", v, degraded-1)
		}
		return nil
	}, "the recovered Deployment leaves the Degraded count")
}

// A CustomResourceDefinition whose names conflict with another's is
// Degraded; a custom resource is judged by its Ready condition, which the
// test flips; a condition rule that sets Healthy replaces the built-in rule.
//
// It runs on cluster2, with an agent of its own as the other Widget tests
// do: cluster1 must keep not serving Widgets.
func TestHealthOfCustomResources(t *testing.T) {
	setup(t)
	startAgent(t, "cluster2")
	ensureWidgetCRD(t, "cluster2")
	grantAgentWidgets(t, "cluster2")
	ns := "e2e-health-cr"

	conflicting := fixture.WidgetCRD()
	conflicting.Name = "gadgets.example.com"
	conflicting.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "gadgets", Singular: "gadget", Kind: "Widget", ListKind: "WidgetList"}
	override := fixture.Config("example.com", "widgets", ns, "judged-by-rule")
	override.ConditionRules = []workv1.ConditionRule{{
		Type: workv1.CELConditionExpressionsType, Condition: workv1.ManifestHealthy,
		CelExpressions:    []string{`has(object.spec.size) && object.spec.size > 2`},
		MessageExpression: `result ? "big enough" : "too small"`,
	}}
	createWork(t, fixture.NewWork("cluster2", "health-cr").WithManifest(
		fixture.Namespace(ns), // 0
		conflicting,           // 1
		fixture.Widget(ns, "w", map[string]any{}),                              // 2
		fixture.Widget(ns, "judged-by-rule", map[string]any{"size": int64(1)}), // 3
	).WithConfig(override).Build())

	waitManifestHealth(t, "cluster2", "health-cr", 1, metav1.ConditionFalse, workv1.HealthyReasonDegraded, "Names not accepted")
	waitManifestHealth(t, "cluster2", "health-cr", 2, metav1.ConditionTrue, workv1.HealthyReasonNoHealthCheck, "Widget exists")
	waitManifestHealth(t, "cluster2", "health-cr", 3, metav1.ConditionFalse, workv1.ConditionRuleEvaluated, "too small")
	// The status feedback controller writes the rule's Healthy; the
	// availability controller aggregates it with the others in a write of
	// its own, which may come a moment later.
	waitWork(t, convergeTimeout, "cluster2", "health-cr", func(w *workv1.ManifestWork) error {
		c := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkHealthy)
		if c == nil || c.Reason != workv1.HealthyReasonDegraded ||
			!strings.Contains(c.Message, "Widget e2e-health-cr/judged-by-rule is Progressing (too small)") {
			return fmt.Errorf("work Healthy is %v", c)
		}
		return nil
	}, "the agent aggregates the rule's Healthy with the others")

	live := env.Cluster("cluster2").Dynamic.Resource(widgets).Namespace(ns)
	setReady := func(status, reason string) time.Time {
		t.Helper()
		obj, err := live.Get(t.Context(), "w", metav1.GetOptions{})
		require.NoError(t, err)
		require.NoError(t, unstructured.SetNestedSlice(obj.Object, []any{map[string]any{
			"type": "Ready", "status": status, "reason": reason, "message": "set by the test",
			"lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
		}}, "status", "conditions"))
		_, err = live.UpdateStatus(t.Context(), obj, metav1.UpdateOptions{})
		require.NoError(t, err)
		return time.Now()
	}
	changed := setReady("False", "Broken")
	waitManifestHealth(t, "cluster2", "health-cr", 2, metav1.ConditionFalse, workv1.HealthyReasonDegraded, "Ready is False: Broken: set by the test")
	t.Logf("Ready=False reached the hub within %s", time.Since(changed).Round(time.Millisecond))
	changed = setReady("True", "Fine")
	waitManifestHealth(t, "cluster2", "health-cr", 2, metav1.ConditionTrue, workv1.HealthyReasonHealthy, "Fine: set by the test")
	t.Logf("Ready=True reached the hub within %s", time.Since(changed).Round(time.Millisecond))
}
