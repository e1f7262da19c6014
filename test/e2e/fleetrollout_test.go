package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

const (
	// fleetNamespace holds the replica set, its Placement and decisions.
	fleetNamespace = "e2e-fleet"
	fleetName      = "fleet-web"
	// fleetAppNamespace holds what the template applies on each cluster.
	fleetAppNamespace = "e2e-fleet-app"
	// fleetNodeLabel is on the nodes of every fleet cluster but cluster1.
	fleetNodeLabel = "e2e.manifestwork.io/fleet-rollout"
)

// fleetClusters are the clusters of the fleet, in the order a Progressive
// rollout takes them (alphabetical).
var fleetClusters = []string{"cluster1", "cluster2", "cluster3"}

// A Progressive rollout with maxConcurrency 1 over three clusters, each with
// its own agent, advances only over clusters where what it applied is
// healthy. Its Deployment asks for a node label that cluster1's nodes lack:
// cluster1's work reports Progressing=True, and the next cluster gets no
// work through several syncs of the controller. Once the template is fixed,
// cluster1 gets it first; each next cluster gets its work only after the one
// before reported Progressing=False for it; the replica set is rolled out.
func TestFleetRolloutHeldByHealth(t *testing.T) {
	e := setup(t)
	hub := startFleet(t, e)
	events := watchFleetWorks(t, e)

	stuck := fleetDeployment(map[string]string{fleetNodeLabel: "true"})
	createFleetReplicaSet(t, e, fleetTemplate(stuck), workv1alpha1.RolloutConfig{})

	// (a) cluster1 gets the work; its Deployment cannot become available.
	first := waitWorkReason(t, "cluster1", fleetName, workv1.WorkProgressing, metav1.ConditionTrue,
		workv1.WorkProgressingReasonRollingOut, "Deployment "+fleetAppNamespace+"/web")
	assert.Equal(t, fleetNamespace+"."+fleetName, first.Labels[workv1alpha1.ReplicaSetLabel])
	assert.Equal(t, fleetName, first.Labels[workv1alpha1.PlacementNameLabel])
	assert.Equal(t, stuck.Spec.Template.Spec.NodeSelector, nodeSelectorOf(t, first.Spec))

	// (b) The replica set counts cluster1 progressing (or, wrongly, a second
	// work); the rollout holds.
	st := waitFleetStatus(t, e, "cluster1 progressing", func(st workv1alpha1.ManifestWorkReplicaSetStatus) error {
		if st.Summary.Progressing == 0 && st.Summary.Total <= 1 {
			return fmt.Errorf("summary %+v", st.Summary)
		}
		return nil
	})
	require.NoError(t, fleetSummaryIs(st, workv1alpha1.ManifestWorkReplicaSetSummary{
		Total: 1, Applied: 1, Available: 1, Progressing: 1, DesiredTotal: 3, Updated: 1,
	}, workv1alpha1.ReasonProgressing))
	// Three more syncs, each woken by a change of the replica set, decide
	// with cluster1 still progressing.
	for i := range 3 {
		nudgeFleet(t, e, hub, strconv.Itoa(i))
	}
	assert.Equal(t, []string{"cluster1"}, fleetClustersWithWork(t, e), "the rollout holds while cluster1 progresses")
	held := events.list()
	assert.Equal(t, []string{"cluster1"}, clustersOf(held), "no other cluster ever had a work")
	assert.Equal(t, -1, slices.IndexFunc(held, rolledOutOn("cluster1")), "cluster1 never rolled out")

	// (c) The fixed template: cluster1 first, then one cluster at a time.
	updateFleetReplicaSet(t, e, func(rs *workv1alpha1.ManifestWorkReplicaSet) {
		rs.Spec.ManifestWorkTemplate = fleetTemplate(fleetDeployment(nil))
	})
	rolledOut := waitFleetStatus(t, e, "rolled out", func(st workv1alpha1.ManifestWorkReplicaSetStatus) error {
		return fleetSummaryIs(st, workv1alpha1.ManifestWorkReplicaSetSummary{
			Total: 3, Applied: 3, Available: 3, DesiredTotal: 3, Updated: 3,
		}, workv1alpha1.ReasonComplete)
	})
	assertFleetCondition(t, rolledOut, workv1alpha1.ConditionManifestworkApplied, metav1.ConditionTrue, workv1alpha1.ReasonAsExpected)
	assertFleetCondition(t, rolledOut, workv1alpha1.ConditionPlacementVerified, metav1.ConditionTrue, workv1alpha1.ReasonAsExpected)
	if assert.Len(t, rolledOut.PlacementsSummary, 1) {
		assert.Equal(t, "1 (3 / 3 clusters applied)", rolledOut.PlacementsSummary[0].AvailableDecisionGroups)
	}
	for _, cluster := range fleetClusters {
		w, err := getWork(t.Context(), cluster, fleetName)
		require.NoError(t, err)
		assert.Empty(t, nodeSelectorOf(t, w.Spec), "%s's work has the fixed template", cluster)
		assertCondition(t, w, workv1.WorkProgressing, metav1.ConditionFalse, workv1.WorkProgressingReasonCompleted)
	}

	// The order, as the hub's watch delivered it: each cluster rolled out
	// the fixed template, and got its work only after the cluster before it
	// had rolled out.
	seen := events.list()
	t.Logf("the works' events: %v", seen)
	require.False(t, events.endedEarly(), "the watch of the works ended early")
	for i, cluster := range fleetClusters {
		done := slices.IndexFunc(seen, rolledOutOn(cluster))
		if !assert.GreaterOrEqual(t, done, len(held), "%s rolled out after the fix: %v", cluster, seen) {
			continue
		}
		assert.Empty(t, nodeSelectorOf(t, seen[done].spec), "%s rolled out the fixed template", cluster)
		if i == 0 {
			continue
		}
		created := slices.IndexFunc(seen, func(ev fleetEvent) bool { return ev.cluster == cluster })
		before := slices.IndexFunc(seen, rolledOutOn(fleetClusters[i-1]))
		assert.Greater(t, created, before, "%s got its work only after %s rolled out: %v", cluster, fleetClusters[i-1], seen)
	}
}

