package replicaset

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

func TestParseGates(t *testing.T) {
	for _, tc := range []struct {
		name           string
		approve, bake  string
		wantApprove    []gateEntry
		wantBake       []gateEntry
		invalid        map[string]string // placement → a part of its message
		invalidEntries int
	}{{
		name:        "names, indexes and the + form",
		approve:     "prod/1, prod/canary+",
		bake:        "prod/0=30m,edge/2+=1h",
		wantApprove: []gateEntry{{placement: "prod", group: "1"}, {placement: "prod", group: "canary", later: true}},
		wantBake:    []gateEntry{{placement: "prod", group: "0", bake: 30 * time.Minute}, {placement: "edge", group: "2", later: true, bake: time.Hour}},
	}, {
		name:    "an empty entry",
		approve: "prod/1,,",
		invalid: map[string]string{"": `approve-before entry "" is empty`}, invalidEntries: 2,
		wantApprove: []gateEntry{{placement: "prod", group: "1"}},
	}, {
		name:    "no slash",
		approve: "prod",
		invalid: map[string]string{"": `"prod" is not <placement>/<group>`}, invalidEntries: 1,
	}, {
		name:    "no placement",
		approve: "/1",
		invalid: map[string]string{"": `"/1" is not <placement>/<group>`}, invalidEntries: 1,
	}, {
		name:    "two slashes",
		approve: "prod/1/2",
		invalid: map[string]string{"": `"prod/1/2" is not <placement>/<group>`}, invalidEntries: 1,
	}, {
		name:    "no group",
		approve: "prod/+",
		invalid: map[string]string{"prod": `"prod/+" names no group`}, invalidEntries: 1,
	}, {
		name:    "a duration on an approval",
		approve: "prod/1=5m",
		invalid: map[string]string{"prod": "only work.manifestwork.io/bake-after takes"}, invalidEntries: 1,
	}, {
		name:    "a bake without a time",
		bake:    "prod/0",
		invalid: map[string]string{"prod": `bake-after entry "prod/0" has no bake time`}, invalidEntries: 1,
	}, {
		name:    "a bake time that is not a duration",
		bake:    "prod/0=soon",
		invalid: map[string]string{"prod": `has bake time "soon", not a positive duration`}, invalidEntries: 1,
	}, {
		name:    "a bake time that is not positive",
		bake:    "prod/0=-5m",
		invalid: map[string]string{"prod": `has bake time "-5m"`}, invalidEntries: 1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rs := replicaSet(perGroupStrategy(none))
			rs.Annotations = map[string]string{}
			if tc.approve != "" {
				rs.Annotations[ApproveBeforeAnnotation] = tc.approve
			}
			if tc.bake != "" {
				rs.Annotations[BakeAfterAnnotation] = tc.bake
			}
			s := parseGates(rs)
			assert.Equal(t, tc.wantApprove, s.approve)
			assert.Equal(t, tc.wantBake, s.bake)
			n := 0
			for placement, msgs := range s.invalid {
				n += len(msgs)
				require.Contains(t, tc.invalid, placement)
				assert.Contains(t, strings.Join(msgs, "; "), tc.invalid[placement])
			}
			assert.Equal(t, tc.invalidEntries, n)
			assert.True(t, s.any())
		})
	}
	assert.False(t, parseGates(replicaSet(perGroupStrategy(none))).any())
}

// Gates follow the rollout order: the mandatory groups first, then the
// others by index; the + form covers the group named and every later one.
func TestGatesInRolloutOrder(t *testing.T) {
	groups := []Group{
		{Key: GroupKey{Index: 0}, Clusters: []string{"c1"}},
		{Key: GroupKey{Name: "canary", Index: 1}, Clusters: []string{"c2"}},
		{Key: GroupKey{Index: 2}, Clusters: []string{"c3"}},
	}
	strategy := perGroupStrategy(none, workv1alpha1.MandatoryDecisionGroup{GroupName: "canary"})
	ordered := rolloutOrder(groups, strategy)
	assert.Equal(t, []string{"canary", "0", "2"}, []string{groupID(ordered[0].Key), groupID(ordered[1].Key), groupID(ordered[2].Key)})

	rs := replicaSet(strategy)
	rs.Annotations = map[string]string{ApproveBeforeAnnotation: "prod/0+,other/2", BakeAfterAnnotation: "prod/canary=10m"}
	assert.Equal(t, []groupGate{{bake: 10 * time.Minute}, {approve: true}, {approve: true}}, parseGates(rs).of(plName, ordered))
	rs.Annotations = map[string]string{ApproveBeforeAnnotation: "prod/1"} // by index, the canary group
	assert.Equal(t, []groupGate{{approve: true}, {}, {}}, parseGates(rs).of(plName, ordered))
}

