package feedback

import (
	"strings"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
)

// The StatusFeedbackSynced condition of a manifest whose object exists, as
// OCM's agent sets it: True without a message when its rules gave no
// problem (whether or not they found values), True with reason
// NoStatusFeedbackSynced when it has no feedback rules, False when a rule
// gave a problem. A manifest whose object is missing or cannot be read
// keeps its condition and values: its Available condition tells why.

// SyncedCondition is the condition of a manifest whose feedback rules gave
// the problems; none means synced.
func SyncedCondition(problems []string, generation int64) metav1.Condition {
	cond := metav1.Condition{Type: workv1.ManifestStatusFeedbackSynced, ObservedGeneration: generation}
	if len(problems) == 0 {
		cond.Status, cond.Reason = metav1.ConditionTrue, workv1.StatusFeedbackSyncedReasonSynced
		return cond
	}
	errs := make([]error, len(problems))
	for i, p := range problems {
		errs[i] = plainError(p)
	}
	// An aggregate prints one problem alone and several as "[a, b]", once
	// each, as OCM's message has them.
	cond.Status, cond.Reason = metav1.ConditionFalse, workv1.StatusFeedbackSyncedReasonFailed
	cond.Message = workv1.StatusFeedbackSyncedMessageFailedPrefix + utilerrors.NewAggregate(errs).Error()
	return cond
}

type plainError string

func (e plainError) Error() string { return string(e) }

// HasRules tells whether the work has feedback rules for the manifest.
func HasRules(work *workv1.ManifestWork, meta workv1.ManifestResourceMeta) bool {
	config := manifest.ConfigOf(work, meta)
	return config != nil && len(config.FeedbackRules) > 0
}

// WorkHasRules tells whether a manifest of the work's status has feedback or
// condition rules (ConfigHasRules). The status feedback controller then
// writes the whole paced part of the work's status, its availability and
// health too, so that a change of its objects costs one write; the
// availability controller leaves such a work to it.
func WorkHasRules(work *workv1.ManifestWork) bool {
	for _, m := range work.Status.ResourceStatus.Manifests {
		if ConfigHasRules(manifest.ConfigOf(work, m.ResourceMeta)) {
			return true
		}
	}
	return false
}

// ConfigHasRules tells whether a manifest's config, nil when none matches
// it, asks the status feedback controller for anything: feedback or
// condition rules.
func ConfigHasRules(config *workv1.ManifestConfigOption) bool {
	return config != nil && (len(config.FeedbackRules) > 0 || len(config.ConditionRules) > 0)
}

// SetNoRules gives a manifest whose object exists and that has no feedback
// rules the condition that says so, and no values (those of rules removed
// since go).
func SetNoRules(work *workv1.ManifestWork, mc *workv1.ManifestCondition) {
	if HasRules(work, mc.ResourceMeta) {
		return
	}
	mc.StatusFeedbacks.Values = nil
	apimeta.SetStatusCondition(&mc.Conditions, metav1.Condition{
		Type: workv1.ManifestStatusFeedbackSynced, Status: metav1.ConditionTrue, ObservedGeneration: work.Generation,
		Reason: workv1.StatusFeedbackSyncedReasonNoRules,
	})
}

// WithNote appends a note of this agent's to a condition's message.
func WithNote(cond metav1.Condition, note string) metav1.Condition {
	if note != "" {
		cond.Message = strings.TrimPrefix(cond.Message+"; "+note, "; ")
	}
	return cond
}
