package integration

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/util/retry"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// With on-failure Abort, revision 1 rolls out complete and becomes the
// stable revision; revision 2 reaches two clusters (maxConcurrency 2) and
// fails on one past maxFailures 0: both go back to revision 1's spec and
// hash label at once, the third never sees revision 2, RolloutAborted is
// True and one Warning Event says so.
func TestReplicaSetAbort(t *testing.T) {
	s, ctx := replicaSetHub(t)

	template := func(color string) workv1alpha1.ManifestWorkReplicaSetSpec {
		return workv1alpha1.ManifestWorkReplicaSetSpec{
			ManifestWorkTemplate: fixture.NewWork("x", "x").WithManifest(
				fixture.ConfigMap("default", rsName, map[string]string{"color": color})).Build().Spec,
			PlacementRefs: []workv1alpha1.LocalPlacementReference{{Name: rsPlacement,
				RolloutStrategy: workv1alpha1.RolloutStrategy{Type: workv1alpha1.Progressive, Progressive: &workv1alpha1.RolloutProgressive{
					MaxConcurrency: intstr.FromInt32(2),
					RolloutConfig:  workv1alpha1.RolloutConfig{MaxFailures: intstr.FromInt32(0)},
				}}}},
		}
	}
	hash := func(color string) string {
		h, err := revision.Hash(revision.Input{ManifestWorkTemplate: template(color).ManifestWorkTemplate})
		require.NoError(t, err)
		return h
	}
	sets := s.Work.WorkV1alpha1().ManifestWorkReplicaSets(rsNamespace)
	created, err := sets.Create(ctx, &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: rsNamespace, Name: rsName,
			Annotations: map[string]string{replicaset.OnFailureAnnotation: replicaset.OnFailureAbort}},
		Spec: template("blue")}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sets.Delete(context.Background(), rsName, metav1.DeleteOptions{}) })

	// waitForRuns waits until each cluster's work has the spec and hash
	// label of the color given for it.
	waitForRuns := func(want map[string]string, what string) {
		t.Helper()
		framework.Eventually(t, convergeTimeout, func() error {
			for cluster, color := range want {
				w, err := s.Work.WorkV1().ManifestWorks(cluster).Get(ctx, rsName, metav1.GetOptions{})
				if err != nil {
					return err
				}
				if got := revision.OfWork(w); got != hash(color) {
					return fmt.Errorf("%s runs hash %s, want %s's %s", cluster, got, color, hash(color))
				}
				if h, _ := revision.Hash(revision.Input{ManifestWorkTemplate: w.Spec}); h != hash(color) {
					return fmt.Errorf("%s's spec is not %s's", cluster, color)
				}
			}
			return nil
		}, what)
	}

	waitForRuns(map[string]string{"mwrs-c1": "blue", "mwrs-c2": "blue"}, "revision 1 on the first two clusters")
	report(t, s, "mwrs-c1", metav1.ConditionFalse, metav1.ConditionFalse)
	report(t, s, "mwrs-c2", metav1.ConditionFalse, metav1.ConditionFalse)
	waitForRuns(map[string]string{"mwrs-c3": "blue"}, "revision 1 on the third")
	report(t, s, "mwrs-c3", metav1.ConditionFalse, metav1.ConditionFalse)
	framework.Eventually(t, convergeTimeout, func() error {
		if got := getReplicaSet(t, s).Annotations[replicaset.StableRevisionAnnotation]; got != hash("blue") {
			return fmt.Errorf("stable revision %q", got)
		}
		return nil
	}, "revision 1 complete: the stable revision")

	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		rs := getReplicaSet(t, s)
		rs.Spec = template("green")
		_, err := sets.Update(ctx, rs, metav1.UpdateOptions{})
		return err
	}))
	waitForRuns(map[string]string{"mwrs-c1": "green", "mwrs-c2": "green", "mwrs-c3": "blue"}, "revision 2 on two clusters")
	report(t, s, "mwrs-c1", metav1.ConditionTrue, metav1.ConditionTrue)
	report(t, s, "mwrs-c2", metav1.ConditionFalse, metav1.ConditionFalse)

	waitForRuns(map[string]string{"mwrs-c1": "blue", "mwrs-c2": "blue", "mwrs-c3": "blue"}, "both back on revision 1")
	aborted := waitForCondition(t, s, replicaset.ConditionRolloutAborted, metav1.ConditionTrue, replicaset.ReasonAborted)
	require.Contains(t, aborted.Message, fmt.Sprintf("Revision 2 (hash %s) failed on mwrs-c1; mwrs-c1, mwrs-c2 went back to revision 1 (hash %s)",
		hash("green"), hash("blue")))
	rs := getReplicaSet(t, s)
	require.Equal(t, hash("green"), rs.Annotations[replicaset.AbortedRevisionAnnotation])
	require.Equal(t, 0, rs.Status.Summary.Updated, "no cluster runs the spec's template")
	framework.Eventually(t, convergeTimeout, func() error {
		list, err := s.Kube.CoreV1().Events(rsNamespace).List(ctx, metav1.ListOptions{
			FieldSelector: "involvedObject.uid=" + string(created.UID) + ",reason=" + replicaset.EventRolloutAborted,
		})
		if err != nil {
			return err
		}
		if len(list.Items) != 1 || list.Items[0].Type != corev1.EventTypeWarning || list.Items[0].Count > 1 {
			return fmt.Errorf("%d RolloutAborted Events: %+v", len(list.Items), list.Items)
		}
		return nil
	}, "one RolloutAborted Event")

	// The works report on revision 1 again: the replica set still holds.
	report(t, s, "mwrs-c1", metav1.ConditionFalse, metav1.ConditionFalse)
	report(t, s, "mwrs-c2", metav1.ConditionFalse, metav1.ConditionFalse)
	waitForCondition(t, s, workv1alpha1.ConditionPlacementVerified, metav1.ConditionTrue, workv1alpha1.ReasonAsExpected)
	waitForRuns(map[string]string{"mwrs-c1": "blue", "mwrs-c2": "blue", "mwrs-c3": "blue"}, "held on revision 1")
}