func TestFirstClosed(t *testing.T) {
	g0 := Group{Key: GroupKey{Index: 0}, Clusters: []string{"c1", "c2"}}
	g1 := Group{Key: GroupKey{Index: 1}, Clusters: []string{"c3"}}
	g2 := Group{Key: GroupKey{Index: 2}, Clusters: []string{"c4"}}
	ordered := []Group{g0, g1, g2}
	doneAt := func(ago ...time.Duration) map[string]progress {
		m := map[string]progress{}
		for i, a := range ago {
			m[[]string{"c1", "c2", "c3", "c4"}[i]] = progress{finished: true, at: now.Add(-a)}
		}
		return m
	}
	approvedOnly := func(ids ...string) func(Group) bool {
		return func(g Group) bool {
			for _, id := range ids {
				if groupID(g.Key) == id {
					return true
				}
			}
			return false
		}
	}
	for _, tc := range []struct {
		name     string
		gates    []groupGate
		done     map[string]progress
		approved func(Group) bool
		stopped  bool   // failures stop the rollout
		baked    string // the group whose bake ended before
		want     closedGate
	}{{
		name:  "no gate: every group passes",
		gates: []groupGate{{}, {}, {}}, done: doneAt(), approved: approvedOnly(),
		want: closedGate{pass: 3},
	}, {
		name:  "an approval before group 1, not reached while group 0 rolls out",
		gates: []groupGate{{}, {approve: true}, {}}, done: doneAt(time.Minute), approved: approvedOnly(),
		want: closedGate{kind: gateApproval, pass: 1, group: g1},
	}, {
		name:  "an approval before group 1, reached once group 0 succeeded",
		gates: []groupGate{{}, {approve: true}, {}}, done: doneAt(time.Minute, time.Minute), approved: approvedOnly(),
		want: closedGate{kind: gateApproval, pass: 1, group: g1, reached: true},
	}, {
		name:  "approved, the next approval holds",
		gates: []groupGate{{}, {approve: true}, {approve: true}}, done: doneAt(time.Minute, time.Minute), approved: approvedOnly("1"),
		want: closedGate{kind: gateApproval, pass: 2, group: g2},
	}, {
		name:  "an approval before a group already done on the revision (its works unchanged) passes",
		gates: []groupGate{{}, {approve: true}, {}}, done: doneAt(time.Minute, time.Minute, time.Hour), approved: approvedOnly(),
		want: closedGate{pass: 3},
	}, {
		name:  "an approval before the first group holds everything, reached at once",
		gates: []groupGate{{approve: true}, {}, {}}, done: doneAt(), approved: approvedOnly(),
		want: closedGate{kind: gateApproval, pass: 0, group: g0, reached: true},
	}, {
		name:  "a bake starts from the latest success of the group",
		gates: []groupGate{{bake: 30 * time.Minute}, {}, {}}, done: doneAt(time.Hour, 10*time.Minute), approved: approvedOnly(),
		want: closedGate{kind: gateBake, pass: 1, group: g0, reached: true, end: now.Add(20 * time.Minute), left: 20 * time.Minute},
	}, {
		name:  "a bake holds the next groups before it starts",
		gates: []groupGate{{bake: 30 * time.Minute}, {}, {}}, done: doneAt(time.Hour), approved: approvedOnly(),
		want: closedGate{kind: gateBake, pass: 1, group: g0},
	}, {
		name:  "an ended bake passes",
		gates: []groupGate{{bake: 30 * time.Minute}, {}, {}}, done: doneAt(time.Hour, 31*time.Minute), approved: approvedOnly(),
		want: closedGate{pass: 3, baked: []Group{g0}},
	}, {
		name:  "a bake that ended stays ended when its group changes again",
		gates: []groupGate{{bake: 30 * time.Minute}, {}, {}}, done: doneAt(time.Hour, time.Minute), approved: approvedOnly(), baked: "0",
		want: closedGate{pass: 3, baked: []Group{g0}},
	}, {
		name:  "a failure the strategy tolerates finishes its cluster: the approval is reached",
		gates: []groupGate{{}, {approve: true}, {}}, done: map[string]progress{"c1": {finished: true, at: now}, "c2": {finished: true, at: now}},
		approved: approvedOnly(),
		want:     closedGate{kind: gateApproval, pass: 1, group: g1, reached: true},
	}, {
		name:  "failures that stop the rollout: the approval is not reached",
		gates: []groupGate{{}, {approve: true}, {}}, done: doneAt(time.Minute, time.Minute), approved: approvedOnly(), stopped: true,
		want: closedGate{kind: gateApproval, pass: 1, group: g1},
	}, {
		name:  "failures that stop the rollout: the bake does not start",
		gates: []groupGate{{bake: 30 * time.Minute}, {}, {}}, done: doneAt(time.Hour, time.Hour), approved: approvedOnly(), stopped: true,
		want: closedGate{kind: gateBake, pass: 1, group: g0},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, firstClosed(ordered, tc.gates, gateInputs{
				done: tc.done, approved: tc.approved, now: now,
				stopped: func(int) bool { return tc.stopped },
				baked:   func(g Group) bool { return groupID(g.Key) == tc.baked },
			}))
		})
	}
}

