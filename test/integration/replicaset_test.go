package integration

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/util/retry"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/startup/startuptest"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

const (
	rsNamespace = "integration-mwrs"
	rsName      = "web"
	rsPlacement = "fleet"
	rsDecision  = "fleet-decision-1"
)

var rsClusters = []string{"mwrs-c1", "mwrs-c2", "mwrs-c3"}

// runReadyHub runs the hub like runHub and returns once it answers ready.
func runReadyHub(t *testing.T, s *framework.APIServer) {
	t.Helper()
	o := hubOptions(s)
	o.HealthProbeBindAddress = startuptest.FreeAddr(t)
	stop := startuptest.Start(t, o.HealthProbeBindAddress, func(ctx context.Context) error { return hub.Run(ctx, o) })
	t.Cleanup(func() { require.NoError(t, stop()) })
}

// replicaSetHub runs a ready hub on a new API server with the Placement
// CRDs, the replica sets' namespace and the clusters' namespaces, and a
// Placement that selects every cluster of rsClusters in one group.
func replicaSetHub(t *testing.T) (*framework.APIServer, context.Context) {
	t.Helper()
	s, ctx := setup(t)
	require.NoError(t, s.EnsureNamespaces(ctx, append([]string{rsNamespace}, rsClusters...)...))
	runReadyHub(t, s)
	installReplicaSetCRDs(t, s)
	writePlacement(t, s, rsClusters...)
	return s, ctx
}

// installReplicaSetCRDs installs the Placement and PlacementDecision CRDs, as
// on a standalone hub (the ManifestWorkReplicaSet CRD is a hub CRD, there from
// the start), and waits until they are served.
func installReplicaSetCRDs(t *testing.T, s *framework.APIServer) {
	t.Helper()
	_, err := s.InstallCRDs(framework.RepoPath("manifests", "placement"))
	require.NoError(t, err)
}

// writePlacement writes the Placement and its PlacementDecision by hand, as a
// standalone hub's user (or GitOps) would, with the clusters in one group.
func writePlacement(t *testing.T, s *framework.APIServer, clusters ...string) {
	t.Helper()
	ctx := t.Context()
	placements := s.Work.ClusterV1beta1().Placements(rsNamespace)
	p, err := placements.Get(ctx, rsPlacement, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		p, err = placements.Create(ctx, &clusterv1beta1.Placement{ObjectMeta: metav1.ObjectMeta{Namespace: rsNamespace, Name: rsPlacement}},
			metav1.CreateOptions{})
	}
	require.NoError(t, err)
	p.Status = clusterv1beta1.PlacementStatus{
		NumberOfSelectedClusters: int32(len(clusters)),
		DecisionGroups: []clusterv1beta1.DecisionGroupStatus{{
			DecisionGroupIndex: 0, Decisions: []string{rsDecision}, ClustersCount: int32(len(clusters)),
		}},
		Conditions: []metav1.Condition{},
	}
	_, err = placements.UpdateStatus(ctx, p, metav1.UpdateOptions{})
	require.NoError(t, err)

	decisions := s.Work.ClusterV1beta1().PlacementDecisions(rsNamespace)
	d, err := decisions.Get(ctx, rsDecision, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		d, err = decisions.Create(ctx, &clusterv1beta1.PlacementDecision{ObjectMeta: metav1.ObjectMeta{
			Namespace: rsNamespace, Name: rsDecision,
			Labels: map[string]string{
				clusterv1beta1.PlacementLabel:          rsPlacement,
				clusterv1beta1.DecisionGroupIndexLabel: "0",
				clusterv1beta1.DecisionGroupNameLabel:  "",
			},
		}}, metav1.CreateOptions{})
	}
	require.NoError(t, err)
	d.Status.Decisions = nil
	for _, c := range clusters {
		d.Status.Decisions = append(d.Status.Decisions, clusterv1beta1.ClusterDecision{ClusterName: c, Reason: ""})
	}
	_, err = decisions.UpdateStatus(ctx, d, metav1.UpdateOptions{})
	require.NoError(t, err)
}

