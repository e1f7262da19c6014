package replicaset

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	clocktesting "k8s.io/utils/clock/testing"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	"github.com/manifestwork/work/pkg/client/informers/externalversions"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/fixture"
)

const (
	ns     = "apps"
	rsName = "web"
	plName = "prod"
)

var (
	rsRef = cache.NewObjectName(ns, rsName)
	rsKey = rsRef.String() // the replica set's queue key
)

// template is the work template of version v.
func template(v string) workv1.ManifestWorkSpec {
	return fixture.NewWork("x", "x").WithManifest(fixture.ConfigMap("default", "web", map[string]string{"version": v})).Build().Spec
}

func replicaSet(strategy workv1alpha1.RolloutStrategy, refs ...string) *workv1alpha1.ManifestWorkReplicaSet {
	if len(refs) == 0 {
		refs = []string{plName}
	}
	rs := &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: rsName, Labels: map[string]string{"team": "web"}},
		Spec:       workv1alpha1.ManifestWorkReplicaSetSpec{ManifestWorkTemplate: template("1")},
	}
	for _, r := range refs {
		rs.Spec.PlacementRefs = append(rs.Spec.PlacementRefs, workv1alpha1.LocalPlacementReference{Name: r, RolloutStrategy: strategy})
	}
	return rs
}

func withFinalizer(rs *workv1alpha1.ManifestWorkReplicaSet) *workv1alpha1.ManifestWorkReplicaSet {
	rs.Finalizers = []string{workv1alpha1.ReplicaSetFinalizer}
	return rs
}