// A cluster that turned Degraded, then recovered, restarts the bake from
// its recovery; while Degraded, it is no success a bake counts.
func TestBakeRestartsWhenAClusterTurnsDegraded(t *testing.T) {
	c1 := succeeded(work("c1", rsName, "1"))
	states := []ClusterState{{Cluster: "c1", State: Succeeded, Since: ptrTo(now.Add(-time.Hour))}}
	assert.Equal(t, map[string]progress{"c1": {finished: true, at: now.Add(-time.Hour)}}, progressOf(states, nil, map[string]*workv1.ManifestWork{"c1": c1}, now))

	recovered := c1.DeepCopy()
	apimeta.FindStatusCondition(recovered.Status.Conditions, workv1.WorkDegraded).LastTransitionTime = metav1.NewTime(now.Add(-5 * time.Minute))
	done := progressOf(states, nil, map[string]*workv1.ManifestWork{"c1": recovered}, now)
	assert.Equal(t, now.Add(-5*time.Minute), done["c1"].at)
	g := Group{Key: GroupKey{Index: 0}, Clusters: []string{"c1"}}
	cg := firstClosed([]Group{g, {Key: GroupKey{Index: 1}, Clusters: []string{"c2"}}}, []groupGate{{bake: 30 * time.Minute}, {}},
		gateInputs{done: done, now: now, stopped: func(int) bool { return false }, baked: func(Group) bool { return false }})
	assert.Equal(t, 25*time.Minute, cg.left, "the bake restarted when c1 recovered")

	degraded := c1.DeepCopy()
	apimeta.FindStatusCondition(degraded.Status.Conditions, workv1.WorkDegraded).Status = metav1.ConditionTrue
	assert.Empty(t, progressOf(states, nil, map[string]*workv1.ManifestWork{"c1": degraded}, now))
}

func ptrTo[T any](v T) *T { return &v }

// gatedSet is a replica set rolled out group by group with the given gate annotations.
func gatedSet(approve, bake string) *workv1alpha1.ManifestWorkReplicaSet {
	rs := withFinalizer(replicaSet(perGroupStrategy(none)))
	rs.UID = rsUID
	rs.Annotations = map[string]string{}
	if approve != "" {
		rs.Annotations[ApproveBeforeAnnotation] = approve
	}
	if bake != "" {
		rs.Annotations[BakeAfterAnnotation] = bake
	}
	return rs
}

