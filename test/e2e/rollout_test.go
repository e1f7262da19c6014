package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// waitWorkReason waits until the work's condition of the type has the
// status and reason for the work's current generation, with a message that
// contains text.
func waitWorkReason(t *testing.T, namespace, name, condType string, status metav1.ConditionStatus, reason, text string) *workv1.ManifestWork {
	t.Helper()
	return waitWorkConditionWithin(t, 2*convergeTimeout, namespace, name, condType, status, reason, text)
}

// The work-level Progressing and Degraded follow the health of what the
// work applied, as OCM's ManifestWorkReplicaSet reads them: a Deployment
// whose pods can never be scheduled keeps Progressing True, and is Degraded
// once past its progress deadline; one that becomes available turns
// Progressing False, for the work's current generation.
func TestWorkRolloutConditions(t *testing.T) {
	setup(t)
	runningAgent(t, "cluster1")
	ns := "e2e-rollout"

	stuck := fixture.Deployment(ns, "stuck", 1)
	deadline := int32(10)
	stuck.Spec.ProgressDeadlineSeconds = &deadline
	stuck.Spec.Template.Spec.NodeSelector = unschedulable
	createWork(t, fixture.NewWork("cluster1", "rollout").WithManifest(
		fixture.Namespace(ns),                  // 0
		stuck,                                  // 1
		fixture.ConfigMap(ns, "settings", nil), // 2
	).Build())
	createWork(t, fixture.NewWork("cluster1", "rollout-ready").WithManifest(
		fixture.Namespace(ns+"-ready"),
		fixture.Deployment(ns+"-ready", "ready", 2),
	).Build())

	// The Deployment that can become available: its work rolls out.
	ready := waitWorkReason(t, "cluster1", "rollout-ready", workv1.WorkProgressing, metav1.ConditionFalse,
		workv1.WorkProgressingReasonCompleted, "All 2 manifests are rolled out")
	assert.True(t, apimeta.IsStatusConditionTrue(ready.Status.Conditions, workv1.WorkHealthy), "rolled out means healthy")
	assertCondition(t, ready, workv1.WorkDegraded, metav1.ConditionFalse, workv1.WorkDegradedReasonAsExpected)

	// The stuck one: Degraded past its deadline, and still not rolled out.
	w := waitWorkReason(t, "cluster1", "rollout", workv1.WorkDegraded, metav1.ConditionTrue,
		workv1.WorkDegradedReasonManifestsDegraded, "1 of 3 manifests are degraded: Deployment e2e-rollout/stuck is Degraded (Rollout exceeded its progress deadline")
	assertCondition(t, w, workv1.WorkProgressing, metav1.ConditionTrue, workv1.WorkProgressingReasonRollingOut)
	assert.Contains(t, apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkProgressing).Message,
		"1 of 3 manifests are not rolled out yet: Deployment e2e-rollout/stuck is Degraded")

	// A new generation that can roll out (no replicas): Progressing False
	// and Degraded False, both for that generation.
	updateWork(t, "cluster1", "rollout", func(w *workv1.ManifestWork) {
		zero := int32(0)
		stuck.Spec.Replicas = &zero
		w.Spec.Workload.Manifests[1] = manifestOf(t, stuck)
	})
	w = waitWorkReason(t, "cluster1", "rollout", workv1.WorkProgressing, metav1.ConditionFalse,
		workv1.WorkProgressingReasonCompleted, "All 3 manifests are rolled out")
	assert.Greater(t, w.Generation, int64(1))
	assertCondition(t, w, workv1.WorkDegraded, metav1.ConditionFalse, workv1.WorkDegradedReasonAsExpected)
}

// assertCondition checks a work condition's status and reason, and that it
// is about the work's current generation.
func assertCondition(t *testing.T, w *workv1.ManifestWork, condType string, status metav1.ConditionStatus, reason string) {
	t.Helper()
	c := apimeta.FindStatusCondition(w.Status.Conditions, condType)
	if !assert.NotNil(t, c, "%s condition", condType) {
		return
	}
	assert.Equal(t, status, c.Status, "%s: %s", condType, c.Message)
	assert.Equal(t, reason, c.Reason, "%s: %s", condType, c.Message)
	assert.Equal(t, w.Generation, c.ObservedGeneration, condType)
}