// report sets a work's conditions for its current generation, as an agent
// would: Applied=True and the given Progressing and Degraded. Like an
// agent, it reads the work again when the hub changed it meanwhile.
func report(t *testing.T, s *framework.APIServer, cluster string, progressing, degraded metav1.ConditionStatus) {
	t.Helper()
	ctx := t.Context()
	works := s.Work.WorkV1().ManifestWorks(cluster)
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w, err := works.Get(ctx, rsName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, c := range []metav1.Condition{
			{Type: workv1.WorkApplied, Status: metav1.ConditionTrue, Reason: "AppliedManifestWorkComplete"},
			{Type: workv1.WorkProgressing, Status: progressing, Reason: "Reported"},
			{Type: workv1.WorkDegraded, Status: degraded, Reason: "Reported"},
		} {
			c.ObservedGeneration = w.Generation
			apimeta.SetStatusCondition(&w.Status.Conditions, c)
		}
		_, err = works.UpdateStatus(ctx, w, metav1.UpdateOptions{})
		return err
	}))
}

// clustersWithWork are the clusters where the replica set has a work.
func clustersWithWork(ctx context.Context, s *framework.APIServer) ([]string, error) {
	list, err := s.Work.WorkV1().ManifestWorks("").List(ctx, metav1.ListOptions{
		LabelSelector: workv1alpha1.ReplicaSetLabel + "=" + rsNamespace + "." + rsName,
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, w := range list.Items {
		out = append(out, w.Namespace)
	}
	slices.Sort(out)
	return out, nil
}

// waitForClusters waits until exactly these clusters have a work.
func waitForClusters(t *testing.T, s *framework.APIServer, want ...string) {
	t.Helper()
	framework.Eventually(t, convergeTimeout, func() error {
		got, err := clustersWithWork(t.Context(), s)
		if err != nil {
			return err
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("works on %v, want %v", got, want)
		}
		return nil
	}, "works on %v", want)
}

func getReplicaSet(t *testing.T, s *framework.APIServer) *workv1alpha1.ManifestWorkReplicaSet {
	t.Helper()
	rs, err := s.Work.WorkV1alpha1().ManifestWorkReplicaSets(rsNamespace).Get(t.Context(), rsName, metav1.GetOptions{})
	require.NoError(t, err)
	return rs
}

// A replica set on a standalone hub, its Placement and decisions written by
// hand: the hub starts its controller once the CRDs appear; a Progressive
// rollout with maxConcurrency 1 takes one cluster at a time as the works
// report success; a failed work stops it (maxFailures 0); a cluster that
// leaves the placement loses its work; deleting the replica set removes its
// works and its finalizer.
func TestReplicaSetRollout(t *testing.T) {
	s, ctx := setup(t)
	require.NoError(t, s.EnsureNamespaces(ctx, append([]string{rsNamespace}, rsClusters...)...))
	crdsThere, err := s.CRDEstablished(ctx, "placements.cluster.open-cluster-management.io")
	require.NoError(t, err)
	runReadyHub(t, s) // ready without the Placement CRDs, when they are not there yet
	if crdsThere {
		t.Log("the Placement CRDs were installed before the hub started")
	}
	installReplicaSetCRDs(t, s)
	writePlacement(t, s, rsClusters...)

	rs := &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: rsNamespace, Name: rsName},
		Spec: workv1alpha1.ManifestWorkReplicaSetSpec{
			ManifestWorkTemplate: fixture.NewWork("x", "x").WithManifest(fixture.ConfigMap("default", "web", nil)).Build().Spec,
			PlacementRefs: []workv1alpha1.LocalPlacementReference{{
				Name: rsPlacement,
				RolloutStrategy: workv1alpha1.RolloutStrategy{Type: workv1alpha1.Progressive, Progressive: &workv1alpha1.RolloutProgressive{
					MaxConcurrency: intstr.FromInt32(1),
					RolloutConfig:  workv1alpha1.RolloutConfig{MaxFailures: intstr.FromInt32(0)},
				}},
			}},
		},
	}
	_, err = s.Work.WorkV1alpha1().ManifestWorkReplicaSets(rsNamespace).Create(ctx, rs, metav1.CreateOptions{})
	require.NoError(t, err)

	waitForClusters(t, s, "mwrs-c1")
	require.Equal(t, []string{workv1alpha1.ReplicaSetFinalizer}, getReplicaSet(t, s).Finalizers)

	report(t, s, "mwrs-c1", metav1.ConditionFalse, metav1.ConditionFalse)
	waitForClusters(t, s, "mwrs-c1", "mwrs-c2")

	// c2 fails: the rollout stops before c3.
	report(t, s, "mwrs-c2", metav1.ConditionTrue, metav1.ConditionTrue)
	framework.Eventually(t, convergeTimeout, func() error {
		st := getReplicaSet(t, s).Status
		if st.Summary.Degraded != 1 {
			return fmt.Errorf("summary %+v, want one degraded work", st.Summary)
		}
		return nil
	}, "the failure is counted")
	got, err := clustersWithWork(ctx, s)
	require.NoError(t, err)
	require.Equal(t, []string{"mwrs-c1", "mwrs-c2"}, got, "a failure beyond maxFailures stops the rollout")
	rolledOut := apimeta.FindStatusCondition(getReplicaSet(t, s).Status.Conditions, workv1alpha1.ConditionPlacementRolledOut)
	require.NotNil(t, rolledOut)
	require.Equal(t, workv1alpha1.ReasonProgressing, rolledOut.Reason)

	// c2 recovers: c3 is next.
	report(t, s, "mwrs-c2", metav1.ConditionFalse, metav1.ConditionFalse)
	waitForClusters(t, s, "mwrs-c1", "mwrs-c2", "mwrs-c3")
	report(t, s, "mwrs-c3", metav1.ConditionFalse, metav1.ConditionFalse)
	framework.Eventually(t, convergeTimeout, func() error {
		c := apimeta.FindStatusCondition(getReplicaSet(t, s).Status.Conditions, workv1alpha1.ConditionPlacementRolledOut)
		if c == nil || c.Reason != workv1alpha1.ReasonComplete {
			return fmt.Errorf("PlacementRolledOut %+v", c)
		}
		return nil
	}, "rolled out")

	// c2 leaves the placement: its work goes.
	writePlacement(t, s, "mwrs-c1", "mwrs-c3")
	waitForClusters(t, s, "mwrs-c1", "mwrs-c3")

	// Deleting the replica set deletes its works, then drops the finalizer.
	require.NoError(t, s.Work.WorkV1alpha1().ManifestWorkReplicaSets(rsNamespace).Delete(ctx, rsName, metav1.DeleteOptions{}))
	waitForClusters(t, s)
	framework.Eventually(t, convergeTimeout, func() error {
		_, err := s.Work.WorkV1alpha1().ManifestWorkReplicaSets(rsNamespace).Get(ctx, rsName, metav1.GetOptions{})
		if !apierrors.IsNotFound(err) {
			return fmt.Errorf("replica set still there: %v", err)
		}
		return nil
	}, "replica set gone")
}