// placement selects n clusters in the given number of groups.
func placement(name string, n int32, groups int) *clusterv1beta1.Placement {
	p := &clusterv1beta1.Placement{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	p.Status.NumberOfSelectedClusters = n
	for i := range groups {
		p.Status.DecisionGroups = append(p.Status.DecisionGroups, clusterv1beta1.DecisionGroupStatus{DecisionGroupIndex: int32(i)})
	}
	return p
}

func decision(placement string, index int, clusters ...string) *clusterv1beta1.PlacementDecision {
	d := &clusterv1beta1.PlacementDecision{ObjectMeta: metav1.ObjectMeta{
		Namespace: ns, Name: fmt.Sprintf("%s-decision-%d", placement, index),
		Labels: map[string]string{
			clusterv1beta1.PlacementLabel:          placement,
			clusterv1beta1.DecisionGroupIndexLabel: fmt.Sprint(index),
			clusterv1beta1.DecisionGroupNameLabel:  "",
		},
	}}
	for _, c := range clusters {
		d.Status.Decisions = append(d.Status.Decisions, clusterv1beta1.ClusterDecision{ClusterName: c})
	}
	return d
}

// work is the replica set's work on cluster with the template of version v.
func work(cluster, name, v string) *workv1.ManifestWork {
	return &workv1.ManifestWork{
		ObjectMeta: metav1.ObjectMeta{Namespace: cluster, Name: name, UID: types.UID("uid-" + cluster + "-" + name), Labels: map[string]string{
			workv1alpha1.ReplicaSetLabel: ns + "." + rsName, workv1alpha1.PlacementNameLabel: plName,
		}},
		Spec: template(v),
	}
}

// reported sets the conditions an agent reports for the work's generation:
// Applied=True and the given Progressing and Degraded, turned ago before now.
func reported(w *workv1.ManifestWork, progressing, degraded metav1.ConditionStatus, ago time.Duration) *workv1.ManifestWork {
	at := metav1.NewTime(now.Add(-ago))
	w.Status.Conditions = []metav1.Condition{
		{Type: workv1.WorkApplied, Status: metav1.ConditionTrue, Reason: "R", ObservedGeneration: w.Generation, LastTransitionTime: at},
		{Type: workv1.WorkAvailable, Status: metav1.ConditionTrue, Reason: "R", ObservedGeneration: w.Generation, LastTransitionTime: at},
		{Type: workv1.WorkProgressing, Status: progressing, Reason: "R", ObservedGeneration: w.Generation, LastTransitionTime: at},
		{Type: workv1.WorkDegraded, Status: degraded, Reason: "R", ObservedGeneration: w.Generation, LastTransitionTime: at},
	}
	return w
}

func succeeded(w *workv1.ManifestWork) *workv1.ManifestWork {
	return reported(w, metav1.ConditionFalse, metav1.ConditionFalse, time.Hour)
}

type harness struct {
	t         *testing.T
	kube      *kubefake.Clientset // nil: the controller records no revision
	core      *kubefake.Clientset // the hub's namespaces, whose labels are the clusters'
	coreInf   kubeinformers.SharedInformerFactory
	client    *fake.Clientset
	informers externalversions.SharedInformerFactory
	c         *Controller
	clock     *clocktesting.FakeClock
	events    *record.FakeRecorder
	// revisionStore is the controller's cache of ControllerRevisions.
	revisionStore cache.Indexer
}

func newHarness(t *testing.T, objs ...runtime.Object) *harness {
	t.Helper()
	return newHarnessWith(t, nil, objs...)
}

// newHarnessWith is newHarness with a controller that records revisions
// on kube, when it is not nil.
func newHarnessWith(t *testing.T, kube *kubefake.Clientset, objs ...runtime.Object) *harness {
	t.Helper()
	client := fake.NewSimpleClientset(objs...)
	bumpGenerations(client)
	informers := externalversions.NewSharedInformerFactory(client, 0)
	clk := clocktesting.NewFakeClock(now)
	events := record.NewFakeRecorder(100)
	core := kubefake.NewClientset()
	coreInf := kubeinformers.NewSharedInformerFactory(core, 0)
	d := Deps{
		Client:      client,
		ReplicaSets: informers.Work().V1alpha1().ManifestWorkReplicaSets(),
		Works:       informers.Work().V1().ManifestWorks(),
		Placements:  informers.Cluster().V1beta1().Placements(),
		Decisions:   informers.Cluster().V1beta1().PlacementDecisions(),
		Events:      events,
		Clock:       clk,
		Approvals:   informers.Fleet().V1alpha1().RolloutApprovals(),
		Overrides:   informers.Fleet().V1alpha1().WorkOverrides(),
		Namespaces:  coreInf.Core().V1().Namespaces(),
	}
	if kube != nil {
		d.Revisions = kubeinformers.NewSharedInformerFactory(kube, 0).Apps().V1().ControllerRevisions()
		d.RevisionClient = kube.AppsV1()
	}
	require.NoError(t, addIndexers(d))
	h := &harness{t: t, kube: kube, core: core, coreInf: coreInf, client: client, informers: informers, c: newController(d), clock: clk, events: events}
	if kube != nil {
		h.revisionStore = d.Revisions.Informer().GetIndexer()
	}
	h.refresh()
	return h
}

// bumpGenerations makes the fake hub count work generations as an API server
// does: 1 on create, one more on each change of spec, by update or patch;
// and give each write of a work a new resourceVersion.
func bumpGenerations(client *fake.Clientset) {
	var version atomic.Int64
	nextVersion := func() string { return strconv.FormatInt(version.Add(1), 10) }
	client.PrependReactor("create", "manifestworks", func(a clienttesting.Action) (bool, runtime.Object, error) {
		w := a.(clienttesting.CreateAction).GetObject().(*workv1.ManifestWork)
		w.Generation, w.ResourceVersion = 1, nextVersion()
		return false, nil, nil
	})
	worksResource := workv1.SchemeGroupVersion.WithResource("manifestworks")
	client.PrependReactor("patch", "manifestworks", func(a clienttesting.Action) (bool, runtime.Object, error) {
		stored, err := client.Tracker().Get(worksResource, a.GetNamespace(), a.(clienttesting.PatchAction).GetName())
		if err != nil || a.GetSubresource() != "" {
			return false, nil, nil
		}
		_, obj, err := clienttesting.ObjectReaction(client.Tracker())(a)
		if err != nil {
			return true, nil, err
		}
		w, old := obj.(*workv1.ManifestWork), stored.(*workv1.ManifestWork)
		if !sameSpec(old.Spec, w.Spec) {
			w.Generation = old.Generation + 1
		}
		w.ResourceVersion = nextVersion()
		return true, w, client.Tracker().Update(worksResource, w, w.Namespace)
	})
	client.PrependReactor("update", "manifestworks", func(a clienttesting.Action) (bool, runtime.Object, error) {
		w := a.(clienttesting.UpdateAction).GetObject().(*workv1.ManifestWork)
		stored, err := client.Tracker().Get(workv1.SchemeGroupVersion.WithResource("manifestworks"), w.Namespace, w.Name)
		if err == nil {
			old := stored.(*workv1.ManifestWork)
			w.Generation = old.Generation
			if !sameSpec(old.Spec, w.Spec) {
				w.Generation++
			}
		}
		w.ResourceVersion = nextVersion()
		return false, nil, nil
	})
}

// refresh fills the caches with what the fake hub holds, as the informers
// would.
func (h *harness) refresh() {
	h.t.Helper()
	ctx := h.t.Context()
	works, err := h.client.WorkV1().ManifestWorks("").List(ctx, metav1.ListOptions{})
	require.NoError(h.t, err)
	sets, err := h.client.WorkV1alpha1().ManifestWorkReplicaSets("").List(ctx, metav1.ListOptions{})
	require.NoError(h.t, err)
	placements, err := h.client.ClusterV1beta1().Placements("").List(ctx, metav1.ListOptions{})
	require.NoError(h.t, err)
	decisions, err := h.client.ClusterV1beta1().PlacementDecisions("").List(ctx, metav1.ListOptions{})
	require.NoError(h.t, err)
	replace := func(informer cache.SharedIndexInformer, n int, item func(int) any) {
		items := make([]any, n)
		for i := range n {
			items[i] = item(i)
		}
		require.NoError(h.t, informer.GetIndexer().Replace(items, ""))
	}
	replace(h.informers.Work().V1().ManifestWorks().Informer(), len(works.Items), func(i int) any { return &works.Items[i] })
	replace(h.informers.Work().V1alpha1().ManifestWorkReplicaSets().Informer(), len(sets.Items), func(i int) any { return &sets.Items[i] })
	replace(h.informers.Cluster().V1beta1().Placements().Informer(), len(placements.Items), func(i int) any { return &placements.Items[i] })
	replace(h.informers.Cluster().V1beta1().PlacementDecisions().Informer(), len(decisions.Items), func(i int) any { return &decisions.Items[i] })
	approvals, err := h.client.FleetV1alpha1().RolloutApprovals("").List(ctx, metav1.ListOptions{})
	require.NoError(h.t, err)
	replace(h.informers.Fleet().V1alpha1().RolloutApprovals().Informer(), len(approvals.Items), func(i int) any { return &approvals.Items[i] })
	overrides, err := h.client.FleetV1alpha1().WorkOverrides("").List(ctx, metav1.ListOptions{})
	require.NoError(h.t, err)
	replace(h.informers.Fleet().V1alpha1().WorkOverrides().Informer(), len(overrides.Items), func(i int) any { return &overrides.Items[i] })
	namespaces, err := h.core.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	require.NoError(h.t, err)
	replace(h.coreInf.Core().V1().Namespaces().Informer(), len(namespaces.Items), func(i int) any { return &namespaces.Items[i] })
	if h.kube != nil {
		revs, err := h.kube.AppsV1().ControllerRevisions("").List(ctx, metav1.ListOptions{})
		require.NoError(h.t, err)
		items := make([]any, len(revs.Items))
		for i := range revs.Items {
			items[i] = &revs.Items[i]
		}
		require.NoError(h.t, h.revisionStore.Replace(items, ""))
	}
}

// sync runs one sync of the replica set and returns its writes; the caches
// then hold what the hub holds.
func (h *harness) sync() ([]string, *ct.SyncContext) {
	h.t.Helper()
	h.client.ClearActions()
	if h.kube != nil {
		h.kube.ClearActions()
	}
	syncCtx := ct.NewSyncContext(rsKey)
	require.NoError(h.t, h.c.sync(h.t.Context(), syncCtx))
	writes := ct.Writes(h.client.Actions())
	h.refresh()
	return writes, syncCtx
}

// put stores objects on the fake hub (creating or replacing them).
func (h *harness) put(objs ...runtime.Object) {
	h.t.Helper()
	for _, o := range objs {
		var err error
		switch o := o.(type) {
		case *workv1.ManifestWork:
			_, err = h.client.WorkV1().ManifestWorks(o.Namespace).Update(h.t.Context(), o, metav1.UpdateOptions{})
		case *workv1alpha1.ManifestWorkReplicaSet:
			_, err = h.client.WorkV1alpha1().ManifestWorkReplicaSets(o.Namespace).Update(h.t.Context(), o, metav1.UpdateOptions{})
		case *clusterv1beta1.PlacementDecision:
			_, err = h.client.ClusterV1beta1().PlacementDecisions(o.Namespace).Update(h.t.Context(), o, metav1.UpdateOptions{})
		case *fleetv1alpha1.WorkOverride:
			o.Generation++ // as an API server counts a change of spec
			_, err = h.client.FleetV1alpha1().WorkOverrides(o.Namespace).Update(h.t.Context(), o, metav1.UpdateOptions{})
		default:
			h.t.Fatalf("put: %T", o)
		}
		require.NoError(h.t, err)
	}
	h.refresh()
}

func (h *harness) work(cluster, name string) *workv1.ManifestWork {
	h.t.Helper()
	w, err := h.informers.Work().V1().ManifestWorks().Lister().ManifestWorks(cluster).Get(name)
	require.NoError(h.t, err)
	return w.DeepCopy()
}

// clusters are the namespaces of the works of the replica set, sorted.
func (h *harness) clusters() []string {
	var out []string
	for _, w := range h.c.labelledWorks(replicaSet(workv1alpha1.RolloutStrategy{})) {
		out = append(out, w.Namespace)
	}
	slices.Sort(out)
	return out
}

// versions maps each cluster with a work to its template's version.
func (h *harness) versions() map[string]string {
	out := map[string]string{}
	for _, w := range h.c.labelledWorks(replicaSet(workv1alpha1.RolloutStrategy{})) {
		for _, v := range []string{"1", "2"} {
			if sameSpec(w.Spec, template(v)) {
				out[w.Namespace] = v
			}
		}
	}
	return out
}

func (h *harness) replicaSet() *workv1alpha1.ManifestWorkReplicaSet {
	h.t.Helper()
	rs, err := h.client.WorkV1alpha1().ManifestWorkReplicaSets(ns).Get(h.t.Context(), rsName, metav1.GetOptions{})
	require.NoError(h.t, err)
	return rs
}

func conditionTypes(rs *workv1alpha1.ManifestWorkReplicaSet) []string {
	var types []string
	for _, c := range rs.Status.Conditions {
		types = append(types, c.Type)
	}
	return types
}

func conditionReason(rs *workv1alpha1.ManifestWorkReplicaSet, t string) string {
	c := apimeta.FindStatusCondition(rs.Status.Conditions, t)
	if c == nil {
		return ""
	}
	return fmt.Sprintf("%s/%s", c.Status, c.Reason)
}

var progressiveOne = progressive(intstr.FromInt32(1), none)

// A Progressive rollout with maxConcurrency 1 over three clusters takes one
// cluster at a time, each once the one before has succeeded, and its status
// follows.
func TestProgressiveRolloutOneClusterAtATime(t *testing.T) {
	h := newHarness(t, replicaSet(progressiveOne), placement(plName, 3, 1), decision(plName, 0, "c1", "c2", "c3"))

	writes, _ := h.sync()
	assert.Equal(t, []string{
		"update manifestworkreplicasets " + rsKey,
		"create manifestworks c1/" + rsName,
		"patch manifestworkreplicasets/status " + rsKey,
	}, writes)
	assert.Equal(t, []string{"c1"}, h.clusters())
	w := h.work("c1", rsName)
	assert.Equal(t, map[string]string{
		"team": "web", workv1alpha1.ReplicaSetLabel: "apps.web", workv1alpha1.PlacementNameLabel: plName,
		revision.HashLabel: hashOf(t, "1"),
	}, w.Labels)
	assert.True(t, sameSpec(w.Spec, template("1")))
	rs := h.replicaSet()
	assert.Equal(t, []string{workv1alpha1.ReplicaSetFinalizer}, rs.Finalizers)
	assert.Equal(t, workv1alpha1.ManifestWorkReplicaSetSummary{Total: 1, DesiredTotal: 3, Updated: 1}, rs.Status.Summary)
	assert.Equal(t, []workv1alpha1.PlacementSummary{{Name: plName, AvailableDecisionGroups: "1 (1 / 3 clusters applied)",
		Summary: workv1alpha1.ManifestWorkReplicaSetSummary{Total: 1, DesiredTotal: 3, Updated: 1}}}, rs.Status.PlacementsSummary)
	assert.Equal(t, "True/AsExpected", conditionReason(rs, workv1alpha1.ConditionPlacementVerified))
	assert.Equal(t, "False/Progressing", conditionReason(rs, workv1alpha1.ConditionPlacementRolledOut))
	assert.Equal(t, "False/NotAsExpected", conditionReason(rs, workv1alpha1.ConditionManifestworkApplied))
	assert.Equal(t, []string{
		workv1alpha1.ConditionPlacementVerified, workv1alpha1.ConditionPlacementRolledOut, workv1alpha1.ConditionManifestworkApplied,
		ConditionFleetHealthy, ConditionFleetInSync,
	}, conditionTypes(rs), "OCM's conditions first, in OCM's order; ours after them")

	before := gaugeValues(t)
	writes, _ = h.sync()
	assert.Empty(t, writes, "nothing changed, nothing written")
	assert.Empty(t, ct.Recorded(h.events), "nor any Event")
	assert.Equal(t, before, gaugeValues(t), "nor any metric")

	h.put(reported(h.work("c1", rsName), metav1.ConditionTrue, metav1.ConditionFalse, time.Minute))
	writes, _ = h.sync()
	assert.Equal(t, []string{"patch manifestworkreplicasets/status " + rsKey}, writes, "a progressing cluster holds the slot")
	rs = h.replicaSet()
	assert.Equal(t, "False/Processing", conditionReason(rs, workv1alpha1.ConditionManifestworkApplied))

	h.put(succeeded(h.work("c1", rsName)))
	writes, _ = h.sync()
	assert.Contains(t, writes, "create manifestworks c2/"+rsName)
	assert.Equal(t, []string{"c1", "c2"}, h.clusters())

	h.put(succeeded(h.work("c2", rsName)))
	h.sync()
	h.put(succeeded(h.work("c3", rsName)))
	h.sync()
	rs = h.replicaSet()
	assert.Equal(t, workv1alpha1.ManifestWorkReplicaSetSummary{Total: 3, DesiredTotal: 3, Updated: 3, Applied: 3, Available: 3}, rs.Status.Summary)
	assert.Equal(t, "True/Complete", conditionReason(rs, workv1alpha1.ConditionPlacementRolledOut))
	assert.Equal(t, "True/AsExpected", conditionReason(rs, workv1alpha1.ConditionManifestworkApplied))
}

// A work that reports Progressing=True and Degraded=True has failed: with
// maxFailures 0, no further cluster is reached.
func TestFailureStopsTheRollout(t *testing.T) {
	h := newHarness(t, withFinalizer(replicaSet(progressiveOne)), placement(plName, 3, 1), decision(plName, 0, "c1", "c2", "c3"),
		reported(work("c1", rsName, "1"), metav1.ConditionTrue, metav1.ConditionTrue, time.Minute))
	h.sync()
	assert.Equal(t, []string{"c1"}, h.clusters())
	assert.Equal(t, "False/NotAsExpected", conditionReason(h.replicaSet(), workv1alpha1.ConditionManifestworkApplied))
	assert.Equal(t, 1, h.replicaSet().Status.Summary.Degraded)
}

// A template change rolls out as the strategy says: the clusters not reached
// yet keep the old template.
func TestTemplateChangeRollsOutOneAtATime(t *testing.T) {
	rs := withFinalizer(replicaSet(progressiveOne))
	rs.Spec.ManifestWorkTemplate = template("2")
	h := newHarness(t, rs, placement(plName, 3, 1), decision(plName, 0, "c1", "c2", "c3"),
		succeeded(work("c1", rsName, "1")), succeeded(work("c2", rsName, "1")), succeeded(work("c3", rsName, "1")))

	writes, _ := h.sync()
	assert.Contains(t, writes, "patch manifestworks c1/"+rsName)
	assert.Equal(t, map[string]string{"c1": "2", "c2": "1", "c3": "1"}, h.versions())
	assert.Equal(t, 1, h.replicaSet().Status.Summary.Total, "only works with the current template count")

	writes, _ = h.sync()
	assert.Empty(t, writes, "c1 has not reported on the new template: it holds the slot")

	h.put(succeeded(h.work("c1", rsName)))
	h.sync()
	assert.Equal(t, map[string]string{"c1": "2", "c2": "2", "c3": "1"}, h.versions())
}

// A success soaks for minSuccessTime: the replica set is queued again for
// the end of it, and the next cluster follows then.
func TestSoakIsWaitedForWithAddAfter(t *testing.T) {
	rs := withFinalizer(replicaSet(progressive(intstr.FromInt32(1), soak(5*time.Minute))))
	c1 := reported(work("c1", rsName, "1"), metav1.ConditionFalse, metav1.ConditionFalse, 2*time.Minute)
	h := newHarness(t, rs, placement(plName, 2, 1), decision(plName, 0, "c1", "c2"), c1)

	_, syncCtx := h.sync()
	assert.Equal(t, []string{"c1"}, h.clusters())
	after, ok := syncCtx.Q.Delay(rsKey)
	require.True(t, ok, "not queued for the end of the soak")
	assert.Equal(t, 3*time.Minute, after)

	h.clock.Step(after)
	h.sync()
	assert.Equal(t, []string{"c1", "c2"}, h.clusters())
}

// A progressDeadline: the replica set is queued again when it ends; a cluster
// past it counts as a failure.
func TestDeadlineIsWaitedForWithAddAfter(t *testing.T) {
	strategy := progressive(intstr.FromInt32(1), workv1alpha1.RolloutConfig{ProgressDeadline: "10m", MaxFailures: intstr.FromInt32(1)})
	c1 := reported(work("c1", rsName, "1"), metav1.ConditionTrue, metav1.ConditionFalse, 4*time.Minute)
	h := newHarness(t, withFinalizer(replicaSet(strategy)), placement(plName, 2, 1), decision(plName, 0, "c1", "c2"), c1)

	_, syncCtx := h.sync()
	after, ok := syncCtx.Q.Delay(rsKey)
	require.True(t, ok)
	assert.Equal(t, 6*time.Minute, after)
	assert.Equal(t, []string{"c1"}, h.clusters())

	h.clock.Step(after)
	h.sync()
	assert.Equal(t, []string{"c1", "c2"}, h.clusters(), "c1 timed out within maxFailures: c2 is next")
}

// A cluster that leaves every placement loses its work; one that joins gets
// one.
func TestClustersLeavingAndJoining(t *testing.T) {
	h := newHarness(t, withFinalizer(replicaSet(all(none))), placement(plName, 2, 1), decision(plName, 0, "c1", "c2"),
		succeeded(work("c1", rsName, "1")), succeeded(work("c2", rsName, "1")))
	h.put(decision(plName, 0, "c2", "c3"))

	writes, _ := h.sync()
	assert.Contains(t, writes, "delete manifestworks c1/"+rsName)
	assert.Contains(t, writes, "create manifestworks c3/"+rsName)
	assert.Equal(t, []string{"c2", "c3"}, h.clusters())
}

// A work of the replica set found by its label is adopted whatever its name;
// a second work on the same cluster is deleted.
func TestWorksFoundByLabelAreAdopted(t *testing.T) {
	rs := withFinalizer(replicaSet(all(none)))
	rs.Spec.ManifestWorkTemplate = template("2")
	old := work("c1", rsName+"-x7k2p", "1")
	old.CreationTimestamp = metav1.NewTime(now.Add(-time.Hour))
	newer := work("c1", rsName+"-b4n9q", "1")
	newer.CreationTimestamp = metav1.NewTime(now)
	h := newHarness(t, rs, placement(plName, 1, 1), decision(plName, 0, "c1"), old, newer)

	writes, _ := h.sync()
	assert.ElementsMatch(t, []string{
		"delete manifestworks c1/" + rsName + "-b4n9q",
		"patch manifestworks c1/" + rsName + "-x7k2p",
		"patch manifestworkreplicasets/status " + rsKey,
	}, writes)
	assert.Equal(t, map[string]string{"c1": "2"}, h.versions())
}

// A cluster selected by two placements has one work, of the first.
func TestClusterInTwoPlacementsHasOneWork(t *testing.T) {
	h := newHarness(t, withFinalizer(replicaSet(all(none), "a", "b")),
		placement("a", 1, 1), decision("a", 0, "c1"), placement("b", 2, 1), decision("b", 0, "c1", "c2"))
	writes, _ := h.sync()
	assert.ElementsMatch(t, []string{
		"create manifestworks c1/" + rsName, "create manifestworks c2/" + rsName,
		"patch manifestworkreplicasets/status " + rsKey,
	}, writes)
	assert.Equal(t, "a", h.work("c1", rsName).Labels[workv1alpha1.PlacementNameLabel])
	assert.Equal(t, "b", h.work("c2", rsName).Labels[workv1alpha1.PlacementNameLabel])
}

// Without its Placement, the replica set says so and touches no work.
func TestMissingPlacement(t *testing.T) {
	h := newHarness(t, withFinalizer(replicaSet(all(none))), succeeded(work("c1", rsName, "1")))
	writes, _ := h.sync()
	assert.Equal(t, []string{"patch manifestworkreplicasets/status " + rsKey}, writes)
	assert.Equal(t, "False/PlacementDecisionNotFound", conditionReason(h.replicaSet(), workv1alpha1.ConditionPlacementVerified))
	assert.Equal(t, []string{"c1"}, h.clusters())
}

// A placement without decisions: PlacementDecisionEmpty.
func TestEmptyPlacement(t *testing.T) {
	h := newHarness(t, withFinalizer(replicaSet(all(none))), placement(plName, 0, 0))
	h.sync()
	rs := h.replicaSet()
	assert.Equal(t, "False/PlacementDecisionEmpty", conditionReason(rs, workv1alpha1.ConditionPlacementVerified))
	assert.Equal(t, "False/PlacementDecisionEmpty", conditionReason(rs, workv1alpha1.ConditionManifestworkApplied))
	assert.Equal(t, "True/Complete", conditionReason(rs, workv1alpha1.ConditionPlacementRolledOut))
}

// Decisions whose group index label is not a number: PlacementVerified says
// so, and the placement's works stay.
func TestUnreadableDecisions(t *testing.T) {
	d := decision(plName, 0, "c1")
	d.Labels[clusterv1beta1.DecisionGroupIndexLabel] = "first"
	h := newHarness(t, withFinalizer(replicaSet(all(none))), placement(plName, 1, 1), d, succeeded(work("c1", rsName, "1")))
	writes, _ := h.sync()
	assert.Equal(t, []string{"patch manifestworkreplicasets/status " + rsKey}, writes)
	c := apimeta.FindStatusCondition(h.replicaSet().Status.Conditions, workv1alpha1.ConditionPlacementVerified)
	require.NotNil(t, c)
	assert.Equal(t, workv1alpha1.ReasonNotAsExpected, c.Reason)
	assert.Contains(t, c.Message, `"first"`)
}

func deleting(rs *workv1alpha1.ManifestWorkReplicaSet, policy workv1alpha1.CascadeDeletionPolicy) *workv1alpha1.ManifestWorkReplicaSet {
	rs = withFinalizer(rs)
	t := metav1.NewTime(now)
	rs.DeletionTimestamp = &t
	rs.Spec.CascadeDeletionPolicy = policy
	return rs
}

func TestDeletion(t *testing.T) {
	goingWork := func() *workv1.ManifestWork {
		w := work("c2", rsName, "1")
		t := metav1.NewTime(now)
		w.DeletionTimestamp = &t
		w.Finalizers = []string{"cluster.open-cluster-management.io/manifest-work-cleanup"}
		return w
	}
	tests := []struct {
		name          string
		policy        workv1alpha1.CascadeDeletionPolicy
		works         []runtime.Object
		wantFinalizer bool
	}{
		{name: "background: works deleted, finalizer dropped", policy: workv1alpha1.Background,
			works: []runtime.Object{work("c1", rsName, "1"), goingWork()}},
		{name: "default is background", policy: "",
			works: []runtime.Object{work("c1", rsName, "1"), goingWork()}},
		{name: "foreground: finalizer kept while works remain", policy: workv1alpha1.Foreground,
			works: []runtime.Object{work("c1", rsName, "1"), goingWork()}, wantFinalizer: true},
		{name: "foreground: finalizer dropped once works are gone", policy: workv1alpha1.Foreground},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs := append([]runtime.Object{deleting(replicaSet(all(none)), tt.policy)}, tt.works...)
			h := newHarness(t, objs...)
			writes, _ := h.sync()
			if len(tt.works) > 0 {
				assert.Contains(t, writes, "delete manifestworks c1/"+rsName)
				assert.NotContains(t, writes, "delete manifestworks c2/"+rsName, "already going")
			}
			if tt.wantFinalizer {
				assert.NotContains(t, writes, "update manifestworkreplicasets "+rsKey)
				return
			}
			assert.Contains(t, writes, "update manifestworkreplicasets "+rsKey)
			assert.Empty(t, h.replicaSet().Finalizers)
		})
	}
}

