package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/status/stalled"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// A ReadOnly manifest of an object the agent may not read (a PriorityClass:
// neither admin nor the agent's base role grants it) never fails to apply,
// as with OCM's agent: the manifest and the work are Applied, the manifest
// is Available=Unknown (FetchingResourceFailed) with the API server's
// refusal and Healthy=Unknown, and it holds neither the work's Progressing
// nor Degraded, also once the failure has lasted (the work is then Stalled
// for the type the agent cannot watch). The other objects are recorded in
// the AppliedManifestWork.
func TestReadOnlyOfAnObjectTheAgentMayNotRead(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ctx := t.Context()
	ns := "e2e-readonly-unreadable"
	require.NoError(t, e.Cluster("cluster1").EnsureNamespaces(ctx, ns))
	classes := e.Cluster("cluster1").Kube.SchedulingV1().PriorityClasses()
	_, err := classes.Create(ctx, &schedulingv1.PriorityClass{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e-readonly-high"}, Value: 1000,
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = classes.Delete(context.Background(), "e2e-readonly-high", metav1.DeleteOptions{}) })

	createWork(t, fixture.NewWork("cluster1", "readonly-unreadable").
		WithRawManifest(`{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "e2e-readonly-high"}}`).
		WithManifest(fixture.ConfigMap(ns, "cm", map[string]string{"key": "value"})).
		WithConfig(fixture.WithStrategy(fixture.Config("scheduling.k8s.io", "priorityclasses", "", "e2e-readonly-high"),
			workv1.UpdateStrategyTypeReadOnly)).
		Build())

	w := waitWork(t, convergeTimeout, "cluster1", "readonly-unreadable", func(w *workv1.ManifestWork) error {
		avail := manifestCondition(w, 0, workv1.ManifestAvailable)
		if avail == nil || avail.Status != metav1.ConditionUnknown {
			return fmt.Errorf("PriorityClass Available is %v", avail)
		}
		progressing := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkProgressing)
		if progressing == nil || progressing.ObservedGeneration != w.Generation || progressing.Status != metav1.ConditionFalse {
			return fmt.Errorf("work Progressing is %v", progressing)
		}
		return nil
	}, "the unreadable ReadOnly manifest is Available=Unknown, and the work is rolled out")
	assertReadOnlyUnreadable(t, w)
	assert.Contains(t, apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkProgressing).Message, "PriorityClass e2e-readonly-high")

	// The AppliedManifestWork records the ConfigMap all the same (OCM's
	// agent records nothing of such a work: a row of docs/ocm-differences.yaml).
	framework.Eventually(t, convergeTimeout, func() error {
		applied, err := appliedWorkOf(ctx, "readonly-unreadable")
		if err != nil {
			return err
		}
		var names []string
		for _, r := range applied.Status.AppliedResources {
			names = append(names, r.Resource+"/"+r.Name)
		}
		if !slices.Equal(names, []string{"configmaps/cm"}) {
			return fmt.Errorf("the AppliedManifestWork records %v", names)
		}
		return nil
	}, "the AppliedManifestWork records the ConfigMap, not the PriorityClass it cannot read")

	// Once the failure has lasted (the Stalled condition says the agent
	// cannot watch the type), the work is still Applied and not Degraded.
	w = waitWorkConditionWithin(t, convergeTimeout, "cluster1", "readonly-unreadable", stalled.ConditionType, metav1.ConditionTrue,
		stalled.ReasonResourceTypeNotWatched, "priorityclasses")
	assertReadOnlyUnreadable(t, w)
}

// assertReadOnlyUnreadable checks the work of TestReadOnlyOfAnObjectTheAgentMayNotRead.
func assertReadOnlyUnreadable(t *testing.T, w *workv1.ManifestWork) {
	t.Helper()
	for ordinal := range 2 {
		applied := manifestCondition(w, ordinal, workv1.ManifestApplied)
		require.NotNil(t, applied, "manifest %d Applied", ordinal)
		assert.Equal(t, metav1.ConditionTrue, applied.Status, "manifest %d Applied: %s", ordinal, applied.Message)
	}
	avail := manifestCondition(w, 0, workv1.ManifestAvailable)
	require.NotNil(t, avail)
	assert.Equal(t, metav1.ConditionUnknown, avail.Status)
	assert.Equal(t, workv1.ManifestAvailableReasonFetchFailed, avail.Reason)
	assert.True(t, strings.HasPrefix(avail.Message, "Failed to fetch resource: "), avail.Message)
	assert.Contains(t, avail.Message, "forbidden")
	healthy := manifestCondition(w, 0, workv1.ManifestHealthy)
	require.NotNil(t, healthy)
	assert.Equal(t, metav1.ConditionUnknown, healthy.Status)
	for condType, want := range map[string]metav1.ConditionStatus{
		workv1.WorkApplied:     metav1.ConditionTrue,
		workv1.WorkAvailable:   metav1.ConditionUnknown,
		workv1.WorkProgressing: metav1.ConditionFalse,
		workv1.WorkDegraded:    metav1.ConditionFalse,
	} {
		c := apimeta.FindStatusCondition(w.Status.Conditions, condType)
		require.NotNil(t, c, "work %s", condType)
		assert.Equal(t, want, c.Status, "work %s: %s %s", condType, c.Reason, c.Message)
	}
}
