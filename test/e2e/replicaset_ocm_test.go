package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/util/retry"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	clusterac "github.com/manifestwork/work/pkg/client/applyconfiguration/cluster/v1beta1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// TestReplicaSetSideBySideWithOCM runs OCM's own ManifestWorkReplicaSet
// controller (`work manager` of OCM v1.0.0, the binary hack/ocm-agent.sh
// builds) and ours (`work hub`) through the same steps, given the same
// Placement and PlacementDecision (written by hand) and the same replica
// sets. Our agents run on cluster1 and cluster2 and report the works, so
// both controllers read the status a real agent writes.
//
// One hub, one controller at a time: OCM's runs every step first, and a
// snapshot is taken once each step has settled; then it stops, ours starts
// and runs the same steps, and must reach the same snapshot at each. So the
// two never act on the same replica set, and they share the agents (two
// hubs would need a second set of agents, and the hub's CRDs and RBAC twice,
// on a machine of two cores). A snapshot holds the replica set as stored
// (metadata, finalizers, status with summaries and conditions, times left
// out), each of its works without status (name, namespace, labels,
// annotations, finalizers, spec) and whether each cluster has the object
// the template delivers.
//
// The steps are those where OCM v1.0 and v1.3 (whose semantics ours
// follows) agree, compared once settled:
//   - creation with All: both clusters get their work at once;
//   - deletion of that replica set: its works go, then it does;
//   - creation with Progressive (maxConcurrency 1) while cluster1's agent is
//     stopped: cluster1's work, not reported yet, holds the only slot, and
//     cluster2 waits;
//   - cluster1's agent reports: cluster1 has succeeded, cluster2 gets its
//     work;
//   - cluster2 leaves the decisions: its work is deleted;
//   - deletion of the replica set.
//
// Not compared, because v1.0 and v1.3 differ there:
//   - a template change: v1.0 counts a cluster as succeeded when its work
//     is Available=True, also of the previous generation, so it moves on
//     before the agent has applied the new template; v1.3 waits for
//     Progressing=False of the work's current generation;
//   - a work that does not become healthy (a Deployment that cannot be
//     scheduled): v1.0 counts Available=True (its objects exist) as success
//     and reads Degraded only while Available is not True; v1.3 holds the
//     cluster while Progressing is True and counts Progressing with
//     Degraded as failed, so maxFailures and progressDeadline fire on other
//     clusters;
//   - PlacementRolledOut between a work's creation and its success: v1.0
//     says Complete once every selected cluster has a work of the current
//     template, v1.3 once each has also succeeded (settled, both agree);
//   - the replica set's own labels: ours, as OCM releases after v1.0, copies
//     them onto its works; v1.0 does not. The replica sets here have none.
//
// Compared, with a known difference at every step (replicaSetOCMDifferences):
// the summaries' applied, desiredTotal and updated, which v1.0 leaves
// unset. And a count that is 0 may be missing from v1.0's status, read as
// 0 (see zeroCounts). The test fails on any other difference, and on a row
// no step shows any longer.
func TestReplicaSetSideBySideWithOCM(t *testing.T) {
	e, binary := replicaSetOCMSetup(t, sbsReplicaSets...)
	ocm := startOCMManager(t, e, binary)
	recorded := map[string]framework.Snapshot{}
	var steps []string
	replicaSetSteps(t, func(step, rs string, want, silent []string) {
		recorded[step] = settledSnapshot(t, "OCM v1.0.0 after "+step, rs, want, silent)
		steps = append(steps, step)
	})
	stopProcess(t, ocm)

	ours, err := e.StartHub("--disable-leader-election")
	require.NoError(t, err, "starting work hub")
	t.Cleanup(func() { stopProcess(t, ours) })
	var seen []framework.Difference
	i := 0
	replicaSetSteps(t, func(step, rs string, want, silent []string) {
		require.Equal(t, steps[i], step, "the same steps on both sides")
		i++
		diffs := sameAsOCM(t, step, rs, want, silent, recorded[step])
		t.Logf("after %q: %d values of OCM's snapshot compared, %d known differences", step, len(recorded[step])-len(diffs), len(diffs))
		seen = append(seen, diffs...)
	})

	_, unused := framework.MatchDifferences(replicaSetOCMDifferences, map[string]bool{sbsCase: true}, seen)
	for _, r := range unused {
		t.Errorf("no step shows the difference %q any longer (%s): drop its row", r.Behaviour, r.Path)
	}
}

const (
	sbsCase      = "replicaset-side-by-side"
	sbsNamespace = "e2e-mwrs-ocm"
	sbsPlacement = "fleet"
	sbsDecision  = "fleet-decision-1"
)

// sbsReplicaSets are the replica sets the steps create.
var sbsReplicaSets = []string{"web-all", "web-progressive"}

