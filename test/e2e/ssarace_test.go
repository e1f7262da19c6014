package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// The seed's "Resource Race and Adoption" walkthrough, step by step: a
// conflict over a field another field manager took with force is reported
// while the work sets that field, and clears once the work drops it. A
// conflict only ever names fields a manifest set, never the agent's own
// bookkeeping; works that share the object under the default field manager
// each keep their owner reference and never fight.
func TestServerSideApplyRaceAndAdoption(t *testing.T) {
	e := setup(t)
	runningAgent(t, "cluster1")
	ctx := t.Context()
	ns := "e2e-ssa-race"
	require.NoError(t, e.Cluster("cluster1").EnsureNamespaces(ctx, ns))
	deployments := e.Cluster("cluster1").Kube.AppsV1().Deployments(ns)

	hello := func(replicas *int32) workv1.Manifest {
		d := fixture.Deployment(ns, "hello", 1)
		d.Spec.Replicas = replicas
		return manifestOf(t, d)
	}
	ssa := func(config *workv1.ServerSideApplyConfig) workv1.ManifestConfigOption {
		c := fixture.WithStrategy(fixture.Config("apps", "deployments", ns, "hello"), workv1.UpdateStrategyTypeServerSideApply)
		c.UpdateStrategy.ServerSideApply = config
		return c
	}
	work := func(name string, manifest workv1.Manifest, config *workv1.ServerSideApplyConfig) *workv1.ManifestWork {
		w := fixture.NewWork("cluster1", name).WithConfig(ssa(config)).Build()
		w.Spec.Workload.Manifests = []workv1.Manifest{manifest}
		return w
	}

	// 1. Work A applies the Deployment without replicas; work C applies
	// the very same under the same default field manager.
	createWork(t, work("ssa-a", hello(nil), nil))
	waitWorkCondition(t, "cluster1", "ssa-a", workv1.WorkApplied, metav1.ConditionTrue)
	createWork(t, work("ssa-c", hello(nil), nil))
	waitWorkCondition(t, "cluster1", "ssa-c", workv1.WorkApplied, metav1.ConditionTrue)

	// 2. Work B takes replicas with force under another field manager.
	createWork(t, work("ssa-b", fixture.NewWork("x", "x").WithRawManifest(
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"hello","namespace":"` + ns + `"},"spec":{"replicas":3}}`,
	).Build().Spec.Workload.Manifests[0], &workv1.ServerSideApplyConfig{Force: true, FieldManager: "work-agent-another"}))
	waitWorkCondition(t, "cluster1", "ssa-b", workv1.WorkApplied, metav1.ConditionTrue)
	framework.Eventually(t, convergeTimeout, func() error {
		d, err := deployments.Get(ctx, "hello", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if d.Spec.Replicas == nil || *d.Spec.Replicas != 3 {
			return fmt.Errorf("replicas %v", d.Spec.Replicas)
		}
		if n := len(d.OwnerReferences); n != 3 {
			return fmt.Errorf("%d owner references, want one per work", n)
		}
		return nil
	}, "work B's replicas and an owner reference per work")

	// 3. Work A adds replicas: the conflict names B's manager and the
	// field, and nothing of the agent's own.
	two := int32(2)
	updateWork(t, "cluster1", "ssa-a", func(w *workv1.ManifestWork) { w.Spec.Workload.Manifests[0] = hello(&two) })
	w := waitManifestsApplied(t, "cluster1", "ssa-a", map[int]string{0: "work-agent-another"}, "work A reports the conflict")
	message := manifestCondition(w, 0, workv1.ManifestApplied).Message
	assert.Contains(t, message, ".spec.replicas")
	assert.NotContains(t, message, "annotations", "no bookkeeping to conflict on")
	assert.NotContains(t, message, "ownerReferences", "no bookkeeping to conflict on")
	assert.Equal(t, 1, strings.Count(message, "conflict with"), "one conflict: %s", message)

	// 4. Work A drops replicas again: the conflict clears.
	updateWork(t, "cluster1", "ssa-a", func(w *workv1.ManifestWork) { w.Spec.Workload.Manifests[0] = hello(nil) })
	waitWorkCondition(t, "cluster1", "ssa-a", workv1.WorkApplied, metav1.ConditionTrue)
	for _, name := range []string{"ssa-b", "ssa-c"} {
		waitWorkCondition(t, "cluster1", name, workv1.WorkApplied, metav1.ConditionTrue)
	}
	d, err := deployments.Get(ctx, "hello", metav1.GetOptions{})
	require.NoError(t, err)
	require.NotNil(t, d.Spec.Replicas)
	assert.Equal(t, int32(3), *d.Spec.Replicas, "B keeps replicas")
	assert.Len(t, d.OwnerReferences, 3, "every work keeps its owner reference")
	for key := range d.Annotations {
		assert.NotContains(t, key, "open-cluster-management.io", "no bookkeeping on the object")
	}

	// 5. Work C goes: the shared Deployment stays, A and B are untouched.
	require.NoError(t, env.Hub.Work.WorkV1().ManifestWorks("cluster1").Delete(ctx, "ssa-c", metav1.DeleteOptions{}))
	waitGone(t, "work ssa-c", func(ctx context.Context) error {
		_, err := getWork(ctx, "cluster1", "ssa-c")
		return err
	})
	d, err = deployments.Get(ctx, "hello", metav1.GetOptions{})
	require.NoError(t, err, "a shared object outlives one of its works")
	assert.Len(t, d.OwnerReferences, 2)
	waitWorkCondition(t, "cluster1", "ssa-a", workv1.WorkApplied, metav1.ConditionTrue)
}
