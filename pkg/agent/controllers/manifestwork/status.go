package manifestwork

import (
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/manifestwork/work/pkg/agent/status/feedback"
	"github.com/manifestwork/work/pkg/agent/status/health"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// buildStatus is the work's status after this reconcile: one entry per
// manifest with its Applied and InSync conditions, and the work-level
// Applied, Progressing, Degraded and InSync conditions. Conditions other
// controllers own (feedback, condition rules) and feedback values are
// carried over, from each result's previous entry.
//
// Availability is owned by the availability controller, but an object this
// reconcile has just applied is known to exist: its Available condition, and
// the work's when every manifest is available, are set here already, so that
// a new or changed work costs one status write, not two. So is the Healthy
// condition of an object whose kind has no health rule (NoHealthCheck), and
// the work's Healthy once every manifest has one, and the StatusFeedbackSynced
// condition of a manifest without feedback rules.
func buildStatus(work *workv1.ManifestWork, results []manifestResult, now time.Time) workv1.ManifestWorkStatus {
	status := *work.Status.DeepCopy()
	manifests := make([]workv1.ManifestCondition, len(results))
	available := make([]metav1.Condition, 0, len(results)) // of the manifests whose object exists
	for i, r := range results {
		mc := r.previous
		mc.ResourceMeta = r.meta
		apimeta.SetStatusCondition(&mc.Conditions, manifestApplied(r.err, work.Generation))
		if r.err == nil && r.exists {
			apimeta.SetStatusCondition(&mc.Conditions, health.ManifestAvailable(work.Generation))
			feedback.SetNoRules(work, &mc)
			if noHealthCheck(work, r.meta) {
				apimeta.SetStatusCondition(&mc.Conditions, health.NoHealthCheck(r.meta.Kind).Condition(work.Generation))
			}
		}
		setManifestInSync(&mc, r, work.Generation)
		if cond := apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestAvailable); cond != nil && cond.Status == metav1.ConditionTrue {
			available = append(available, *cond)
		}
		manifests[i] = mc
	}
	status.ResourceStatus.Manifests = manifests
	apimeta.SetStatusCondition(&status.Conditions, workInSync(manifests, work.Generation))
	failed := countFailed(results)
	if len(results) > 0 {
		// As OCM's agent: a work without manifests gets no Applied
		// condition, there being no manifest whose Applied it aggregates.
		apimeta.SetStatusCondition(&status.Conditions, workApplied(failed, work.Generation))
	}
	if len(results) > 0 && len(available) == len(results) {
		apimeta.SetStatusCondition(&status.Conditions, health.WorkAvailable(available, work.Generation))
	}
	health.SetWorkConditions(work, &status, now)
	return status
}

// noHealthCheck tells that an object just applied has nothing to judge: its
// Healthy condition is known at once, as its Available one is, and a work of
// such objects (ConfigMaps, RBAC, ...) costs no second status write for it.
func noHealthCheck(work *workv1.ManifestWork, meta workv1.ManifestResourceMeta) bool {
	return meta.Kind != "" && !health.Judged(schema.GroupKind{Group: meta.Group, Kind: meta.Kind}) && !health.Overridden(work, meta)
}

// carryOver returns the previous status of the same object, matched as
// OCM's agent matches it: the entry with the same resourceMeta, else the one
// entry that differs only in its ordinal, so reordering manifests keeps it.
// When several entries differ only in their ordinals (the same object listed
// twice), or the manifest's meta is nothing but its ordinal (it did not
// decode), only the exact entry matches.
func carryOver(previous []workv1.ManifestCondition, meta workv1.ManifestResourceMeta) workv1.ManifestCondition {
	var byObject *workv1.ManifestCondition
	matches := 0
	for i := range previous {
		p := &previous[i]
		if p.ResourceMeta == meta {
			return *p.DeepCopy()
		}
		if sameObject(p.ResourceMeta, meta) {
			byObject = p
			matches++
		}
	}
	if matches == 1 {
		return *byObject.DeepCopy()
	}
	return workv1.ManifestCondition{Conditions: []metav1.Condition{}}
}

// sameObject tells whether two resourceMetas, not only ordinals, name the
// same object.
func sameObject(a, b workv1.ManifestResourceMeta) bool {
	a.Ordinal, b.Ordinal = 0, 0
	return a == b && a != workv1.ManifestResourceMeta{}
}

// manifestApplied is OCM's Applied condition of a manifest: whatever the
// failure, the reason is AppliedManifestFailed and the message names the
// error (clients match on both).
func manifestApplied(err error, generation int64) metav1.Condition {
	if err == nil {
		return metav1.Condition{
			Type: workv1.ManifestApplied, Status: metav1.ConditionTrue, ObservedGeneration: generation,
			Reason: workv1.ManifestAppliedReasonComplete, Message: workv1.ManifestAppliedMessageComplete,
		}
	}
	return metav1.Condition{
		Type: workv1.ManifestApplied, Status: metav1.ConditionFalse, ObservedGeneration: generation,
		Reason: workv1.ManifestAppliedReasonFailed, Message: workv1.Shorten(workv1.ManifestAppliedMessageFailed+err.Error(), workv1.MaxConditionMessageLength, ""),
	}
}

// workApplied is OCM's Applied condition of the work: True once every
// manifest is applied; its status.resourceStatus says which failed.
func workApplied(failed int, generation int64) metav1.Condition {
	if failed == 0 {
		return metav1.Condition{
			Type: workv1.WorkApplied, Status: metav1.ConditionTrue, ObservedGeneration: generation,
			Reason: workv1.WorkAppliedReasonComplete, Message: workv1.WorkAppliedMessageComplete,
		}
	}
	return metav1.Condition{
		Type: workv1.WorkApplied, Status: metav1.ConditionFalse, ObservedGeneration: generation,
		Reason: workv1.WorkAppliedReasonFailed, Message: workv1.WorkAppliedMessageFailed,
	}
}

func countFailed(results []manifestResult) int {
	n := 0
	for _, r := range results {
		if r.err != nil {
			n++
		}
	}
	return n
}