// A cluster progressing past the progressDeadline has timed out, which
// counts as a failure. With maxFailures 0 it stops the rollout: after the
// deadline, the next cluster still gets no work. Raised to 1, the timed-out
// cluster frees its slot: the next clusters get their works and roll out,
// while the replica set stays not rolled out, for cluster1 never succeeded.
func TestFleetRolloutProgressDeadline(t *testing.T) {
	e := setup(t)
	hub := startFleet(t, e)
	const deadline = 10 * time.Second

	cfg := workv1alpha1.RolloutConfig{ProgressDeadline: deadline.String(), MaxFailures: intstr.FromInt32(0)}
	createFleetReplicaSet(t, e, fleetTemplate(fleetDeployment(map[string]string{fleetNodeLabel: "true"})), cfg)
	w := waitWorkReason(t, "cluster1", fleetName, workv1.WorkProgressing, metav1.ConditionTrue,
		workv1.WorkProgressingReasonRollingOut, "Deployment "+fleetAppNamespace+"/web")
	since := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkProgressing).LastTransitionTime.Time

	// The deadline passes (the transition time is in whole seconds), then
	// the controller syncs again: the rollout stays stopped.
	framework.Eventually(t, deadline+convergeTimeout, func() error {
		if left := time.Until(since.Add(deadline + time.Second)); left > 0 {
			return fmt.Errorf("%s until cluster1's deadline", left)
		}
		return nil
	}, "cluster1's progressDeadline passes")
	nudgeFleet(t, e, hub, "after the deadline")
	assert.Equal(t, []string{"cluster1"}, fleetClustersWithWork(t, e), "a time-out beyond maxFailures stops the rollout")

	// maxFailures 1: the rollout goes on past the timed-out cluster.
	updateFleetReplicaSet(t, e, func(rs *workv1alpha1.ManifestWorkReplicaSet) {
		rs.Spec.PlacementRefs[0].RolloutStrategy.Progressive.MaxFailures = intstr.FromInt32(1)
	})
	st := waitFleetStatus(t, e, "every cluster reached", func(st workv1alpha1.ManifestWorkReplicaSetStatus) error {
		return fleetSummaryIs(st, workv1alpha1.ManifestWorkReplicaSetSummary{
			Total: 3, Applied: 3, Available: 3, Progressing: 1, DesiredTotal: 3, Updated: 3,
		}, workv1alpha1.ReasonProgressing)
	})
	assertFleetCondition(t, st, workv1alpha1.ConditionPlacementRolledOut, metav1.ConditionFalse, workv1alpha1.ReasonProgressing)
	assertFleetCondition(t, st, workv1alpha1.ConditionManifestworkApplied, metav1.ConditionFalse, workv1alpha1.ReasonProcessing)
	for _, cluster := range fleetClusters[1:] {
		waitWorkReason(t, cluster, fleetName, workv1.WorkProgressing, metav1.ConditionFalse, workv1.WorkProgressingReasonCompleted, "")
	}
}