// replicaSetOCMDifferences are what OCM's v1.0.0 controller and ours write
// differently at every step, on the hub's CRD (OCM v1.3's schema).
var replicaSetOCMDifferences = func() []framework.DifferenceRow {
	var rows []framework.DifferenceRow
	for _, prefix := range []string{"replicaset.status.summary.", "replicaset.status.placementSummary[*].summary."} {
		rows = append(rows,
			framework.DifferenceRow{
				Case: sbsCase, Path: prefix + "applied",
				Behaviour: "the count of works Applied", OCM: "absent (0)", Ours: "the count",
				Reason: "v1.0 writes it under the key `Applied`, which OCM v1.3's schema does not have; the API server drops it",
			},
			framework.DifferenceRow{
				Case: sbsCase, Path: prefix + "desiredTotal",
				Behaviour: "the clusters the Placements select", OCM: "absent (0)", Ours: "numberOfSelectedClusters",
				Reason: "added to the API after v1.0",
			},
			framework.DifferenceRow{
				Case: sbsCase, Path: prefix + "updated",
				Behaviour: "the works with the current template", OCM: "absent (0)", Ours: "the same as total",
				Reason: "added to the API after v1.0",
			})
	}
	// Ours writes three conditions of its own after OCM's three.
	rows = append(rows,
		framework.DifferenceRow{
			Case: sbsCase, Path: "replicaset.status.conditions[3]",
			Behaviour: "the condition FleetHealthy", OCM: "absent", Ours: "the clusters whose works are Healthy, Degraded or neither",
			Reason: "beyond OCM: fleet health at a glance, without a new field",
		},
		framework.DifferenceRow{
			Case: sbsCase, Path: "replicaset.status.conditions[4]",
			Behaviour: "the condition FleetInSync", OCM: "absent", Ours: "the clusters whose works report InSync=False",
			Reason: "beyond OCM: drift at a glance, without a new field",
		},
		// Ours records each template as a ControllerRevision and labels the
		// works it writes with the revision's hash.
		framework.DifferenceRow{
			Case: sbsCase, Path: "replicaset.status.conditions[5]",
			Behaviour: "the condition RevisionsRecorded", OCM: "absent", Ours: "the current revision's number and hash",
			Reason: "beyond OCM: revision history (OCM's enhancement 229 is not released), without a new field",
		},
		// Ours says which generation of the spec each condition describes.
		framework.DifferenceRow{
			Case: sbsCase, Path: "replicaset.status.conditions[*].observedGeneration",
			Behaviour: "the generation of the spec a condition describes", OCM: "absent (0)", Ours: "metadata.generation",
			Reason: "a reader (work fleet wait) tells the status of the current template from that of the template before an undo",
		},
		framework.DifferenceRow{
			Case: sbsCase, Path: "work[*].metadata.labels.work.manifestwork.io/revision-hash",
			Behaviour: "the label of the revision a work runs", OCM: "absent", Ours: "the revision's hash",
			Reason: "beyond OCM: which cluster runs which revision is one label query; a label of ours, not OCM's planned controller-hash",
		})
	return rows
}()

var (
	replicaSetGVR   = schema.GroupVersionResource{Group: "work.open-cluster-management.io", Version: "v1alpha1", Resource: "manifestworkreplicasets"}
	manifestWorkGVR = schema.GroupVersionResource{Group: "work.open-cluster-management.io", Version: "v1", Resource: "manifestworks"}
)

// replicaSetSteps runs the steps; after each, check is called with the
// replica set the step is about, the clusters that must have its work
// (none: the replica set is gone too), and the clusters whose agent is
// stopped (their works have no status).
func replicaSetSteps(t *testing.T, check func(step, rs string, want, silent []string)) {
	t.Helper()
	writeSideBySidePlacement(t, "cluster1", "cluster2")

	createSideBySideReplicaSet(t, "web-all", workv1alpha1.RolloutStrategy{Type: workv1alpha1.All})
	check("creation with All", "web-all", []string{"cluster1", "cluster2"}, nil)
	deleteSideBySideReplicaSet(t, "web-all")
	check("deletion of the All replica set", "web-all", nil, nil)

	stopSharedAgent(t, "cluster1")
	createSideBySideReplicaSet(t, "web-progressive", workv1alpha1.RolloutStrategy{
		Type:        workv1alpha1.Progressive,
		Progressive: &workv1alpha1.RolloutProgressive{MaxConcurrency: intstr.FromInt32(1)},
	})
	check("creation with Progressive, cluster1 not reported yet", "web-progressive", []string{"cluster1"}, []string{"cluster1"})
	runningAgent(t, "cluster1")
	check("Progressive, cluster1 reported", "web-progressive", []string{"cluster1", "cluster2"}, nil)

	writeSideBySidePlacement(t, "cluster1")
	check("cluster2 leaves the decisions", "web-progressive", []string{"cluster1"}, nil)
	deleteSideBySideReplicaSet(t, "web-progressive")
	check("deletion of the Progressive replica set", "web-progressive", nil, nil)
}