func TestQueueKeys(t *testing.T) {
	h := newHarness(t, replicaSet(all(none), "a", "b"))
	other := replicaSet(all(none), "b")
	other.Name = "other"
	require.NoError(t, h.informers.Work().V1alpha1().ManifestWorkReplicaSets().Informer().GetIndexer().Add(other))

	assert.Equal(t, []string{rsKey}, replicaSetOfWork(work("c1", "any-name", "1")))
	dotted := work("c1", "x", "1")
	dotted.Labels[workv1alpha1.ReplicaSetLabel] = "apps.web.v2"
	assert.Equal(t, []string{"apps/web.v2"}, replicaSetOfWork(dotted))
	assert.Empty(t, replicaSetOfWork(fixture.NewWork("c1", "x").Build()))
	assert.True(t, hasReplicaSetLabel(cache.DeletedFinalStateUnknown{Obj: work("c1", "x", "1")}))
	assert.False(t, hasReplicaSetLabel(fixture.NewWork("c1", "x").Build()))

	assert.Equal(t, []string{rsKey}, h.c.replicaSetsOfPlacement(placement("a", 0, 0)))
	assert.ElementsMatch(t, []string{rsKey, cache.NewObjectName(ns, "other").String()}, h.c.replicaSetsOfDecision(decision("b", 0)))
	assert.Empty(t, h.c.replicaSetsOfDecision(decision("c", 0)))
}