// nodeSelectorOf is the nodeSelector of the Deployment in a work's spec.
func nodeSelectorOf(t *testing.T, spec workv1.ManifestWorkSpec) map[string]string {
	t.Helper()
	for _, m := range spec.Workload.Manifests {
		var d appsv1.Deployment
		require.NoError(t, json.Unmarshal(m.Raw, &d))
		if d.Kind == "Deployment" {
			return d.Spec.Template.Spec.NodeSelector
		}
	}
	t.Fatalf("no Deployment in the work")
	return nil
}

// startFleet makes the fleet and returns its hub: the clusters and their
// agents (startFleetClusters), the Placement CRDs and work hub
// (startFleetHub), and the Placement of every fleet cluster.
func startFleet(t *testing.T, e *framework.E2E) *framework.Process {
	t.Helper()
	startFleetClusters(t, e)
	hub := startFleetHub(t, e)
	writeFleetPlacement(t, e)
	return hub
}

// startFleetClusters uses the shared agent of cluster1, starts one of the
// test on cluster2 (later tests start their own there), and makes a
// third managed cluster of the test with an agent of its own. The nodes of
// cluster2 and cluster3 carry fleetNodeLabel; cluster1's do not.
func startFleetClusters(t *testing.T, e *framework.E2E) {
	t.Helper()
	runningAgent(t, "cluster1")
	startAgent(t, "cluster2")
	e.NewManagedCluster(t, "cluster3", 1)
	agent, err := e.StartAgent("cluster3", "--disable-leader-election")
	require.NoError(t, err, "starting the agent of cluster3")
	t.Cleanup(func() { _, _ = agent.Stop(convergeTimeout) })
	for _, cluster := range fleetClusters[1:] {
		labelNodes(t, e.Cluster(cluster), fleetNodeLabel, "true")
	}
}

// labelNodes sets a label on every node of c, and removes it when t ends.
func labelNodes(t *testing.T, c *framework.Cluster, key, value string) {
	t.Helper()
	nodes, err := c.Kube.CoreV1().Nodes().List(t.Context(), metav1.ListOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, nodes.Items, "nodes of %s", c.Name)
	patch := func(ctx context.Context, name string, v any) error {
		data := fmt.Appendf(nil, `{"metadata":{"labels":{%q:%s}}}`, key, v)
		_, err := c.Kube.CoreV1().Nodes().Patch(ctx, name, types.MergePatchType, data, metav1.PatchOptions{})
		return err
	}
	for _, n := range nodes.Items {
		require.NoError(t, patch(t.Context(), n.Name, strconv.Quote(value)))
		t.Cleanup(func() {
			if err := patch(context.Background(), n.Name, "null"); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("unlabel node %s of %s: %v", n.Name, c.Name, err)
			}
		})
	}
}

// startFleetHub installs the Placement CRDs on the hub for the test and
// starts work hub, whose replica set controller is on by default.
func startFleetHub(t *testing.T, e *framework.E2E) *framework.Process {
	t.Helper()
	e.Hub.InstallCRDsForTest(t, framework.RepoPath("manifests", "placement"))
	hub, err := e.StartHub("--disable-leader-election")
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = hub.Stop(convergeTimeout) })
	require.NoError(t, e.Hub.EnsureNamespaces(t.Context(), fleetNamespace))
	return hub
}

