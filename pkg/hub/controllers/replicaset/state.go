package replicaset

import (
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// WorkState is the rollout state of a cluster whose work has the current
// template, read from the work's conditions as OCM v1.3 reads them
// (deployReconciler.clusterRolloutStatusFunc):
//
//   - ToApply until the agent reports, for the work's current generation,
//     Applied=True and a Progressing condition (and Degraded, if it sets one);
//   - Failed when Progressing=True and Degraded=True, since Degraded turned;
//   - Progressing when Progressing is True or Unknown, since it turned;
//   - Succeeded when Progressing=False, since it turned.
func WorkState(work *workv1.ManifestWork) (State, *time.Time) {
	conds := work.Status.Conditions
	applied := apimeta.FindStatusCondition(conds, workv1.WorkApplied)
	progressing := apimeta.FindStatusCondition(conds, workv1.WorkProgressing)
	degraded := apimeta.FindStatusCondition(conds, workv1.WorkDegraded)
	gen := work.Generation
	switch {
	case applied == nil || applied.ObservedGeneration != gen || applied.Status != metav1.ConditionTrue,
		progressing == nil || progressing.ObservedGeneration != gen,
		degraded != nil && degraded.ObservedGeneration != gen:
		return ToApply, nil
	case progressing.Status == metav1.ConditionTrue && degraded != nil && degraded.Status == metav1.ConditionTrue:
		return Failed, since(degraded)
	case progressing.Status == metav1.ConditionFalse:
		return Succeeded, succeededSince(work, progressing)
	default:
		return Progressing, since(progressing)
	}
}

// RevisionWrittenAtAnnotation is when the hub last wrote a work with a new
// revision hash (RFC 3339), set in the same write. A success is never older
// than it: Progressing stays False, its transition time unchanged, when a
// revision changes nothing that progresses (a ConfigMap).
const RevisionWrittenAtAnnotation = "work.manifestwork.io/revision-written-at"

// succeededSince is when the work succeeded: the later of Progressing's
// transition and the revision's write, when the work says it.
func succeededSince(work *workv1.ManifestWork, progressing *metav1.Condition) *time.Time {
	t := since(progressing)
	if at, err := time.Parse(time.RFC3339, work.Annotations[RevisionWrittenAtAnnotation]); err == nil && at.After(*t) {
		return &at
	}
	return t
}

func since(c *metav1.Condition) *time.Time {
	t := c.LastTransitionTime.Time
	return &t
}
