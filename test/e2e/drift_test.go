package e2e

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/controllers/manifestwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// kubectlPatchColor sets data.color of a ConfigMap of cluster1 with kubectl,
// whose field manager is kubectl-patch.
func kubectlPatchColor(t *testing.T, namespace, name, color string) {
	t.Helper()
	_, err := env.Kubectl("cluster1", "patch", "configmap", name, "-n", namespace, "--type", "merge",
		"-p", fmt.Sprintf(`{"data":{"color":%q}}`, color))
	require.NoError(t, err)
}

// A ConfigMap edited with kubectl on the managed cluster is repaired, and the
// work gets one DriftRepaired Event naming kubectl's field manager and the
// field; more edits within a minute count on that Event, they add none.
func TestDriftRepairedEventNamesKubectl(t *testing.T) {
	setup(t)
	runningAgent(t, "cluster1")
	ns := "e2e-drift"
	require.NoError(t, env.Cluster("cluster1").EnsureNamespaces(t.Context(), ns))
	createWork(t, fixture.NewWork("cluster1", "drift").
		WithManifest(fixture.ConfigMap(ns, "settings", map[string]string{"color": "blue"})).Build())
	waitWorkCondition(t, "cluster1", "drift", workv1.WorkApplied, metav1.ConditionTrue)
	waitWorkCondition(t, "cluster1", "drift", manifestwork.ConditionInSync, metav1.ConditionTrue)

	kubectlPatchColor(t, ns, "settings", "red")
	waitConfigMapData(t, "cluster1", ns, "settings", "color", "blue")
	var first corev1.Event
	framework.Eventually(t, convergeTimeout, func() error {
		events, err := workEvents(t.Context(), "cluster1", "drift", manifestwork.EventDriftRepaired)
		if err != nil {
			return err
		}
		if len(events) != 1 {
			return fmt.Errorf("%d DriftRepaired events", len(events))
		}
		first = events[0]
		return nil
	}, "one DriftRepaired event")
	t.Logf("Event: %s", first.Message)
	for _, want := range []string{"ConfigMap " + ns + "/settings", "kubectl-patch", `.data.color: found "red", restored "blue"`} {
		require.Contains(t, first.Message, want)
	}
	require.NotContains(t, first.Message, "work-agent", "the agent's own field manager is not named")
	require.Equal(t, corev1.EventTypeWarning, first.Type)

	// Two more edits: still one Event, with a count.
	kubectlPatchColor(t, ns, "settings", "green")
	waitConfigMapData(t, "cluster1", ns, "settings", "color", "blue")
	kubectlPatchColor(t, ns, "settings", "yellow")
	waitConfigMapData(t, "cluster1", ns, "settings", "color", "blue")
	framework.Eventually(t, convergeTimeout, func() error {
		events, err := workEvents(t.Context(), "cluster1", "drift", manifestwork.EventDriftRepaired)
		if err != nil {
			return err
		}
		if len(events) != 1 {
			return fmt.Errorf("%d DriftRepaired events: %v", len(events), events)
		}
		if events[0].Count < 3 {
			return fmt.Errorf("count %d", events[0].Count)
		}
		return nil
	}, "one DriftRepaired event counting three repairs")
	waitWorkCondition(t, "cluster1", "drift", manifestwork.ConditionInSync, metav1.ConditionTrue)
}

// A ReadOnly manifest is a compliance check: InSync turns False with the
// differing path and both values after an edit on the managed cluster, and
// True again once the edit is reverted; the object is never written.
func TestReadOnlyReportsInSync(t *testing.T) {
	setup(t)
	runningAgent(t, "cluster1")
	ns := "e2e-readonly-insync"
	require.NoError(t, env.Cluster("cluster1").EnsureNamespaces(t.Context(), ns))
	cm := fixture.ConfigMap(ns, "policy", map[string]string{"color": "blue"})
	_, err := env.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns).Create(t.Context(), cm, metav1.CreateOptions{})
	require.NoError(t, err)
	createWork(t, fixture.NewWork("cluster1", "readonly-insync").WithManifest(cm).
		WithConfig(fixture.WithStrategy(fixture.Config("", "configmaps", ns, "policy"), workv1.UpdateStrategyTypeReadOnly)).Build())
	waitWorkCondition(t, "cluster1", "readonly-insync", manifestwork.ConditionInSync, metav1.ConditionTrue)

	kubectlPatchColor(t, ns, "policy", "red")
	w := waitWorkCondition(t, "cluster1", "readonly-insync", manifestwork.ConditionInSync, metav1.ConditionFalse)
	c := manifestCondition(w, 0, manifestwork.ConditionInSync)
	require.NotNil(t, c)
	require.Equal(t, manifestwork.InSyncReasonDrifted, c.Reason)
	require.Contains(t, c.Message, `.data.color: manifest "blue", live "red"`)
	got, err := env.Cluster("cluster1").Kube.CoreV1().ConfigMaps(ns).Get(t.Context(), "policy", metav1.GetOptions{})
	require.NoError(t, err)
	require.Equal(t, "red", got.Data["color"], "ReadOnly never writes")

	kubectlPatchColor(t, ns, "policy", "blue")
	w = waitWorkCondition(t, "cluster1", "readonly-insync", manifestwork.ConditionInSync, metav1.ConditionTrue)
	require.Equal(t, manifestwork.InSyncReasonInSync, manifestCondition(w, 0, manifestwork.ConditionInSync).Reason)
}
