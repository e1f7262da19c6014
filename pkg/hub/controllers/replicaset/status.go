package replicaset

import (
	"fmt"
	"slices"
	"strings"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

// nextStatus is what statusOf computes: the replica set's new status, and
// what sync does beside writing it.
type nextStatus struct {
	status workv1alpha1.ManifestWorkReplicaSetStatus
	fleet  fleet // the clusters' works, for the gauges
	// stoppedHead is the head of RolloutStopped, which names the failed
	// clusters; "" when the rollout is not stopped.
	stoppedHead string
	// stopped is the message of the Warning Event to send, when the set of
	// failed clusters differs from the one the status named before; else "".
	stopped string
	// aborted is the message of the Warning Event RolloutAborted to send,
	// once per abort; else "". abortedHash is the hash of the revision held.
	aborted, abortedHash string
}

// statusOf is the status of rs after a pass: d is what the pass found of
// the placements' decisions and what the rollout decided, works the
// replica set's work on each cluster after the pass. It changes none of its
// arguments; a condition whose status changes turns at now.
//
// The summaries and OCM's conditions are those of OCM v1.3
// (deployReconciler, then statusReconciler); this controller's own
// conditions come after them, so that a client that reads OCM's by position
// sees OCM's layout. A missing placement sets PlacementVerified only: the
// summaries and the rollout's conditions stay as they were.
func statusOf(rs *workv1alpha1.ManifestWorkReplicaSet, d deployment, works map[string]*workv1.ManifestWork, now time.Time) nextStatus {
	next := nextStatus{status: *rs.Status.DeepCopy(), fleet: fleetOf(works)}
	var conds []condition
	if d.missing != "" {
		conds = append(conds, trueIf(workv1alpha1.ConditionPlacementVerified, false, workv1alpha1.ReasonPlacementDecisionNotFound,
			fmt.Sprintf("Placement %s not found", d.missing)))
	} else {
		next.status.PlacementsSummary, next.status.Summary = summaries(d, works)
		conds = append(conds, ocmConditions(next.status.Summary, d)...)
	}
	conds = append(conds, fleetConditions(next.fleet)...)
	conds = append(conds, pausedCondition(d))
	if d.missing == "" {
		var stopped condition
		stopped, next.stoppedHead, next.stopped = rolloutStopped(rs.Status.Conditions, d.stops())
		conds = append(conds, stopped)
	}
	conds = append(conds, d.revision.condition())
	if d.missing == "" {
		var aborted condition
		aborted, next.aborted = rolloutAborted(rs.Status.Conditions, d.abort, len(d.stops()) > 0)
		next.abortedHash = d.abort.failing.hash
		conds = append(conds, aborted, waitingCondition(d), overridesRendered(d))
	}
	// Each condition says which generation of the spec it was computed
	// for, so that a reader (work fleet wait) never takes a stopped or
	// aborted rollout of the previous template for the current one.
	for i := range conds {
		conds[i].ObservedGeneration = rs.Generation
	}
	next.status.Conditions = withConditions(next.status.Conditions, now, conds...)
	return next
}

// summaries count the works with the current template, per placement and
// in all. DesiredTotal is what the placements select, Total and Updated the
// works with the current template, the others their works' conditions.
func summaries(d deployment, works map[string]*workv1.ManifestWork) ([]workv1alpha1.PlacementSummary, workv1alpha1.ManifestWorkReplicaSetSummary) {
	var total workv1alpha1.ManifestWorkReplicaSetSummary
	out := make([]workv1alpha1.PlacementSummary, 0, len(d.placements))
	for _, p := range d.placements {
		s := workv1alpha1.ManifestWorkReplicaSetSummary{
			Total:        len(p.clusters),
			DesiredTotal: int(p.placement.Status.NumberOfSelectedClusters),
			Updated:      len(p.clusters),
		}
		for _, cluster := range p.clusters {
			count(&s, works[cluster].Status.Conditions)
		}
		out = append(out, workv1alpha1.PlacementSummary{
			Name: p.name,
			AvailableDecisionGroups: fmt.Sprintf("%d (%d / %d clusters applied)",
				len(p.placement.Status.DecisionGroups), len(p.clusters), p.placement.Status.NumberOfSelectedClusters),
			Summary: s,
		})
		total.Total += s.Total
		total.DesiredTotal += s.DesiredTotal
		total.Updated += s.Updated
		total.Applied += s.Applied
		total.Available += s.Available
		total.Progressing += s.Progressing
		total.Degraded += s.Degraded
	}
	return out, total
}

// ocmConditions are PlacementVerified, PlacementRolledOut and
// ManifestworkApplied, in OCM's order, from the summary of all placements.
// PlacementRolledOut is Complete once as many works with the current
// template have succeeded as the placements select clusters.
func ocmConditions(total workv1alpha1.ManifestWorkReplicaSetSummary, d deployment) []condition {
	verified := workv1alpha1.ReasonAsExpected
	switch {
	case len(d.problems) > 0:
		verified = workv1alpha1.ReasonNotAsExpected
	case total.Total == 0 && !d.abort.held: // held, the clusters are selected and run the stable revision
		verified = workv1alpha1.ReasonPlacementDecisionEmpty
	}
	succeeded, stopped := 0, false
	for _, p := range d.placements {
		succeeded += p.succeeded
		stopped = stopped || len(p.failures) > 0
	}
	rolledOut := trueIf(workv1alpha1.ConditionPlacementRolledOut, true, workv1alpha1.ReasonComplete, "")
	if total.DesiredTotal != succeeded {
		rolledOut = trueIf(workv1alpha1.ConditionPlacementRolledOut, false, workv1alpha1.ReasonProgressing, rolledOutMessage(d, stopped))
	}
	applied := workv1alpha1.ReasonNotAsExpected
	switch {
	case total.Total == 0 && verified == workv1alpha1.ReasonPlacementDecisionEmpty:
		applied = workv1alpha1.ReasonPlacementDecisionEmpty
	case total.Total == 0:
	case total.Available == total.Total && total.Progressing == 0 && total.Degraded == 0:
		applied = workv1alpha1.ReasonAsExpected
	case total.Progressing > 0 && total.Degraded == 0:
		applied = workv1alpha1.ReasonProcessing
	}
	return []condition{
		trueIf(workv1alpha1.ConditionPlacementVerified, verified == workv1alpha1.ReasonAsExpected, verified, strings.Join(d.problems, "; ")),
		rolledOut,
		trueIf(workv1alpha1.ConditionManifestworkApplied, applied == workv1alpha1.ReasonAsExpected, applied, ""),
	}
}

// count adds a work's Applied, Available, Progressing and Degraded (when
// True) to s.
func count(s *workv1alpha1.ManifestWorkReplicaSetSummary, conds []metav1.Condition) {
	for _, c := range []struct {
		cond string
		n    *int
	}{
		{workv1.WorkApplied, &s.Applied},
		{workv1.WorkAvailable, &s.Available},
		{workv1.WorkProgressing, &s.Progressing},
		{workv1.WorkDegraded, &s.Degraded},
	} {
		if apimeta.IsStatusConditionTrue(conds, c.cond) {
			*c.n++
		}
	}
}

// condition is what the status says of one condition type: its status,
// reason and message, or that it is absent.
type condition struct {
	metav1.Condition
	absent bool
}

func withStatus(t string, status metav1.ConditionStatus, reason, message string) condition {
	return condition{Condition: metav1.Condition{Type: t, Status: status, Reason: reason, Message: message}}
}

func trueIf(t string, ok bool, reason, message string) condition {
	status := metav1.ConditionFalse
	if ok {
		status = metav1.ConditionTrue
	}
	return withStatus(t, status, reason, message)
}

func absent(t string) condition {
	return condition{Condition: metav1.Condition{Type: t}, absent: true}
}

// withConditions returns a copy of conds with cs set or removed, in order:
// a new condition comes last, one whose status changes turns at now.
func withConditions(conds []metav1.Condition, now time.Time, cs ...condition) []metav1.Condition {
	out := slices.Clone(conds)
	for _, c := range cs {
		if c.absent {
			apimeta.RemoveStatusCondition(&out, c.Type)
			continue
		}
		c.LastTransitionTime = metav1.NewTime(now)
		apimeta.SetStatusCondition(&out, c.Condition)
	}
	return out
}