// twoGroups are groups 0 {c1} and 1 {c2, c3} of the placement.
func twoGroups() []runtime.Object {
	return []runtime.Object{placement(plName, 3, 2), decision(plName, 0, "c1"), decision(plName, 1, "c2", "c3")}
}

func (h *harness) approvals() []fleetv1alpha1.RolloutApproval {
	h.t.Helper()
	list, err := h.client.FleetV1alpha1().RolloutApprovals(ns).List(h.t.Context(), metav1.ListOptions{})
	require.NoError(h.t, err)
	return list.Items
}

// approve sets Approved=True on the approval, as `work fleet approve` does.
func (h *harness) approve(a fleetv1alpha1.RolloutApproval) {
	h.t.Helper()
	apimeta.SetStatusCondition(&a.Status.Conditions, metav1.Condition{Type: fleetv1alpha1.ConditionApproved, Status: metav1.ConditionTrue, Reason: "Approved"})
	a.Status.ApprovedBy = "alice"
	_, err := h.client.FleetV1alpha1().RolloutApprovals(ns).UpdateStatus(h.t.Context(), &a, metav1.UpdateOptions{})
	require.NoError(h.t, err)
	h.refresh()
}

func (h *harness) waiting() (string, string) {
	c := apimeta.FindStatusCondition(h.replicaSet().Status.Conditions, ConditionRolloutWaiting)
	if c == nil {
		return "", ""
	}
	return string(c.Status) + "/" + c.Reason, c.Message
}

// An approval gate before group 1 holds it once group 0 succeeded: the
// approval is created once, the condition says how to approve, further
// passes write nothing; an approval of another revision does not open it,
// the approval of the current one does; a new revision needs a new one.
func TestApprovalGate(t *testing.T) {
	h := newHarness(t, append(twoGroups(), gatedSet("prod/1", ""))...)
	h.sync()
	assert.Equal(t, []string{"c1"}, h.clusters())
	assert.Empty(t, h.approvals(), "not reached while group 0 rolls out")
	reason, _ := h.waiting()
	assert.Empty(t, reason)

	h.put(succeeded(h.work("c1", rsName)))
	writes, _ := h.sync()
	assert.Equal(t, []string{"c1"}, h.clusters())
	require.Len(t, h.approvals(), 1)
	a := h.approvals()[0]
	hash1 := hashOf(t, "1")
	assert.Equal(t, fleetv1alpha1.RolloutApprovalSpec{ReplicaSet: rsName, Placement: plName, Group: "1", RevisionHash: hash1}, a.Spec)
	assert.Equal(t, approvalName(rsName, plName, "1", hash1), a.Name)
	assert.Regexp(t, "^web-prod-1-"+hash1+"-[0-9a-f]{5}$", a.Name)
	assert.Equal(t, map[string]string{revision.ReplicaSetLabel: rsName, revision.HashLabel: hash1}, a.Labels)
	assert.True(t, metav1.IsControlledBy(&a, h.replicaSet()))
	assert.Contains(t, writes, "create rolloutapprovals apps/"+a.Name)
	reason, msg := h.waiting()
	assert.Equal(t, "True/AwaitingApproval", reason)
	assert.Contains(t, msg, "group prod/1 (c2, c3) waits for the approval")
	assert.Contains(t, msg, "RolloutApproval "+a.Name)
	assert.Contains(t, msg, "work fleet approve web -n apps --group prod/1")

	writes, _ = h.sync()
	assert.Empty(t, writes, "nothing changed: nothing written")

	// An approved approval of another revision, even one the replica set owns, opens nothing.
	other := a.DeepCopy()
	other.Name, other.ResourceVersion = "web-prod-1-other", ""
	other.Spec.RevisionHash, other.Labels[revision.HashLabel] = "other", "other"
	_, err := h.client.FleetV1alpha1().RolloutApprovals(ns).Create(t.Context(), other, metav1.CreateOptions{})
	require.NoError(t, err)
	h.refresh()
	h.approve(*other)
	h.sync()
	assert.Equal(t, []string{"c1"}, h.clusters(), "an approval of another hash never opens the gate")

	h.approve(a)
	h.sync()
	assert.Equal(t, []string{"c1", "c2", "c3"}, h.clusters())
	reason, _ = h.waiting()
	assert.Empty(t, reason, "nothing waits")

	// Revision 2 rolls out to group 0, then waits for its own approval.
	h.put(succeeded(h.work("c2", rsName)), succeeded(h.work("c3", rsName)))
	rs := h.replicaSet()
	rs.Spec.ManifestWorkTemplate = template("2")
	h.put(rs)
	h.sync()
	assert.Equal(t, map[string]string{"c1": "2", "c2": "1", "c3": "1"}, h.versions())
	h.put(succeeded(h.work("c1", rsName)))
	h.sync()
	assert.Equal(t, map[string]string{"c1": "2", "c2": "1", "c3": "1"}, h.versions(), "the approval of revision 1 does not let revision 2 through")
	reason, msg = h.waiting()
	assert.Equal(t, "True/AwaitingApproval", reason)
	assert.Contains(t, msg, hashOf(t, "2"))
	assert.Len(t, h.approvals(), 3)
}