// writeFleetPlacement writes the Placement and its PlacementDecision by hand,
// as a standalone hub's user does: every fleet cluster, in one group.
func writeFleetPlacement(t *testing.T, e *framework.E2E) {
	t.Helper()
	writeFleetPlacementGroups(t, e, fleetClusters)
}

// writeFleetPlacementGroups writes the Placement and one PlacementDecision
// per group by hand, as a standalone hub's user does: group i (unnamed) has
// the clusters of groups[i], in the decision fleetName-decision-<i+1>.
func writeFleetPlacementGroups(t *testing.T, e *framework.E2E, groups ...[]string) {
	t.Helper()
	ctx := t.Context()
	cluster := e.Hub.Work.ClusterV1beta1()
	p, err := cluster.Placements(fleetNamespace).Create(ctx, &clusterv1beta1.Placement{
		ObjectMeta: metav1.ObjectMeta{Namespace: fleetNamespace, Name: fleetName},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = cluster.Placements(fleetNamespace).Delete(context.Background(), fleetName, metav1.DeleteOptions{})
	})
	p.Status = clusterv1beta1.PlacementStatus{Conditions: []metav1.Condition{}}
	for i, g := range groups {
		p.Status.NumberOfSelectedClusters += int32(len(g))
		p.Status.DecisionGroups = append(p.Status.DecisionGroups, clusterv1beta1.DecisionGroupStatus{
			DecisionGroupIndex: int32(i), Decisions: []string{fleetDecisionName(i)}, ClustersCount: int32(len(g)),
		})
	}
	_, err = cluster.Placements(fleetNamespace).UpdateStatus(ctx, p, metav1.UpdateOptions{})
	require.NoError(t, err)

	for i, g := range groups {
		name := fleetDecisionName(i)
		d, err := cluster.PlacementDecisions(fleetNamespace).Create(ctx, &clusterv1beta1.PlacementDecision{
			ObjectMeta: metav1.ObjectMeta{Namespace: fleetNamespace, Name: name, Labels: map[string]string{
				clusterv1beta1.PlacementLabel:          fleetName,
				clusterv1beta1.DecisionGroupIndexLabel: strconv.Itoa(i),
				clusterv1beta1.DecisionGroupNameLabel:  "",
			}},
		}, metav1.CreateOptions{})
		require.NoError(t, err)
		t.Cleanup(func() {
			_ = cluster.PlacementDecisions(fleetNamespace).Delete(context.Background(), name, metav1.DeleteOptions{})
		})
		for _, c := range g {
			d.Status.Decisions = append(d.Status.Decisions, clusterv1beta1.ClusterDecision{ClusterName: c})
		}
		_, err = cluster.PlacementDecisions(fleetNamespace).UpdateStatus(ctx, d, metav1.UpdateOptions{})
		require.NoError(t, err)
	}
}

// fleetDecisionName is the PlacementDecision of decision group i.
func fleetDecisionName(i int) string {
	return fleetName + "-decision-" + strconv.Itoa(i+1)
}

// fleetDeployment is the template's Deployment, with a nodeSelector.
func fleetDeployment(nodeSelector map[string]string) *appsv1.Deployment {
	d := fixture.Deployment(fleetAppNamespace, "web", 1)
	d.Spec.Template.Spec.NodeSelector = nodeSelector
	return d
}

// fleetTemplate is the replica set's work template: the app's namespace and
// its Deployment.
func fleetTemplate(d *appsv1.Deployment) workv1.ManifestWorkSpec {
	return fixture.NewWork("x", "x").WithManifest(fixture.Namespace(fleetAppNamespace), d).Build().Spec
}

// createFleetReplicaSet creates the replica set, Progressive with
// maxConcurrency 1 and cfg over the fleet's Placement
// (createFleetReplicaSetWith).
func createFleetReplicaSet(t *testing.T, e *framework.E2E, template workv1.ManifestWorkSpec, cfg workv1alpha1.RolloutConfig) {
	t.Helper()
	createFleetReplicaSetWith(t, e, nil, template, workv1alpha1.RolloutStrategy{
		Type: workv1alpha1.Progressive, Progressive: &workv1alpha1.RolloutProgressive{MaxConcurrency: intstr.FromInt32(1), RolloutConfig: cfg},
	})
}