// An invalid strategy is said in PlacementVerified; retrying cannot help, so
// the sync does not fail.
func TestInvalidStrategy(t *testing.T) {
	h := newHarness(t, withFinalizer(replicaSet(progressive(intstr.FromString("half"), none))), placement(plName, 1, 1), decision(plName, 0, "c1"))
	h.sync()
	c := apimeta.FindStatusCondition(h.replicaSet().Status.Conditions, workv1alpha1.ConditionPlacementVerified)
	require.NotNil(t, c)
	assert.Equal(t, workv1alpha1.ReasonNotAsExpected, c.Reason)
	assert.Contains(t, c.Message, "maxConcurrency")
	assert.Empty(t, h.clusters())
}

// A work of the replica set's name that does not carry its label is someone
// else's: it is left alone, and the sync fails saying so.
func TestForeignWorkOfTheSameName(t *testing.T) {
	foreign := fixture.NewWork("c1", rsName).WithManifest(fixture.ConfigMap("default", "mine", nil)).Build()
	h := newHarness(t, withFinalizer(replicaSet(all(none))), placement(plName, 1, 1), decision(plName, 0, "c1"), foreign)
	err := h.c.sync(t.Context(), ct.NewSyncContext(rsKey))
	require.ErrorContains(t, err, "it is left alone")
	assert.Empty(t, h.work("c1", rsName).Labels)
}