// A bake after group 0 holds group 1 for its time from group 0's last
// success, and queues the replica set for its end.
func TestBakeGate(t *testing.T) {
	c1 := reported(work("c1", rsName, "1"), metav1.ConditionFalse, metav1.ConditionFalse, 10*time.Minute)
	h := newHarness(t, append(twoGroups(), gatedSet("", "prod/0=30m"), c1)...)
	_, syncCtx := h.sync()
	assert.Equal(t, []string{"c1"}, h.clusters())
	reason, msg := h.waiting()
	assert.Equal(t, "True/Baking", reason)
	assert.Contains(t, msg, "group prod/0 (c1) bakes: the groups after it start at 2026-01-02T03:24:05Z")
	after, ok := syncCtx.Q.Delay(rsKey)
	require.True(t, ok, "not queued for the end of the bake")
	assert.Equal(t, 20*time.Minute, after)

	h.clock.Step(time.Minute)
	writes, syncCtx := h.sync()
	assert.Empty(t, writes, "a pass a minute later, with nothing changed, writes")
	after, _ = syncCtx.Q.Delay(rsKey)
	assert.Equal(t, 19*time.Minute, after)

	h.clock.Step(after)
	h.sync()
	assert.Equal(t, []string{"c1", "c2", "c3"}, h.clusters())
	reason, _ = h.waiting()
	assert.Empty(t, reason)
}

// Paused, no gate is looked at and nothing is created; held after an
// abort, the clusters go back at once, gates or not.
func TestGatesIgnoredWhenPausedOrHeld(t *testing.T) {
	rs := gatedSet("prod/0", "")
	rs.Annotations[PausedAnnotation] = "true"
	h := newHarness(t, append(twoGroups(), rs)...)
	writes, _ := h.sync()
	assert.Empty(t, h.approvals())
	assert.NotContains(t, strings.Join(writes, " "), "rolloutapprovals")
	reason, _ := h.waiting()
	assert.Empty(t, reason)

	kube := kubefake.NewClientset(storedRevision(t, "1", 1), storedRevision(t, "2", 2))
	held := abortSet("2", none, abortAnnotations(OnFailureAbort, StableRevisionAnnotation, hashOf(t, "1"),
		AbortedRevisionAnnotation, hashOf(t, "2"), ApproveBeforeAnnotation, "prod/0"))
	failed := on(t, degradedWork("c1"), "2")
	failed.Spec = template("2")
	h = newHarnessWith(t, kube, held, placement(plName, 2, 1), decision(plName, 0, "c1", "c2"), failed)
	h.sync()
	assert.Equal(t, map[string]string{"c1": "1@1", "c2": "1@1"}, h.runs(), "going back ignores the gate")
	assert.Empty(t, h.approvals())
}