// settledSnapshot waits until the step has settled (see settled) and
// returns its snapshot.
func settledSnapshot(t *testing.T, what, rs string, want, silent []string) framework.Snapshot {
	t.Helper()
	var snap framework.Snapshot
	framework.Eventually(t, 2*convergeTimeout, func() error {
		var err error
		snap, err = settledOnce(t.Context(), rs, want, silent)
		return err
	}, "%s: settled", what)
	return snap
}

// settledOnce takes a snapshot, checks that the step has settled, and takes
// another, which must be the same.
func settledOnce(ctx context.Context, rs string, want, silent []string) (framework.Snapshot, error) {
	before, err := sideBySideSnapshot(ctx, rs)
	if err != nil {
		return nil, err
	}
	if err := settled(ctx, rs, want, silent); err != nil {
		return nil, err
	}
	after, err := sideBySideSnapshot(ctx, rs)
	if err != nil {
		return nil, err
	}
	if d := framework.CompareSnapshots(sbsCase, "", before, after); len(d) > 0 {
		return nil, fmt.Errorf("still changing: %s", d[0].Path)
	}
	return after, nil
}

// sameAsOCM waits until our side has settled with the snapshot OCM's side
// had, but for the differences of replicaSetOCMDifferences, and returns the
// differences it saw last.
func sameAsOCM(t *testing.T, step, rs string, want, silent []string, ocm framework.Snapshot) []framework.Difference {
	t.Helper()
	var diffs []framework.Difference
	framework.Eventually(t, 2*convergeTimeout, func() error {
		ours, err := settledOnce(t.Context(), rs, want, silent)
		if err != nil {
			return fmt.Errorf("not settled: %w", err)
		}
		diffs = framework.CompareSnapshots(sbsCase, step, ocm, ours)
		unexplained, _ := framework.MatchDifferences(replicaSetOCMDifferences, nil, diffs)
		if len(unexplained) == 0 {
			return nil
		}
		var b strings.Builder
		for _, d := range unexplained {
			fmt.Fprintf(&b, "\n  %s", d)
		}
		return fmt.Errorf("different from OCM v1.0.0's controller:%s", b.String())
	}, "ours after %q", step)
	return diffs
}

// settled says why a step has not settled yet: the replica set's works are
// not exactly on the clusters want, or one is being deleted; a work of a
// cluster whose agent runs has no Applied and Available for its
// generation; or the replica set's summary does not count the works as they
// are (total, available, progressing, degraded, and applied where it is
// written). With want empty, the replica set must be gone.
func settled(ctx context.Context, rs string, want, silent []string) error {
	works, err := env.Hub.Work.WorkV1().ManifestWorks("").List(ctx, metav1.ListOptions{
		LabelSelector: workv1alpha1.ReplicaSetLabel + "=" + sbsNamespace + "." + rs,
	})
	if err != nil {
		return err
	}
	var clusters []string
	counts := map[string]int64{"total": int64(len(works.Items))}
	for i := range works.Items {
		w := &works.Items[i]
		clusters = append(clusters, w.Namespace)
		if w.DeletionTimestamp != nil {
			return fmt.Errorf("work %s/%s is being deleted", w.Namespace, w.Name)
		}
		for _, c := range []string{workv1.WorkApplied, workv1.WorkAvailable} {
			cond := apimeta.FindStatusCondition(w.Status.Conditions, c)
			if !slices.Contains(silent, w.Namespace) && (cond == nil || cond.ObservedGeneration != w.Generation) {
				return fmt.Errorf("work %s/%s: no %s for generation %d yet", w.Namespace, w.Name, c, w.Generation)
			}
		}
		for key, c := range map[string]string{
			"applied": workv1.WorkApplied, "available": workv1.WorkAvailable,
			"progressing": workv1.WorkProgressing, "degraded": workv1.WorkDegraded,
		} {
			if apimeta.IsStatusConditionTrue(w.Status.Conditions, c) {
				counts[key]++
			}
		}
	}
	slices.Sort(clusters)
	if !slices.Equal(clusters, want) {
		return fmt.Errorf("works on %v, want %v", clusters, want)
	}
	u, err := env.Hub.Dynamic.Resource(replicaSetGVR).Namespace(sbsNamespace).Get(ctx, rs, metav1.GetOptions{})
	if len(want) == 0 {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("replica set %s still there (%v)", rs, err)
	}
	if err != nil {
		return err
	}
	for _, key := range []string{"total", "available", "progressing", "degraded", "applied"} {
		n, found, err := unstructured.NestedInt64(u.Object, "status", "summary", key)
		if err != nil {
			return err
		}
		if key == "applied" && !found {
			continue // v1.0 never writes it (see replicaSetOCMDifferences)
		}
		if n != counts[key] {
			return fmt.Errorf("summary.%s is %d (written: %t), the works say %d", key, n, found, counts[key])
		}
	}
	conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	if len(conditions) < 3 {
		return fmt.Errorf("replica set %s has %d conditions yet", rs, len(conditions))
	}
	return nil
}