// A work being deleted does not push out the cluster's live work.
func TestLiveWorkKeptOverOneBeingDeleted(t *testing.T) {
	going := work("c1", rsName, "1")
	at := metav1.NewTime(now)
	going.DeletionTimestamp = &at
	going.Finalizers = []string{"cluster.open-cluster-management.io/manifest-work-cleanup"}
	live := succeeded(work("c1", rsName+"-x7k2p", "1"))
	h := newHarness(t, withFinalizer(replicaSet(all(none))), placement(plName, 1, 1), decision(plName, 0, "c1"), going, live)
	writes, _ := h.sync()
	assert.Equal(t, []string{"patch manifestworkreplicasets/status " + rsKey}, writes)
	assert.Equal(t, 1, h.replicaSet().Status.Summary.Total)
}

// Decision groups come from the decisions' labels: two decisions of one
// index are one group. ProgressivePerGroup takes a whole group, then the
// next once every cluster of the first has succeeded.
func TestProgressivePerGroupFromDecisionLabels(t *testing.T) {
	second := decision(plName, 1, "c3")
	first := decision(plName, 0, "c2")
	alsoFirst := decision(plName, 0, "c1")
	alsoFirst.Name = plName + "-decision-0b"
	h := newHarness(t, withFinalizer(replicaSet(perGroupStrategy(none))), placement(plName, 3, 2), first, alsoFirst, second)

	h.sync()
	assert.Equal(t, []string{"c1", "c2"}, h.clusters())
	assert.Equal(t, "2 (2 / 3 clusters applied)", h.replicaSet().Status.PlacementsSummary[0].AvailableDecisionGroups)

	h.put(succeeded(h.work("c1", rsName)))
	h.sync()
	assert.Equal(t, []string{"c1", "c2"}, h.clusters(), "c2 has not succeeded yet")

	h.put(succeeded(h.work("c2", rsName)))
	h.sync()
	assert.Equal(t, []string{"c1", "c2", "c3"}, h.clusters())
}