// Without approvals on the hub, an approval gate stays closed and says why.
func TestApprovalsOff(t *testing.T) {
	h := newHarness(t, append(twoGroups(), gatedSet("prod/0", ""))...)
	h.c.approvals, h.c.approvalsOff = nil, "the hub does not serve rolloutapprovals.fleet.manifestwork.io"
	writes, _ := h.sync()
	assert.Empty(t, h.clusters())
	assert.NotContains(t, strings.Join(writes, " "), "rolloutapprovals")
	reason, msg := h.waiting()
	assert.Equal(t, "True/ApprovalsUnavailable", reason)
	assert.Contains(t, msg, "the hub does not serve rolloutapprovals")
}

// An unreadable entry holds the placement it names, and says which entry
// is wrong; the strategy All ignores gates, and says so.
func TestInvalidAndIgnoredGates(t *testing.T) {
	h := newHarness(t, append(twoGroups(), gatedSet("", "prod/0=soon"))...)
	h.sync()
	assert.Empty(t, h.clusters())
	reason, msg := h.waiting()
	assert.Equal(t, "True/InvalidGate", reason)
	assert.Contains(t, msg, `placement prod holds: work.manifestwork.io/bake-after entry "prod/0=soon" has bake time "soon"`)

	rs := gatedSet("prod/1", "")
	rs.Spec.PlacementRefs[0].RolloutStrategy = workv1alpha1.RolloutStrategy{Type: workv1alpha1.All}
	h = newHarness(t, append(twoGroups(), rs)...)
	h.sync()
	assert.Equal(t, []string{"c1", "c2", "c3"}, h.clusters())
	reason, msg = h.waiting()
	assert.Equal(t, "False/GatesIgnored", reason)
	assert.Contains(t, msg, "placement prod rolls out with All")
	assert.Empty(t, h.approvals())
}

func namedGroup(d *clusterv1beta1.PlacementDecision, name string) *clusterv1beta1.PlacementDecision {
	d.Labels[clusterv1beta1.DecisionGroupNameLabel] = name
	return d
}

// Gates over several syncs: what rolls out, and what RolloutWaiting says.
func TestGatesAcrossSyncs(t *testing.T) {
	tolerant := gatedSet("prod/1", "")
	tolerant.Spec.PlacementRefs[0].RolloutStrategy = perGroupStrategy(failures(one))
	for _, tc := range []struct {
		name   string
		objs   []runtime.Object
		then   func(h *harness) // after a first sync
		want   map[string]string
		reason string
	}{{
		name: "a failure the strategy tolerates lets the rollout reach the approval",
		objs: []runtime.Object{placement(plName, 3, 2), decision(plName, 0, "c1", "c2"), decision(plName, 1, "c3"), tolerant,
			succeeded(work("c1", rsName, "1")), reported(work("c2", rsName, "1"), metav1.ConditionTrue, metav1.ConditionTrue, time.Minute)},
		want:   map[string]string{"c1": "1", "c2": "1"},
		reason: "True/AwaitingApproval",
	}, {
		name: "the bake of a new revision starts when the revision is written, not at the old success",
		objs: append(twoGroups(), gatedSet("", "prod/0=30m"), succeeded(work("c1", rsName, "1")),
			succeeded(work("c2", rsName, "1")), succeeded(work("c3", rsName, "1"))),
		then: func(h *harness) {
			rs := h.replicaSet()
			rs.Spec.ManifestWorkTemplate = template("2")
			h.put(rs)
			h.sync()
			// the agent reports generation 2; Progressing stays False, its transition an hour ago
			w := h.work("c1", rsName)
			for i := range w.Status.Conditions {
				w.Status.Conditions[i].ObservedGeneration = w.Generation
			}
			h.put(w)
		},
		want:   map[string]string{"c1": "2", "c2": "1", "c3": "1"},
		reason: "True/Baking",
	}, {
		name: "a bake after a named group split in parts waits for the last part",
		objs: []runtime.Object{placement(plName, 3, 3), namedGroup(decision(plName, 0, "c1"), "canary"),
			namedGroup(decision(plName, 1, "c2"), "canary"), namedGroup(decision(plName, 2, "c3"), "prod"),
			gatedSet("", "prod/canary=30m"), succeeded(work("c1", rsName, "1")),
			reported(work("c2", rsName, "1"), metav1.ConditionFalse, metav1.ConditionFalse, time.Minute)},
		want:   map[string]string{"c1": "1", "c2": "1"},
		reason: "True/Baking",
	}, {
		name: "a bake that ended does not close again when its group changes",
		objs: []runtime.Object{placement(plName, 3, 3), decision(plName, 0, "c1"), decision(plName, 1, "c2"),
			decision(plName, 2, "c3"), gatedSet("", "prod/0=30m"), succeeded(work("c1", rsName, "1"))},
		then: func(h *harness) {
			require.Equal(t, []string{"c1", "c2"}, h.clusters(), "the bake ended an hour ago")
			w := h.work("c1", rsName) // a Progressing flap: True, then False again now
			apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkProgressing).LastTransitionTime = metav1.NewTime(now)
			h.put(w, succeeded(h.work("c2", rsName)))
		},
		want: map[string]string{"c1": "1", "c2": "1", "c3": "1"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.objs...)
			h.sync()
			if tc.then != nil {
				tc.then(h)
				h.sync()
			}
			assert.Equal(t, tc.want, h.versions())
			reason, _ := h.waiting()
			assert.Equal(t, tc.reason, reason)
		})
	}
}