// sideBySideSnapshot is what a user reads of the replica set and its works
// on the hub, and of its ConfigMap on each managed cluster.
func sideBySideSnapshot(ctx context.Context, rs string) (framework.Snapshot, error) {
	s := framework.Snapshot{}
	u, err := env.Hub.Dynamic.Resource(replicaSetGVR).Namespace(sbsNamespace).Get(ctx, rs, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		s.AddObject("replicaset", nil)
	case err != nil:
		return nil, err
	default:
		// Who wrote what is not compared: the managers differ by name.
		unstructured.RemoveNestedField(u.Object, "metadata", "managedFields")
		if err := zeroCounts(u); err != nil {
			return nil, err
		}
		s.AddObject("replicaset", u)
	}
	works, err := env.Hub.Dynamic.Resource(manifestWorkGVR).List(ctx, metav1.ListOptions{
		LabelSelector: workv1alpha1.ReplicaSetLabel + "=" + sbsNamespace + "." + rs,
	})
	if err != nil {
		return nil, err
	}
	for i := range works.Items {
		w := &works.Items[i]
		// The status is the agent's, the same on both sides.
		unstructured.RemoveNestedField(w.Object, "status")
		unstructured.RemoveNestedField(w.Object, "metadata", "managedFields")
		s.AddObject(fmt.Sprintf("work[%s/%s]", w.GetNamespace(), w.GetName()), w)
	}
	for _, cluster := range []string{"cluster1", "cluster2"} {
		_, err := env.Cluster(cluster).Kube.CoreV1().ConfigMaps("default").Get(ctx, rs, metav1.GetOptions{})
		key := fmt.Sprintf("object[%s v1 ConfigMap default/%s]", cluster, rs)
		switch {
		case apierrors.IsNotFound(err):
			s[key] = framework.Absent
		case err != nil:
			return nil, err
		default:
			s[key] = "present"
		}
	}
	return s, nil
}

// summaryCounts are the keys of a replica set's summary.
var summaryCounts = []string{"total", "available", "progressing", "degraded", "applied", "desiredTotal", "updated"}

// zeroCounts writes 0 for each count a summary of the replica set lacks, as
// every client reads it. v1.0 writes its status as a merge patch from what
// it read, so a count still 0 since the replica set was created is never
// sent; ours writes every count. A count v1.0 does not write at all shows
// as 0 then (see replicaSetOCMDifferences).
func zeroCounts(u *unstructured.Unstructured) error {
	fill := func(summary map[string]any) {
		for _, key := range summaryCounts {
			if _, ok := summary[key]; !ok {
				summary[key] = int64(0)
			}
		}
	}
	if summary, found, err := unstructured.NestedMap(u.Object, "status", "summary"); err != nil {
		return err
	} else if found {
		fill(summary)
		if err := unstructured.SetNestedMap(u.Object, summary, "status", "summary"); err != nil {
			return err
		}
	}
	placements, found, err := unstructured.NestedSlice(u.Object, "status", "placementSummary")
	if err != nil || !found {
		return err
	}
	for _, p := range placements {
		if p, ok := p.(map[string]any); ok {
			if summary, ok := p["summary"].(map[string]any); ok {
				fill(summary)
			}
		}
	}
	return unstructured.SetNestedSlice(u.Object, placements, "status", "placementSummary")
}

// writeSideBySidePlacement applies the Placement and its one decision, in
// group 0, selecting clusters (at least one), and their status, as a
// standalone hub's GitOps pipeline would.
func writeSideBySidePlacement(t *testing.T, clusters ...string) {
	t.Helper()
	applyPlacement(t, env.Hub, sbsNamespace, sbsPlacement, sbsDecision, clusters...)
}

