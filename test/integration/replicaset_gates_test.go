package integration

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"k8s.io/component-base/metrics/testutil"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// A replica set whose only group needs an approval: the controller creates
// the group's RolloutApproval for the current revision and says so in
// RolloutWaiting; through several syncs no work is written; once the
// approval's status says Approved, the rollout goes on to every cluster and
// RolloutWaiting goes.
func TestReplicaSetApprovalGate(t *testing.T) {
	s, ctx := replicaSetHub(t)
	sets := s.Work.WorkV1alpha1().ManifestWorkReplicaSets(rsNamespace)
	// The API server is shared: a replica set of the same name that an
	// earlier test deleted goes first, with its works.
	framework.Eventually(t, convergeTimeout, func() error {
		if _, err := sets.Get(ctx, rsName, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("an earlier replica set %s is still there (%v)", rsName, err)
		}
		if got, err := clustersWithWork(ctx, s); err != nil || len(got) > 0 {
			return fmt.Errorf("works of an earlier replica set on %v (%v)", got, err)
		}
		return nil
	}, "no replica set %s nor its works", rsName)
	_, err := sets.Create(ctx, &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: rsNamespace, Name: rsName,
			Annotations: map[string]string{replicaset.ApproveBeforeAnnotation: rsPlacement + "/0"}},
		Spec: workv1alpha1.ManifestWorkReplicaSetSpec{
			ManifestWorkTemplate: fixture.NewWork("x", "x").WithManifest(fixture.ConfigMap("default", rsName, nil)).Build().Spec,
			PlacementRefs: []workv1alpha1.LocalPlacementReference{{Name: rsPlacement,
				RolloutStrategy: workv1alpha1.RolloutStrategy{Type: workv1alpha1.ProgressivePerGroup}}},
		},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sets.Delete(context.Background(), rsName, metav1.DeleteOptions{}) })

	waiting := waitForCondition(t, s, replicaset.ConditionRolloutWaiting, metav1.ConditionTrue, replicaset.ReasonAwaitingApproval)
	require.Contains(t, waiting.Message, "work fleet approve "+rsName+" -n "+rsNamespace+" --group "+rsPlacement+"/0")
	approvals := s.Work.FleetV1alpha1().RolloutApprovals(rsNamespace)
	list, err := approvals.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	approval := list.Items[0]
	require.Equal(t, fleetv1alpha1.RolloutApprovalSpec{ReplicaSet: rsName, Placement: rsPlacement, Group: "0", Revision: 1,
		RevisionHash: approval.Labels["work.manifestwork.io/revision-hash"]}, approval.Spec)

	for i := range 3 {
		syncs := replicaSetSyncs(t)
		require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
			rs := getReplicaSet(t, s)
			metav1.SetMetaDataAnnotation(&rs.ObjectMeta, "integration.manifestwork.io/nudge", fmt.Sprint(i))
			_, err := sets.Update(ctx, rs, metav1.UpdateOptions{})
			return err
		}))
		framework.Eventually(t, convergeTimeout, func() error {
			if n := replicaSetSyncs(t); n <= syncs {
				return fmt.Errorf("%v syncs, as before", n)
			}
			return nil
		}, "a sync after nudge %d", i)
		got, err := clustersWithWork(ctx, s)
		require.NoError(t, err)
		require.Empty(t, got, "the gate holds every cluster")
	}

	apimeta.SetStatusCondition(&approval.Status.Conditions, metav1.Condition{Type: fleetv1alpha1.ConditionApproved,
		Status: metav1.ConditionTrue, Reason: fleetv1alpha1.ReasonApproved, Message: "integration"})
	approval.Status.ApprovedBy = "integration"
	_, err = approvals.UpdateStatus(ctx, &approval, metav1.UpdateOptions{})
	require.NoError(t, err)
	waitForClusters(t, s, rsClusters...)
	waitForCondition(t, s, replicaset.ConditionRolloutWaiting, "", "")
}

// replicaSetSyncs is how many syncs of the replica set controller this
// process has counted.
func replicaSetSyncs(t *testing.T) float64 {
	t.Helper()
	var n float64
	for _, result := range []string{"success", "error"} {
		v, err := testutil.GetCounterMetricValue(metrics.Reconciles.WithLabelValues(replicaset.ControllerName, result))
		require.NoError(t, err)
		n += v
	}
	return n
}
