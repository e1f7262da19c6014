package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/apply/records"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// ignoreFields with OnSpokeChange at field level: the managed cluster's
// replicas (an autoscaler's) survive a change of the work's image, also
// after the agent restarts, and yield to a change of the work's replicas.
func TestOnSpokeChangeKeepsTheManagedClustersValue(t *testing.T) {
	e := setup(t)
	agent := runningAgent(t, "cluster1")
	ctx := t.Context()
	ns := "e2e-onspokechange"
	require.NoError(t, e.Cluster("cluster1").EnsureNamespaces(ctx, ns))
	deployments := e.Cluster("cluster1").Kube.AppsV1().Deployments(ns)

	deployment := func(replicas int32, image string) workv1.Manifest {
		d := fixture.Deployment(ns, "web", replicas)
		d.Spec.Template.Spec.Containers[0].Image = image
		return manifestOf(t, d)
	}
	config := fixture.WithStrategy(fixture.Config("apps", "deployments", ns, "web"), workv1.UpdateStrategyTypeServerSideApply)
	config.UpdateStrategy.ServerSideApply = &workv1.ServerSideApplyConfig{Force: true, IgnoreFields: []workv1.IgnoreField{{
		Condition: workv1.IgnoreFieldsConditionOnSpokeChange, JSONPaths: []string{".spec.replicas"},
	}}}
	w := fixture.NewWork("cluster1", "onspokechange").WithConfig(config).Build()
	w.Spec.Workload.Manifests = []workv1.Manifest{deployment(1, "fake-image:1")}
	createWork(t, w)
	waitWorkCondition(t, "cluster1", "onspokechange", workv1.WorkApplied, metav1.ConditionTrue)

	waitDeployment := func(replicas int32, image string) {
		t.Helper()
		framework.Eventually(t, convergeTimeout, func() error {
			d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return err
			}
			got := d.Spec.Template.Spec.Containers[0].Image
			if d.Spec.Replicas == nil || *d.Spec.Replicas != replicas || got != image {
				return fmt.Errorf("replicas %v image %s", d.Spec.Replicas, got)
			}
			return nil
		}, "deployment with %d replicas of %s", replicas, image)
	}
	persisted := func() string {
		amw, err := appliedWorkOf(ctx, "onspokechange")
		require.NoError(t, err)
		return amw.Annotations[records.Annotation]
	}

	// An autoscaler on the managed cluster sets replicas.
	framework.Eventually(t, convergeTimeout, func() error {
		d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		four := int32(4)
		d.Spec.Replicas = &four
		_, err = deployments.Update(ctx, d, metav1.UpdateOptions{FieldManager: "autoscaler"})
		return err
	}, "scale on the managed cluster")

	// The work changes its image: the autoscaler's replicas stay.
	before := persisted()
	updateWork(t, "cluster1", "onspokechange", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests[0] = deployment(1, "fake-image:2")
	})
	waitDeployment(4, "fake-image:2")
	waitWorkCondition(t, "cluster1", "onspokechange", workv1.WorkApplied, metav1.ConditionTrue)

	// The same after a restart, from the records the agent persisted.
	framework.Eventually(t, convergeTimeout, func() error {
		if persisted() == before {
			return fmt.Errorf("records not persisted yet")
		}
		return nil
	}, "records persisted")
	require.NoError(t, agent.Restart(time.Minute))
	updateWork(t, "cluster1", "onspokechange", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests[0] = deployment(1, "fake-image:3")
	})
	waitDeployment(4, "fake-image:3")

	// The work changes replicas: its value is applied.
	updateWork(t, "cluster1", "onspokechange", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests[0] = deployment(2, "fake-image:3")
	})
	waitDeployment(2, "fake-image:3")
	waitWorkCondition(t, "cluster1", "onspokechange", workv1.WorkApplied, metav1.ConditionTrue)
}