// applyPlacement applies, on hub, Placement ns/name and its one decision,
// in group 0, selecting clusters, and their status, as a hub where nothing
// schedules placements has them written (by hand or from GitOps).
func applyPlacement(t *testing.T, hub *framework.Cluster, ns, name, decisionName string, clusters ...string) {
	t.Helper()
	ctx := t.Context()
	apply := metav1.ApplyOptions{FieldManager: "e2e-gitops", Force: true}
	group := clusterac.DecisionGroupStatus().WithDecisionGroupIndex(0).WithDecisions(decisionName).
		WithClustersCount(int32(len(clusters)))
	placement := func() *clusterac.PlacementApplyConfiguration {
		return clusterac.Placement(name, ns)
	}
	decision := func() *clusterac.PlacementDecisionApplyConfiguration {
		return clusterac.PlacementDecision(decisionName, ns).WithLabels(map[string]string{
			clusterv1beta1.PlacementLabel:          name,
			clusterv1beta1.DecisionGroupIndexLabel: "0",
			clusterv1beta1.DecisionGroupNameLabel:  "",
		})
	}
	status := clusterac.PlacementDecisionStatus()
	for _, c := range clusters {
		status.WithDecisions(clusterac.ClusterDecision().WithClusterName(c).WithReason(""))
	}
	placements := hub.Work.ClusterV1beta1().Placements(ns)
	decisions := hub.Work.ClusterV1beta1().PlacementDecisions(ns)
	_, err := placements.Apply(ctx, placement().WithSpec(clusterac.PlacementSpec()), apply)
	require.NoError(t, err)
	_, err = placements.ApplyStatus(ctx, placement().WithStatus(clusterac.PlacementStatus().
		WithNumberOfSelectedClusters(int32(len(clusters))).WithDecisionGroups(group)), apply)
	require.NoError(t, err)
	_, err = decisions.Apply(ctx, decision(), apply)
	require.NoError(t, err)
	_, err = decisions.ApplyStatus(ctx, decision().WithStatus(status), apply)
	require.NoError(t, err)
}

// createSideBySideReplicaSet creates a replica set of the Placement whose
// template delivers a ConfigMap named after it.
func createSideBySideReplicaSet(t *testing.T, name string, strategy workv1alpha1.RolloutStrategy) {
	t.Helper()
	rs := &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: sbsNamespace, Name: name},
		Spec: workv1alpha1.ManifestWorkReplicaSetSpec{
			ManifestWorkTemplate: fixture.NewWork("x", "x").WithManifest(
				fixture.ConfigMap("default", name, map[string]string{"color": "blue"}),
			).Build().Spec,
			PlacementRefs: []workv1alpha1.LocalPlacementReference{{Name: sbsPlacement, RolloutStrategy: strategy}},
		},
	}
	_, err := env.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(sbsNamespace).Create(t.Context(), rs, metav1.CreateOptions{})
	require.NoError(t, err)
}

func deleteSideBySideReplicaSet(t *testing.T, name string) {
	t.Helper()
	err := env.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(sbsNamespace).Delete(t.Context(), name, metav1.DeleteOptions{})
	require.NoError(t, err)
}

// replicaSetOCMSetup readies the hub for a test with OCM's controller: our
// agents on cluster1 and cluster2, the Placement CRDs, the namespace, and
// what OCM's serving code reads; replicaSets are removed when the test
// ends. It returns OCM's binary.
func replicaSetOCMSetup(t *testing.T, replicaSets ...string) (*framework.E2E, string) {
	t.Helper()
	e := setup(t)
	binary := framework.OCMAgentBinary(t)
	runningAgent(t, "cluster1")
	startAgent(t, "cluster2") // its own: a shared agent of cluster2 would meet the later tests' own
	installPlacementCRDs(t)
	require.NoError(t, e.Hub.EnsureNamespaces(t.Context(), sbsNamespace))
	t.Cleanup(func() { removeReplicaSets(t, replicaSets...) })
	grantOCMServing(t)
	return e, binary
}

// startOCMManager starts OCM's controller until it is stopped or the test
// ends. OCM's operator deploys it only with the gate ManifestWorkReplicaSet
// on, and renders `/work manager` alone; the binary accepts the gate as a
// flag too (v1.0 does not read it), given as one running it by hand would.
// One instance runs at a time, so it needs no leader election.
func startOCMManager(t *testing.T, e *framework.E2E, binary string) *framework.Process {
	t.Helper()
	ocm, err := e.StartOCMManager(binary, "--disable-leader-election", "--feature-gates=ManifestWorkReplicaSet=true")
	require.NoError(t, err, "starting OCM's work manager")
	t.Cleanup(func() { stopProcess(t, ocm) })
	return ocm
}