// waitForCondition waits until the replica set's condition of type t has
// the status and reason; an empty status waits for it to be absent.
func waitForCondition(t *testing.T, s *framework.APIServer, condType string, status metav1.ConditionStatus, reason string) *metav1.Condition {
	t.Helper()
	var found *metav1.Condition
	framework.Eventually(t, convergeTimeout, func() error {
		found = apimeta.FindStatusCondition(getReplicaSet(t, s).Status.Conditions, condType)
		switch {
		case status == "" && found == nil:
			return nil
		case status == "":
			return fmt.Errorf("%s is %s/%s, want it absent", condType, found.Status, found.Reason)
		case found == nil:
			return fmt.Errorf("no %s", condType)
		case found.Status != status || found.Reason != reason:
			return fmt.Errorf("%s is %s/%s", condType, found.Status, found.Reason)
		}
		return nil
	}, "%s %s/%s", condType, status, reason)
	return found
}

// A paused replica set creates no work and says so; resumed, it rolls out;
// a failure beyond maxFailures stops it with RolloutStopped and one Warning
// Event on the replica set naming the cluster and its agent's message, and
// FleetHealthy counts the cluster as degraded.
func TestReplicaSetPauseAndStop(t *testing.T) {
	s, ctx := replicaSetHub(t)

	rs := &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: rsNamespace, Name: rsName,
			Annotations: map[string]string{replicaset.PausedAnnotation: "true"}},
		Spec: workv1alpha1.ManifestWorkReplicaSetSpec{
			ManifestWorkTemplate: fixture.NewWork("x", "x").WithManifest(fixture.ConfigMap("default", "web", nil)).Build().Spec,
			PlacementRefs: []workv1alpha1.LocalPlacementReference{{
				Name: rsPlacement,
				RolloutStrategy: workv1alpha1.RolloutStrategy{Type: workv1alpha1.Progressive, Progressive: &workv1alpha1.RolloutProgressive{
					MaxConcurrency: intstr.FromInt32(1),
				}},
			}},
		},
	}
	sets := s.Work.WorkV1alpha1().ManifestWorkReplicaSets(rsNamespace)
	created, err := sets.Create(ctx, rs, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = sets.Delete(context.Background(), rsName, metav1.DeleteOptions{})
	})

	paused := waitForCondition(t, s, replicaset.ConditionRolloutPaused, metav1.ConditionTrue, replicaset.ReasonPaused)
	require.Contains(t, paused.Message, "0 of 3 selected clusters have the current template")
	got, err := clustersWithWork(ctx, s)
	require.NoError(t, err)
	require.Empty(t, got, "the status is written after the works: none while paused")

	// Resume: the rollout starts, and the condition goes.
	stored := getReplicaSet(t, s)
	delete(stored.Annotations, replicaset.PausedAnnotation)
	_, err = sets.Update(ctx, stored, metav1.UpdateOptions{})
	require.NoError(t, err)
	waitForClusters(t, s, "mwrs-c1")
	waitForCondition(t, s, replicaset.ConditionRolloutPaused, "", "")

	// c1 fails: the rollout stops, and says why.
	report(t, s, "mwrs-c1", metav1.ConditionTrue, metav1.ConditionTrue)
	stopped := waitForCondition(t, s, replicaset.ConditionRolloutStopped, metav1.ConditionTrue, replicaset.ReasonMaxFailuresReached)
	require.Contains(t, stopped.Message, "more clusters failed than maxFailures allows: mwrs-c1")
	fleet := waitForCondition(t, s, replicaset.ConditionFleetHealthy, metav1.ConditionFalse, replicaset.ReasonClustersDegraded)
	require.Equal(t, "0 of 1 clusters healthy; degraded: mwrs-c1", fleet.Message)
	framework.Eventually(t, convergeTimeout, func() error {
		list, err := s.Kube.CoreV1().Events(rsNamespace).List(ctx, metav1.ListOptions{
			FieldSelector: "involvedObject.uid=" + string(created.UID) + ",reason=" + replicaset.EventRolloutStopped,
		})
		if err != nil {
			return err
		}
		if len(list.Items) != 1 {
			return fmt.Errorf("%d RolloutStopped Events", len(list.Items))
		}
		ev := list.Items[0]
		if ev.Type != "Warning" || ev.InvolvedObject.Kind != "ManifestWorkReplicaSet" || !strings.Contains(ev.Message, "mwrs-c1: Degraded=True Reported") {
			return fmt.Errorf("event %s %s %q", ev.Type, ev.InvolvedObject.Kind, ev.Message)
		}
		return nil
	}, "one RolloutStopped Event")
	got, err = clustersWithWork(ctx, s)
	require.NoError(t, err)
	require.Equal(t, []string{"mwrs-c1"}, got)

	// c1 recovers: the condition goes, and c2 is next.
	report(t, s, "mwrs-c1", metav1.ConditionFalse, metav1.ConditionFalse)
	waitForClusters(t, s, "mwrs-c1", "mwrs-c2")
	waitForCondition(t, s, replicaset.ConditionRolloutStopped, "", "")

	require.NoError(t, sets.Delete(ctx, rsName, metav1.DeleteOptions{}))
	waitForClusters(t, s)
}
