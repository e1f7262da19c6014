package integration

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// The agent watches a type in the namespaces its works use, or in the whole
// cluster past objectwatch.MaxNamespaces of them. Either way, and across a
// change from one to the other, an object someone edits on the managed
// cluster is put back, with no timer to wait for: the watch brings the edit.
func TestDriftRepairedWhateverTheWatchScope(t *testing.T) {
	s, ctx := setup(t)
	runAgent(t, s)
	namespaces := make([]string, objectwatch.MaxNamespaces+1)
	for i := range namespaces {
		namespaces[i] = fmt.Sprintf("scope-%02d", i)
	}
	require.NoError(t, s.EnsureNamespaces(ctx, namespaces...))
	works := s.Work.WorkV1().ManifestWorks(fixture.Cluster)
	// spread is the work with one ConfigMap in each of the first n namespaces.
	spread := func(n int) []runtime.Object {
		var manifests []runtime.Object
		for _, ns := range namespaces[:n] {
			manifests = append(manifests, fixture.ConfigMap(ns, "settings", map[string]string{"mode": "desired"}))
		}
		return manifests
	}
	// repaired edits the ConfigMap in ns and waits until the agent put it back.
	repaired := func(step, ns string) {
		t.Helper()
		cms := s.Kube.CoreV1().ConfigMaps(ns)
		desired := func() error {
			cm, err := cms.Get(ctx, "settings", metav1.GetOptions{})
			if err != nil {
				return err
			}
			if cm.Data["mode"] != "desired" {
				return fmt.Errorf("mode is %q", cm.Data["mode"])
			}
			return nil
		}
		framework.Eventually(t, convergeTimeout, desired, "%s: %s/settings applied", step, ns)
		cm, err := cms.Get(ctx, "settings", metav1.GetOptions{})
		require.NoError(t, err)
		cm.Data["mode"] = "edited"
		_, err = cms.Update(ctx, cm, metav1.UpdateOptions{FieldManager: "someone"})
		require.NoError(t, err)
		framework.Eventually(t, convergeTimeout, desired, "%s: edit of %s/settings repaired", step, ns)
	}
	setManifests := func(n int) {
		t.Helper()
		w, err := works.Get(ctx, "scope", metav1.GetOptions{})
		require.NoError(t, err)
		w.Spec.Workload.Manifests = fixture.NewWork(fixture.Cluster, "scope").WithManifest(spread(n)...).Build().Spec.Workload.Manifests
		_, err = works.Update(ctx, w, metav1.UpdateOptions{})
		require.NoError(t, err)
	}

	_, err := works.Create(ctx, fixture.NewWork(fixture.Cluster, "scope").WithManifest(spread(1)...).Build(), metav1.CreateOptions{})
	require.NoError(t, err)
	repaired("one namespace", namespaces[0])

	setManifests(len(namespaces))
	repaired("more namespaces than are watched one by one", namespaces[0])
	repaired("more namespaces than are watched one by one", namespaces[len(namespaces)-1])

	setManifests(2)
	repaired("back to two namespaces", namespaces[1])
	require.NoError(t, works.Delete(ctx, "scope", metav1.DeleteOptions{}))
}