// removeReplicaSets removes what a failed run may leave: the replica sets
// of sbsNamespace (their finalizer dropped, as no controller may run) and
// the works named after them.
func removeReplicaSets(t *testing.T, names ...string) {
	ctx := context.Background()
	sets := env.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(sbsNamespace)
	for _, name := range names {
		_, _ = sets.Patch(ctx, name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		_ = sets.Delete(ctx, name, metav1.DeleteOptions{})
		for _, cluster := range []string{"cluster1", "cluster2"} {
			err := env.Hub.Work.WorkV1().ManifestWorks(cluster).Delete(ctx, name, metav1.DeleteOptions{})
			if err != nil && !apierrors.IsNotFound(err) {
				t.Logf("delete work %s/%s: %v", cluster, name, err)
			}
		}
	}
}

// installPlacementCRDs installs the Placement CRDs of manifests/placement on
// the hub, unless they are there, and removes them when the test ends, so
// that the other tests find the hub without them.
func installPlacementCRDs(t *testing.T) {
	t.Helper()
	crds := env.Hub.APIExtensions.ApiextensionsV1().CustomResourceDefinitions()
	there, err := env.Hub.CRDEstablished(t.Context(), "placements.cluster.open-cluster-management.io")
	require.NoError(t, err)
	if there {
		return
	}
	installed, err := env.Hub.InstallCRDs(framework.RepoPath("manifests", "placement"))
	require.NoError(t, err)
	t.Cleanup(func() {
		for _, crd := range installed {
			assert.NoError(t, crds.Delete(context.Background(), crd.Name, metav1.DeleteOptions{}))
		}
		for _, crd := range installed {
			framework.Eventually(t, convergeTimeout, func() error {
				_, err := crds.Get(context.Background(), crd.Name, metav1.GetOptions{})
				if apierrors.IsNotFound(err) {
					return nil
				}
				return fmt.Errorf("CRD %s still there (%v)", crd.Name, err)
			}, "CRD %s gone", crd.Name)
		}
	})
}

// grantOCMServing lets ServiceAccount work-hub read what OCM's serving code
// (library-go's) reads at start, the client CA of the API server's
// extension-apiserver-authentication ConfigMap, until the test ends: the
// ClusterManager's work-controller ClusterRole reads every ConfigMap, ours
// none.
func grantOCMServing(t *testing.T) {
	t.Helper()
	bindings := env.Hub.Kube.RbacV1().RoleBindings("kube-system")
	name := "e2e-ocm-work-manager-authentication-reader"
	_, err := bindings.Create(t.Context(), &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "extension-apiserver-authentication-reader"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: framework.HubLeaseNamespace, Name: "work-hub"}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, bindings.Delete(context.Background(), name, metav1.DeleteOptions{})) })
}

// stopProcess stops a process of the test if it runs.
func stopProcess(t *testing.T, p *framework.Process) {
	t.Helper()
	if p.Running() {
		_, err := p.Stop(30 * time.Second)
		assert.NoError(t, err, "stop %s", p.Name)
	}
}

// TestReplicaSetTakeOverFromOCM hands a replica set from OCM's own
// controller (`work manager` of OCM v1.0.0) to ours (`work hub`) and back,
// one controller at a time on the same hub, with our agents on cluster1 and
// cluster2. Neither side may duplicate or recreate a cluster's work:
//   - OCM's controller creates the works of a replica set (All) and the
//     agents apply them;
//   - ours takes over: each cluster keeps exactly its one work, of the same
//     UID and generation; the agents apply nothing again (the ConfigMap the
//     work delivers keeps its UID and resourceVersion); ours writes the
//     replica set's status (the counts v1.0 never writes, its own
//     FleetHealthy condition);
//   - a work labelled for a second replica set and named with a suffix, as
//     OCM releases after v1.0 name them, is adopted by ours, not duplicated;
//   - ours rolls a template change out over the same works;
//   - OCM's controller takes them back: it rolls out a further template
//     change over the same works, and deletes them with the replica set.
func TestReplicaSetTakeOverFromOCM(t *testing.T) {
	e, binary := replicaSetOCMSetup(t, takeOverReplicaSet, takeOverSuffixed)
	t.Cleanup(func() {
		err := env.Hub.Work.WorkV1().ManifestWorks("cluster1").Delete(context.Background(), takeOverSuffixedWork, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Logf("delete work cluster1/%s: %v", takeOverSuffixedWork, err)
		}
	})
	clusters := []string{"cluster1", "cluster2"}
	writeSideBySidePlacement(t, clusters...)

	// OCM's controller creates the works.
	ocm := startOCMManager(t, e, binary)
	createSideBySideReplicaSet(t, takeOverReplicaSet, workv1alpha1.RolloutStrategy{Type: workv1alpha1.All})
	settledSnapshot(t, "OCM v1.0.0 after creation", takeOverReplicaSet, clusters, nil)
	works := oneWorkPerCluster(t, takeOverReplicaSet, clusters)
	delivered := deliveredConfigMaps(t, takeOverReplicaSet, clusters, "blue")
	stopProcess(t, ocm)

	// Ours takes over: the same works, nothing applied again, its status.
	ours, err := e.StartHub("--disable-leader-election")
	require.NoError(t, err, "starting work hub")
	t.Cleanup(func() { stopProcess(t, ours) })
	framework.Eventually(t, 2*convergeTimeout, func() error {
		return statusByOurs(t.Context(), takeOverReplicaSet, len(clusters))
	}, "ours writes the status of %s", takeOverReplicaSet)
	settledSnapshot(t, "ours after taking over", takeOverReplicaSet, clusters, nil)
	assertSameWorks(t, "after ours took over", works, oneWorkPerCluster(t, takeOverReplicaSet, clusters), true)
	assert.Equal(t, delivered, deliveredConfigMaps(t, takeOverReplicaSet, clusters, "blue"),
		"the agents applied nothing again: each ConfigMap keeps its UID and resourceVersion")

	// A work named with a suffix is adopted, not duplicated.
	suffixedAdopted(t, clusters)

	// Ours rolls a template change out over the same works.
	setTemplateColor(t, takeOverReplicaSet, "green")
	rolledOut(t, "ours after the template change", takeOverReplicaSet, clusters, "green")
	afterOurs := oneWorkPerCluster(t, takeOverReplicaSet, clusters)
	assertSameWorks(t, "after ours rolled the template out", works, afterOurs, false)
	stopProcess(t, ours)

	// OCM's controller takes the works back.
	startOCMManager(t, e, binary)
	setTemplateColor(t, takeOverReplicaSet, "red")
	rolledOut(t, "OCM v1.0.0 after the template change", takeOverReplicaSet, clusters, "red")
	assertSameWorks(t, "after OCM's controller took the works back", afterOurs, oneWorkPerCluster(t, takeOverReplicaSet, clusters), false)
	deleteSideBySideReplicaSet(t, takeOverReplicaSet)
	settledSnapshot(t, "OCM v1.0.0 after deletion", takeOverReplicaSet, nil, nil)
}