// Approval names: the replica set, placement and group, the revision hash,
// and a short hash of the three, so that names that read alike never meet.
func TestApprovalName(t *testing.T) {
	long := strings.Repeat("a", 300)
	for _, tc := range []struct {
		name                                   string
		rs, placement, group, otherRS, otherPl string
		wantPrefix                             string
	}{{
		name: "names that read alike", rs: "app", placement: "eu-prod", group: "1", otherRS: "app-eu", otherPl: "prod",
		wantPrefix: "app-eu-prod-1-abc-",
	}, {
		name: "what a name may not hold", rs: "App", placement: "EU_prod", group: "canary", otherRS: "app", otherPl: "eu-prod",
		wantPrefix: "app-eu-prod-canary-abc-",
	}, {
		name: "a name too long is cut before the hashes", rs: long, placement: "p", group: "0", otherRS: long + "x", otherPl: "p",
		wantPrefix: strings.Repeat("a", maxApprovalName-len("-abc-12345")),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := approvalName(tc.rs, tc.placement, tc.group, "abc")
			assert.True(t, strings.HasPrefix(got, tc.wantPrefix), got)
			assert.LessOrEqual(t, len(got), maxApprovalName)
			assert.NotEqual(t, got, approvalName(tc.otherRS, tc.otherPl, tc.group, "abc"))
		})
	}
}

// An approval of that name that the replica set does not control holds
// the group, and RolloutWaiting says so.
func TestApprovalNameTaken(t *testing.T) {
	rs := gatedSet("prod/0", "")
	h := newHarness(t, append(twoGroups(), rs)...)
	h.sync()
	require.Len(t, h.approvals(), 1)
	name := h.approvals()[0].Name
	foreign := h.approvals()[0].DeepCopy()
	require.NoError(t, h.client.FleetV1alpha1().RolloutApprovals(ns).Delete(t.Context(), name, metav1.DeleteOptions{}))
	foreign.OwnerReferences, foreign.ResourceVersion = nil, ""
	_, err := h.client.FleetV1alpha1().RolloutApprovals(ns).Create(t.Context(), foreign, metav1.CreateOptions{})
	require.NoError(t, err)
	h.refresh()
	writes, _ := h.sync()
	assert.NotContains(t, strings.Join(writes, " "), "create rolloutapprovals")
	assert.Empty(t, h.clusters())
	reason, msg := h.waiting()
	assert.Equal(t, "True/ApprovalsUnavailable", reason)
	assert.Contains(t, msg, "the RolloutApproval "+name+" is there and this replica set does not control it")
}