// A cluster whose work is labelled with a placement that no longer selects
// it, but selected by another placement of the replica set, keeps its work:
// the other placement takes it over when its rollout reaches it.
func TestClusterMovingBetweenPlacements(t *testing.T) {
	w := succeeded(work("c1", rsName, "1"))
	w.Labels[workv1alpha1.PlacementNameLabel] = "a"
	h := newHarness(t, withFinalizer(replicaSet(all(none), "a", "b")),
		placement("a", 0, 0), placement("b", 1, 1), decision("b", 0, "c1"), w)
	writes, _ := h.sync()
	assert.Contains(t, writes, "patch manifestworks c1/"+rsName)
	assert.NotContains(t, writes, "delete manifestworks c1/"+rsName)
	assert.Equal(t, "b", h.work("c1", rsName).Labels[workv1alpha1.PlacementNameLabel])
}

// The works of a pass are written in parallel: every cluster but the one
// whose write fails gets its work, and the error names that one.
func TestWorksOfAPassWrittenTogether(t *testing.T) {
	var clusters []string
	for i := range 3 * writeWorkers {
		clusters = append(clusters, fmt.Sprintf("c%02d", i))
	}
	h := newHarness(t, withFinalizer(replicaSet(all(none))), placement(plName, int32(len(clusters)), 1), decision(plName, 0, clusters...))
	h.client.PrependReactor("create", "manifestworks", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.GetNamespace() == "c07" {
			return true, nil, errors.New("refused")
		}
		return false, nil, nil
	})

	err := h.c.sync(t.Context(), ct.NewSyncContext(rsKey))
	require.ErrorContains(t, err, "create work c07/"+rsName+": refused")
	h.refresh()
	want := slices.DeleteFunc(slices.Clone(clusters), func(c string) bool { return c == "c07" })
	assert.Equal(t, want, h.clusters())
}