const (
	takeOverReplicaSet = "takeover"
	takeOverSuffixed   = "takeover-suffixed"
	// takeOverSuffixedWork is named as OCM releases after v1.0 name works.
	takeOverSuffixedWork = takeOverSuffixed + "-x7k2p"
)

// heldWork is what must not change when a controller takes a work over.
type heldWork struct {
	Name       string
	UID        types.UID
	Generation int64
}

// oneWorkPerCluster checks that each of clusters has exactly one work
// labelled for the replica set, and no other cluster one, and returns them
// by cluster.
func oneWorkPerCluster(t *testing.T, rs string, clusters []string) map[string]heldWork {
	t.Helper()
	list, err := env.Hub.Work.WorkV1().ManifestWorks("").List(t.Context(), metav1.ListOptions{
		LabelSelector: workv1alpha1.ReplicaSetLabel + "=" + sbsNamespace + "." + rs,
	})
	require.NoError(t, err)
	held := map[string]heldWork{}
	var names []string
	for _, w := range list.Items {
		names = append(names, w.Namespace+"/"+w.Name)
		held[w.Namespace] = heldWork{Name: w.Name, UID: w.UID, Generation: w.Generation}
	}
	require.Len(t, list.Items, len(clusters), "the works of %s: %v", rs, names)
	for _, c := range clusters {
		require.Contains(t, held, c, "the works of %s: %v", rs, names)
	}
	return held
}

// assertSameWorks asserts that the works are the ones before (name, UID),
// and, with sameSpec, of the same generation.
func assertSameWorks(t *testing.T, when string, before, after map[string]heldWork, sameSpec bool) {
	t.Helper()
	for cluster, b := range before {
		a := after[cluster]
		assert.Equal(t, b.Name, a.Name, "%s: the name of %s's work", when, cluster)
		assert.Equal(t, b.UID, a.UID, "%s: %s's work is the same, not recreated", when, cluster)
		if sameSpec {
			assert.Equal(t, b.Generation, a.Generation, "%s: %s's work keeps its spec", when, cluster)
		} else {
			assert.Greater(t, a.Generation, b.Generation, "%s: %s's work has the new template", when, cluster)
		}
	}
}

// deliveredConfigMaps waits until each cluster has the ConfigMap the
// replica set's template delivers, of the color, and returns its UID and
// resourceVersion by cluster.
func deliveredConfigMaps(t *testing.T, rs string, clusters []string, color string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, c := range clusters {
		framework.Eventually(t, convergeTimeout, func() error {
			cm, err := env.Cluster(c).Kube.CoreV1().ConfigMaps("default").Get(t.Context(), rs, metav1.GetOptions{})
			if err != nil {
				return err
			}
			if cm.Data["color"] != color {
				return fmt.Errorf("color %q, want %q", cm.Data["color"], color)
			}
			got[c] = string(cm.UID) + "@" + cm.ResourceVersion
			return nil
		}, "ConfigMap default/%s on %s", rs, c)
	}
	return got
}

