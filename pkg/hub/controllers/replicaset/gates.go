package replicaset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

// Annotations of ours on a replica set that gate its rollout between
// decision groups. Each is a comma-separated list of entries that name a
// group of a placement as <placement>/<group>, the group by its name or its
// index; <placement>/<group>+ names that group and every later one, in
// rollout order (the mandatory groups first, then the others by index).
const (
	// ApproveBeforeAnnotation lists the groups whose clusters wait, before
	// they get a revision, for a RolloutApproval of that revision.
	ApproveBeforeAnnotation = "work.manifestwork.io/approve-before"
	// BakeAfterAnnotation lists <placement>/<group>=<duration> entries: once
	// every cluster of the group has succeeded, the groups after it wait for
	// the duration (a Go duration such as 30m).
	BakeAfterAnnotation = "work.manifestwork.io/bake-after"
)

// ConditionRolloutWaiting is True while a gate holds the rollout: its reason
// says what it waits for and its message names the group and how to go on.
// False with GatesIgnored when a placement's strategy is All. Absent when
// nothing waits.
const ConditionRolloutWaiting = "RolloutWaiting"

// Reasons of RolloutWaiting.
const (
	// ReasonAwaitingApproval: a group waits for the approval of the current revision.
	ReasonAwaitingApproval = "AwaitingApproval"
	// ReasonBaking: the groups after a group wait for its bake time to end.
	ReasonBaking = "Baking"
	// ReasonInvalidGate: an entry of a gate annotation cannot be read; the
	// placement it names (every placement, when it names none) holds.
	ReasonInvalidGate = "InvalidGate"
	// ReasonApprovalsUnavailable: a group waits for an approval that this hub
	// cannot keep (no RolloutApproval CRD, or no right on them).
	ReasonApprovalsUnavailable = "ApprovalsUnavailable"
	// ReasonGatesIgnored: a placement with gates rolls out with All, which
	// has no groups to wait between.
	ReasonGatesIgnored = "GatesIgnored"
)

// gateEntry is one entry of a gate annotation.
type gateEntry struct {
	placement, group string
	later            bool          // the "+" form: this group and every later one
	bake             time.Duration // bake-after only
}

// names tells whether the entry names the group, by name or index.
func (e gateEntry) names(g GroupKey) bool {
	return g.Name != "" && e.group == g.Name || e.group == strconv.Itoa(int(g.Index))
}

// gateSpec is what a replica set's gate annotations say.
type gateSpec struct {
	approve, bake []gateEntry
	// invalid are the messages of entries that cannot be read, by the
	// placement they name ("" when they name none: every placement).
	invalid map[string][]string
}

// parseGates reads the gate annotations of rs.
func parseGates(rs *workv1alpha1.ManifestWorkReplicaSet) gateSpec {
	var s gateSpec
	s.approve = s.parse(rs.Annotations, ApproveBeforeAnnotation, false)
	s.bake = s.parse(rs.Annotations, BakeAfterAnnotation, true)
	return s
}

func (s *gateSpec) parse(annotations map[string]string, key string, bake bool) []gateEntry {
	v, ok := annotations[key]
	if !ok {
		return nil
	}
	var out []gateEntry
	for raw := range strings.SplitSeq(v, ",") {
		text := strings.TrimSpace(raw)
		e, placement, err := parseEntry(text, bake)
		if err != "" {
			if s.invalid == nil {
				s.invalid = map[string][]string{}
			}
			s.invalid[placement] = append(s.invalid[placement], fmt.Sprintf("%s entry %q %s", key, text, err))
			continue
		}
		out = append(out, e)
	}
	return out
}

// parseEntry reads <placement>/<group>[+][=<duration>]; err says what is
// wrong, and placement is the placement it names when that much is readable.
func parseEntry(text string, bake bool) (e gateEntry, placement, err string) {
	ref, duration, hasDuration := strings.Cut(text, "=")
	placement, group, ok := strings.Cut(ref, "/")
	switch {
	case text == "":
		return e, "", "is empty"
	case !ok || placement == "" || strings.Contains(group, "/"):
		return e, "", "is not <placement>/<group>"
	}
	e.placement = placement
	e.group, e.later = strings.CutSuffix(group, "+")
	switch {
	case e.group == "":
		return e, placement, "names no group (<placement>/<group name or index>)"
	case bake && !hasDuration:
		return e, placement, "has no bake time (<placement>/<group>=<duration>, e.g. 30m)"
	case !bake && hasDuration:
		return e, placement, "has a duration, which only " + BakeAfterAnnotation + " takes"
	}
	if bake {
		d, perr := time.ParseDuration(duration)
		if perr != nil || d <= 0 {
			return e, placement, fmt.Sprintf("has bake time %q, not a positive duration such as 30m", duration)
		}
		e.bake = d
	}
	return e, placement, ""
}