// On a hub whose CRD has OCM v1.0's schema, the summaries' applied,
// desiredTotal and updated are dropped from every write: the cached status
// never equals the computed one, and yet nothing changed, so nothing is
// written again.
func TestNoRewriteWhenTheHubDropsFields(t *testing.T) {
	h := newHarness(t, withFinalizer(replicaSet(all(none))), placement(plName, 2, 1), decision(plName, 0, "c1", "c2"))
	rsResource := workv1alpha1.SchemeGroupVersion.WithResource("manifestworkreplicasets")
	h.client.PrependReactor("patch", "manifestworkreplicasets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "status" {
			return false, nil, nil
		}
		_, obj, err := clienttesting.ObjectReaction(h.client.Tracker())(a)
		if err != nil {
			return true, nil, err
		}
		rs := obj.(*workv1alpha1.ManifestWorkReplicaSet)
		prune := func(s *workv1alpha1.ManifestWorkReplicaSetSummary) { s.Applied, s.DesiredTotal, s.Updated = 0, 0, 0 }
		prune(&rs.Status.Summary)
		for i := range rs.Status.PlacementsSummary {
			prune(&rs.Status.PlacementsSummary[i].Summary)
		}
		return true, rs, h.client.Tracker().Update(rsResource, rs, rs.Namespace)
	})

	writes, _ := h.sync()
	require.Contains(t, writes, "patch manifestworkreplicasets/status "+rsKey)
	require.Zero(t, h.replicaSet().Status.Summary.DesiredTotal, "the hub dropped it")

	writes, _ = h.sync()
	assert.Empty(t, writes, "nothing changed: what the hub kept is what it kept of the same status")

	h.c.written.forget(rsRef) // as after a restart: the status is written once more, then remembered
	writes, _ = h.sync()
	assert.Equal(t, []string{"patch manifestworkreplicasets/status " + rsKey}, writes)
	writes, _ = h.sync()
	assert.Empty(t, writes)
}