// statusByOurs says why the replica set's status is not ours yet: ours
// writes the counts applied, desiredTotal and updated, which OCM v1.0 never
// writes, and the condition FleetHealthy, which it does not know.
func statusByOurs(ctx context.Context, rs string, clusters int) error {
	got, err := env.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(sbsNamespace).Get(ctx, rs, metav1.GetOptions{})
	if err != nil {
		return err
	}
	s := got.Status.Summary
	if s.Total != clusters || s.Applied != clusters || s.DesiredTotal != clusters || s.Updated != clusters || s.Available != clusters {
		return fmt.Errorf("summary %+v, want %d of each", s, clusters)
	}
	if apimeta.FindStatusCondition(got.Status.Conditions, replicaset.ConditionFleetHealthy) == nil {
		return fmt.Errorf("no condition %s yet", replicaset.ConditionFleetHealthy)
	}
	return rolledOutCondition(got)
}

// rolledOutCondition says why PlacementRolledOut is not True with reason
// Complete.
func rolledOutCondition(rs *workv1alpha1.ManifestWorkReplicaSet) error {
	c := apimeta.FindStatusCondition(rs.Status.Conditions, workv1alpha1.ConditionPlacementRolledOut)
	if c == nil || c.Status != metav1.ConditionTrue || c.Reason != workv1alpha1.ReasonComplete {
		return fmt.Errorf("%s is %+v", workv1alpha1.ConditionPlacementRolledOut, c)
	}
	return nil
}

// rolledOut waits until the works of the replica set deliver the color, the
// step has settled and PlacementRolledOut is Complete.
func rolledOut(t *testing.T, what, rs string, clusters []string, color string) {
	t.Helper()
	framework.Eventually(t, 2*convergeTimeout, func() error {
		list, err := env.Hub.Work.WorkV1().ManifestWorks("").List(t.Context(), metav1.ListOptions{
			LabelSelector: workv1alpha1.ReplicaSetLabel + "=" + sbsNamespace + "." + rs,
		})
		if err != nil {
			return err
		}
		for _, w := range list.Items {
			if !strings.Contains(string(w.Spec.Workload.Manifests[0].Raw), `"color":"`+color+`"`) {
				return fmt.Errorf("work %s/%s has not the template of %s yet", w.Namespace, w.Name, color)
			}
		}
		if _, err := settledOnce(t.Context(), rs, clusters, nil); err != nil {
			return err
		}
		got, err := env.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(sbsNamespace).Get(t.Context(), rs, metav1.GetOptions{})
		if err != nil {
			return err
		}
		return rolledOutCondition(got)
	}, "%s: rolled out", what)
	deliveredConfigMaps(t, rs, clusters, color)
}

// suffixedAdopted puts a work labelled for a new replica set, named with a
// suffix, on cluster1, then creates the replica set: ours must adopt that
// work on cluster1 and create one named after the replica set on cluster2
// only. The replica set is deleted at the end, with its works.
func suffixedAdopted(t *testing.T, clusters []string) {
	t.Helper()
	work := fixture.NewWork("cluster1", takeOverSuffixedWork).WithManifest(
		fixture.ConfigMap("default", takeOverSuffixed, map[string]string{"color": "blue"}),
	).Build()
	work.Labels = map[string]string{
		workv1alpha1.ReplicaSetLabel:    sbsNamespace + "." + takeOverSuffixed,
		workv1alpha1.PlacementNameLabel: sbsPlacement,
	}
	created, err := env.Hub.Work.WorkV1().ManifestWorks("cluster1").Create(t.Context(), work, metav1.CreateOptions{})
	require.NoError(t, err)
	createSideBySideReplicaSet(t, takeOverSuffixed, workv1alpha1.RolloutStrategy{Type: workv1alpha1.All})
	settledSnapshot(t, "ours with a suffixed work", takeOverSuffixed, clusters, nil)
	works := oneWorkPerCluster(t, takeOverSuffixed, clusters)
	assert.Equal(t, heldWork{Name: takeOverSuffixedWork, UID: created.UID, Generation: created.Generation}, works["cluster1"],
		"cluster1's suffixed work is adopted as it is")
	assert.Equal(t, takeOverSuffixed, works["cluster2"].Name, "cluster2's work is named after the replica set")
	deleteSideBySideReplicaSet(t, takeOverSuffixed)
	settledSnapshot(t, "ours after deleting the suffixed replica set", takeOverSuffixed, nil, nil)
}

// setTemplateColor changes the color of the ConfigMap the replica set's
// template delivers.
func setTemplateColor(t *testing.T, rs, color string) {
	t.Helper()
	sets := env.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(sbsNamespace)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		got, err := sets.Get(t.Context(), rs, metav1.GetOptions{})
		if err != nil {
			return err
		}
		got.Spec.ManifestWorkTemplate = fixture.NewWork("x", "x").WithManifest(
			fixture.ConfigMap("default", rs, map[string]string{"color": color}),
		).Build().Spec
		_, err = sets.Update(t.Context(), got, metav1.UpdateOptions{})
		return err
	})
	require.NoError(t, err)
}