// any tells whether the annotations name any gate, readable or not.
func (s gateSpec) any() bool {
	return len(s.approve) > 0 || len(s.bake) > 0 || len(s.invalid) > 0
}

// names tells whether the annotations name the placement.
func (s gateSpec) names(placement string) bool {
	for _, e := range slices.Concat(s.approve, s.bake) {
		if e.placement == placement {
			return true
		}
	}
	return len(s.invalid[placement]) > 0 || len(s.invalid[""]) > 0
}

// invalidFor is the messages of the unreadable entries that hold the placement.
func (s gateSpec) invalidFor(placement string) []string {
	return slices.Concat(s.invalid[""], s.invalid[placement])
}

// groupGate is what the gates say of one group.
type groupGate struct {
	approve bool          // the group needs an approval before it starts
	bake    time.Duration // the groups after it wait this long once it succeeded
}

// of is the gate of each of the placement's groups, given in rollout order.
// An approval gates the first group an entry names; a bake follows the last,
// so that a named group OCM split into several decision groups (by
// clustersPerDecisionGroup) bakes once all of its parts have succeeded.
func (s gateSpec) of(placement string, ordered []Group) []groupGate {
	out := make([]groupGate, len(ordered))
	apply := func(entries []gateEntry, last bool, set func(*groupGate, gateEntry)) {
		for _, e := range entries {
			if e.placement != placement {
				continue
			}
			from := -1
			for i, g := range ordered {
				if e.names(g.Key) && (from < 0 || last) {
					from = i
				}
			}
			for j := from; j >= 0 && j < len(ordered); j++ {
				set(&out[j], e)
				if !e.later {
					break
				}
			}
		}
	}
	apply(s.approve, false, func(g *groupGate, _ gateEntry) { g.approve = true })
	apply(s.bake, true, func(g *groupGate, e gateEntry) { g.bake = max(g.bake, e.bake) })
	return out
}

// rolloutOrder is the order in which the strategy rolls the groups out: the
// mandatory groups first, then the others, each part by index.
func rolloutOrder(groups []Group, strategy workv1alpha1.RolloutStrategy) []Group {
	var mandatory []workv1alpha1.MandatoryDecisionGroup
	switch {
	case strategy.Progressive != nil:
		mandatory = strategy.Progressive.MandatoryDecisionGroups.MandatoryDecisionGroups
	case strategy.ProgressivePerGroup != nil:
		mandatory = strategy.ProgressivePerGroup.MandatoryDecisionGroups.MandatoryDecisionGroups
	}
	sorted := slices.Clone(groups)
	slices.SortStableFunc(sorted, func(a, b Group) int { return int(a.Key.Index) - int(b.Key.Index) })
	first, rest := splitMandatory(sorted, mandatory)
	return append(first, rest...)
}

// groupID names a group in gates and approvals: its name, else its index.
func groupID(k GroupKey) string {
	if k.Name != "" {
		return k.Name
	}
	return strconv.Itoa(int(k.Index))
}

// progress is how far one cluster got on the current revision, for gates.
type progress struct {
	// finished: it succeeded, or it failed or timed out (a failure the
	// strategy may tolerate; whether it does is decided per gate).
	finished bool
	// at is when it last changed for a bake: the latest of its success or
	// failure and of its Degraded condition's last transition.
	at time.Time
}

// progressOf reads each cluster's progress from its state and its work;
// timedOut are the clusters past their progressDeadline.
func progressOf(states []ClusterState, timedOut []ClusterState, works map[string]*workv1.ManifestWork, now time.Time) map[string]progress {
	out := map[string]progress{}
	late := map[string]bool{}
	for _, s := range timedOut {
		late[s.Cluster] = true
	}
	for _, s := range states {
		if s.State != Succeeded && s.State != Failed && s.State != TimeOut && !late[s.Cluster] {
			continue
		}
		p := progress{at: now, finished: true}
		if s.Since != nil {
			p.at = *s.Since
		}
		if w := works[s.Cluster]; w != nil {
			if c := apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkDegraded); c != nil {
				if s.State == Succeeded && c.Status == metav1.ConditionTrue {
					continue // degraded: not a success a bake can count
				}
				if c.LastTransitionTime.After(p.at) {
					p.at = c.LastTransitionTime.Time
				}
			}
		}
		out[s.Cluster] = p
	}
	return out
}