// createFleetReplicaSetWith creates the replica set with annotations and
// strategy over the fleet's Placement. When the test ends it deletes it and
// waits until its works are gone, while the hub and agents still run.
func createFleetReplicaSetWith(t *testing.T, e *framework.E2E, annotations map[string]string, template workv1.ManifestWorkSpec, strategy workv1alpha1.RolloutStrategy) {
	t.Helper()
	replicaSets := e.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(fleetNamespace)
	_, err := replicaSets.Create(t.Context(), &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: fleetNamespace, Name: fleetName, Annotations: annotations},
		Spec: workv1alpha1.ManifestWorkReplicaSetSpec{
			ManifestWorkTemplate: template,
			PlacementRefs:        []workv1alpha1.LocalPlacementReference{{Name: fleetName, RolloutStrategy: strategy}},
		},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		if err := replicaSets.Delete(context.Background(), fleetName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete the replica set: %v", err)
			return
		}
		framework.Eventually(t, convergeTimeout, func() error {
			_, err := replicaSets.Get(context.Background(), fleetName, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return nil
			}
			return fmt.Errorf("replica set still there: %v", err)
		}, "the replica set is gone")
		framework.Eventually(t, 2*convergeTimeout, func() error {
			if got := fleetClustersWithWork(t, e); len(got) > 0 {
				return fmt.Errorf("works on %v", got)
			}
			return nil
		}, "the replica set's works are gone")
	})
}