// gateKind is the kind of gate that holds a placement.
type gateKind int

const (
	gateNone gateKind = iota
	gateApproval
	gateBake
)

// closedGate is the first gate that holds a placement's groups.
type closedGate struct {
	kind gateKind
	// pass is how many groups, in rollout order, the rollout may go on with.
	pass  int
	group Group // the group that needs approval, or that bakes
	// reached: every cluster before the approval has finished, or every
	// cluster of the baking group has (the bake runs), and failures have not
	// stopped the rollout.
	reached bool
	end     time.Time     // when the bake ends
	left    time.Duration // how long the bake still runs
	// baked are the groups before pass whose bake has ended.
	baked []Group
}

// gateInputs is what firstClosed reads besides the groups and their gates.
type gateInputs struct {
	done     map[string]progress
	approved func(Group) bool
	// stopped tells whether failures in the first n groups stop the rollout.
	stopped func(n int) bool
	// baked tells whether the group's bake ended already for this revision.
	baked func(Group) bool
	now   time.Time
}

// firstClosed walks the groups in rollout order and returns the first gate
// that holds: a group that needs an approval it lacks, or a group whose
// bake has not ended (or not begun). Empty groups have no gate, nor does an
// approval before a group whose clusters have all finished on the revision
// already (a WorkOverride change that renders their works as they were
// leaves nothing there to approve). A bake
// starts when every cluster of its group has finished, from the latest
// success or failure (or Degraded transition) among them; once it ended it
// stays ended for the revision.
func firstClosed(ordered []Group, gates []groupGate, in gateInputs) closedGate {
	allDone := func(groups ...Group) bool {
		for _, g := range groups {
			for _, c := range g.Clusters {
				if !in.done[c].finished {
					return false
				}
			}
		}
		return true
	}
	var baked []Group
	for i, g := range ordered {
		if len(g.Clusters) == 0 {
			continue
		}
		if gates[i].approve && !in.approved(g) && !allDone(g) {
			reached := allDone(ordered[:i]...) && !in.stopped(i)
			return closedGate{kind: gateApproval, pass: i, group: g, reached: reached, baked: baked}
		}
		if gates[i].bake <= 0 {
			continue
		}
		if in.baked(g) {
			baked = append(baked, g)
			continue
		}
		if !allDone(g) || in.stopped(i+1) {
			return closedGate{kind: gateBake, pass: i + 1, group: g, baked: baked}
		}
		var start time.Time
		for _, c := range g.Clusters {
			if in.done[c].at.After(start) {
				start = in.done[c].at
			}
		}
		if end := start.Add(gates[i].bake); in.now.Before(end) {
			return closedGate{kind: gateBake, pass: i + 1, group: g, reached: true, end: end, left: end.Sub(in.now), baked: baked}
		}
		baked = append(baked, g)
	}
	return closedGate{kind: gateNone, pass: len(ordered), baked: baked}
}

// gateWait is what a placement waits for, for RolloutWaiting.
type gateWait struct {
	reason, message string
	waiting         bool // false: a note (GatesIgnored) with nothing waiting
}

// waitingCondition is RolloutWaiting from what each placement waits for:
// True with the reason of the first that waits and every message, False
// with GatesIgnored when only notes are left, absent otherwise.
func waitingCondition(d deployment) condition {
	var reason string
	var msgs, notes []string
	for _, p := range d.placements {
		switch {
		case p.wait == nil:
		case p.wait.waiting:
			if reason == "" {
				reason = p.wait.reason
			}
			msgs = append(msgs, p.wait.message)
		default:
			notes = append(notes, p.wait.message)
		}
	}
	switch {
	case reason != "":
		return trueIf(ConditionRolloutWaiting, true, reason, strings.Join(append(msgs, notes...), "; "))
	case len(notes) > 0:
		return trueIf(ConditionRolloutWaiting, false, ReasonGatesIgnored, strings.Join(notes, "; "))
	}
	return absent(ConditionRolloutWaiting)
}

// groupText names a group and its clusters in a message.
func groupText(placement string, g Group) string {
	return fmt.Sprintf("group %s/%s (%s)", placement, groupID(g.Key), named(g.Clusters))
}

// bakeMessage says what bakes and when it ends: the time, not the time
// left, so that the message changes only when the bake does.
func bakeMessage(placement string, cg closedGate) string {
	return fmt.Sprintf("%s bakes: the groups after it start at %s (annotation %s)",
		groupText(placement, cg.group), cg.end.UTC().Format(time.RFC3339), BakeAfterAnnotation)
}