// updateFleetReplicaSet changes the replica set, retrying on conflicts with
// the hub's status writes.
func updateFleetReplicaSet(t *testing.T, e *framework.E2E, mutate func(*workv1alpha1.ManifestWorkReplicaSet)) {
	t.Helper()
	replicaSets := e.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(fleetNamespace)
	framework.Eventually(t, convergeTimeout, func() error {
		rs, err := replicaSets.Get(t.Context(), fleetName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		mutate(rs)
		_, err = replicaSets.Update(t.Context(), rs, metav1.UpdateOptions{})
		return err
	}, "update the replica set")
}

// nudgeFleet changes an annotation of no meaning on the replica set, which
// queues a sync, and waits until the hub's controller has counted one more
// sync.
func nudgeFleet(t *testing.T, e *framework.E2E, hub *framework.Process, value string) {
	t.Helper()
	syncs := fleetSyncs(t, hub)
	updateFleetReplicaSet(t, e, func(rs *workv1alpha1.ManifestWorkReplicaSet) {
		metav1.SetMetaDataAnnotation(&rs.ObjectMeta, "e2e.manifestwork.io/nudge", value)
	})
	framework.Eventually(t, convergeTimeout, func() error {
		if n := fleetSyncs(t, hub); n <= syncs {
			return fmt.Errorf("%v syncs, as before the change", n)
		}
		return nil
	}, "a sync after the change %q", value)
}

// waitFleetStatus waits until check accepts the replica set's status, and
// returns it.
func waitFleetStatus(t *testing.T, e *framework.E2E, what string, check func(workv1alpha1.ManifestWorkReplicaSetStatus) error) workv1alpha1.ManifestWorkReplicaSetStatus {
	t.Helper()
	var st workv1alpha1.ManifestWorkReplicaSetStatus
	framework.Eventually(t, 3*convergeTimeout, func() error {
		rs, err := e.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(fleetNamespace).Get(t.Context(), fleetName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		st = rs.Status
		return check(st)
	}, "replica set status: %s", what)
	return st
}

// fleetSummaryIs checks the replica set's summary and the reason of its
// PlacementRolledOut.
func fleetSummaryIs(st workv1alpha1.ManifestWorkReplicaSetStatus, want workv1alpha1.ManifestWorkReplicaSetSummary, rolledOut string) error {
	if st.Summary != want {
		return fmt.Errorf("summary %+v, want %+v", st.Summary, want)
	}
	c := apimeta.FindStatusCondition(st.Conditions, workv1alpha1.ConditionPlacementRolledOut)
	if c == nil || c.Reason != rolledOut {
		return fmt.Errorf("PlacementRolledOut %+v, want reason %s", c, rolledOut)
	}
	return nil
}

func assertFleetCondition(t *testing.T, st workv1alpha1.ManifestWorkReplicaSetStatus, condType string, status metav1.ConditionStatus, reason string) {
	t.Helper()
	c := apimeta.FindStatusCondition(st.Conditions, condType)
	if assert.NotNil(t, c, condType) {
		assert.Equal(t, status, c.Status, "%s: %s", condType, c.Message)
		assert.Equal(t, reason, c.Reason, "%s: %s", condType, c.Message)
	}
}

// fleetSyncs is how many syncs of the replica set controller the hub has
// counted.
func fleetSyncs(t *testing.T, hub *framework.Process) float64 {
	t.Helper()
	samples := scrape(t, hub)
	var n float64
	for _, result := range []string{"success", "error"} {
		n += samples[fmt.Sprintf(`work_controller_reconciles_total{controller=%q,result=%q}`, replicaset.ControllerName, result)]
	}
	return n
}

// fleetClustersWithWork are the clusters where the replica set has a work.
func fleetClustersWithWork(t *testing.T, e *framework.E2E) []string {
	t.Helper()
	list, err := e.Hub.Work.WorkV1().ManifestWorks("").List(context.Background(), metav1.ListOptions{
		LabelSelector: workv1alpha1.ReplicaSetLabel + "=" + fleetNamespace + "." + fleetName,
	})
	require.NoError(t, err)
	var out []string
	for _, w := range list.Items {
		out = append(out, w.Namespace)
	}
	slices.Sort(out)
	return out
}

// fleetEvent is one change of a replica set's work, as the hub's watch
// delivered it.
type fleetEvent struct {
	cluster   string
	kind      watch.EventType
	spec      workv1.ManifestWorkSpec
	rolledOut bool // Progressing=False for the work's generation
	work      *workv1.ManifestWork
}

func (ev fleetEvent) String() string {
	return fmt.Sprintf("%s %s rolledOut=%t", ev.kind, ev.cluster, ev.rolledOut)
}

// fleetEvents records the events of a watch on the replica set's works.
type fleetEvents struct {
	mu     sync.Mutex
	events []fleetEvent
	ended  bool
}

// watchFleetWorks watches the replica set's works on the hub until the test
// ends. A single watch delivers the events of every namespace in the order
// they were written.
func watchFleetWorks(t *testing.T, e *framework.E2E) *fleetEvents {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := e.Hub.Work.WorkV1().ManifestWorks("").Watch(ctx, metav1.ListOptions{
		LabelSelector: workv1alpha1.ReplicaSetLabel + "=" + fleetNamespace + "." + fleetName,
	})
	require.NoError(t, err)
	r := &fleetEvents{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			work, ok := ev.Object.(*workv1.ManifestWork)
			if !ok {
				continue
			}
			c := apimeta.FindStatusCondition(work.Status.Conditions, workv1.WorkProgressing)
			r.mu.Lock()
			r.events = append(r.events, fleetEvent{
				cluster: work.Namespace, kind: ev.Type, spec: work.Spec, work: work,
				rolledOut: c != nil && c.ObservedGeneration == work.Generation && c.Status == metav1.ConditionFalse,
			})
			r.mu.Unlock()
		}
		r.mu.Lock()
		r.ended = ctx.Err() == nil
		r.mu.Unlock()
	}()
	t.Cleanup(func() {
		cancel()
		w.Stop()
		<-done
	})
	return r
}

func (r *fleetEvents) list() []fleetEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// endedEarly tells whether the watch ended before the test stopped it.
func (r *fleetEvents) endedEarly() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ended
}

// rolledOutOn matches the events of cluster's work rolled out.
func rolledOutOn(cluster string) func(fleetEvent) bool {
	return func(e fleetEvent) bool { return e.cluster == cluster && e.rolledOut }
}

// clustersOf are the clusters of the events, once each.
func clustersOf(events []fleetEvent) []string {
	var out []string
	for _, ev := range events {
		out = append(out, ev.cluster)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
