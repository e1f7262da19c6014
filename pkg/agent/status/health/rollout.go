package health

import (
	"fmt"
	"strings"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/status/conditionrules"
	"github.com/manifestwork/work/pkg/agent/status/stalled"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
)

// SetWorkConditions sets the work-level conditions built from the
// manifests' status: Healthy (once every manifest has one), Progressing and
// Degraded. Whichever writer changes a manifest's Applied or Healthy calls
// it, so the three agree in every status write. A condition rule of the
// work of type Progressing or Degraded replaces the agent's of that type.
func SetWorkConditions(work *workv1.ManifestWork, status *workv1.ManifestWorkStatus, now time.Time) {
	if cond, ok := WorkCondition(status, work.Generation); ok {
		apimeta.SetStatusCondition(&status.Conditions, cond)
	}
	progressing, degraded := Rollout(work, status.ResourceStatus.Manifests, now)
	conditionrules.SetOwn(work, &status.Conditions, progressing)
	conditionrules.SetOwn(work, &status.Conditions, degraded)
}

// rolloutState is where one manifest stands in the rollout of a generation.
type rolloutState int

const (
	rolledOut  rolloutState = iota // applied, and Healthy True for this generation
	notApplied                     // not applied yet, or failing to apply
	stalling                       // failing to apply for stalled.Threshold
	rollingOut                     // applied, not healthy yet (or not judged)
	healthBad                      // Healthy False, reason Degraded
	unreadable                     // ReadOnly, applied, and the agent cannot read its object
)

// Rollout returns the work's Progressing and Degraded conditions.
//
// Progressing is True until every manifest has rolled out: applied, and its
// Healthy condition True for this generation (a kind without a health rule
// is NoHealthCheck, True, once applied). Then it is False (Completed). Its
// reason is Applying while some manifest is not applied, else RollingOut.
//
// Degraded is True while some manifest's Healthy is False with reason
// Degraded, or some manifest has failed to apply for stalled.Threshold;
// False (AsExpected) otherwise. A degraded manifest has not rolled out, so
// a degraded work is also progressing: OCM's ManifestWorkReplicaSet counts
// such a cluster as failed.
//
// A ReadOnly manifest whose object the agent cannot read (its Available is
// Unknown, FetchingResourceFailed: it may not read it) does not hold the
// rollout: the agent changes nothing there to wait for, and nothing it does
// would make the object readable. Such a manifest counts as rolled out once
// applied; its Healthy stays Unknown, and the Progressing message names it.
//
// Messages count the manifests in question and name the first few.
func Rollout(work *workv1.ManifestWork, manifests []workv1.ManifestCondition, now time.Time) (progressing, degraded metav1.Condition) {
	t := tallyRollout(work, manifests, now)
	return t.progressing(work.Generation, len(manifests)), t.degraded(work.Generation, len(manifests))
}

// rolloutTally is what the manifests of a work tell of its rollout.
type rolloutTally struct {
	waiting, bad, unread     []string // the manifests not rolled out, failing, unreadable ReadOnly
	applying, healthDegraded bool     // some manifest is not applied; some is Degraded
}

func tallyRollout(work *workv1.ManifestWork, manifests []workv1.ManifestCondition, now time.Time) rolloutTally {
	var t rolloutTally
	for i := range manifests {
		mc := &manifests[i]
		ref := RefOf(mc.ResourceMeta)
		state, detail := manifestRollout(mc, work.Generation, now)
		if state == rollingOut && unreadableReadOnly(work, mc, work.Generation) {
			state = unreadable
		}
		switch state {
		case rolledOut:
			continue
		case unreadable:
			t.unread = append(t.unread, ref)
			continue
		case notApplied, stalling:
			t.applying = true
		}
		t.waiting = append(t.waiting, fmt.Sprintf("%s %s", ref, detail))
		switch state {
		case stalling:
			t.bad = append(t.bad, fmt.Sprintf("%s fails to apply (%s)", ref, conditionMessage(mc, workv1.ManifestApplied)))
		case healthBad:
			t.healthDegraded = true
			t.bad = append(t.bad, fmt.Sprintf("%s is Degraded (%s)", ref, conditionMessage(mc, workv1.ManifestHealthy)))
		}
	}
	return t
}

// progressing is the work's Progressing condition, of total manifests.
func (t rolloutTally) progressing(generation int64, total int) metav1.Condition {
	c := metav1.Condition{Type: workv1.WorkProgressing, ObservedGeneration: generation}
	if len(t.waiting) == 0 {
		c.Status, c.Reason = metav1.ConditionFalse, workv1.WorkProgressingReasonCompleted
		c.Message = fmt.Sprintf("All %d manifests are rolled out", total)
		if len(t.unread) > 0 {
			c.Message = listed(c.Message+fmt.Sprintf(
				"; %d ReadOnly manifests are not waited for, as the agent cannot read their objects (see Available)", len(t.unread)), t.unread)
		}
	} else {
		c.Status, c.Reason = metav1.ConditionTrue, workv1.WorkProgressingReasonRollingOut
		if t.applying {
			c.Reason = workv1.WorkProgressingReasonApplying
		}
		c.Message = listed(fmt.Sprintf("%d of %d manifests are not rolled out yet", len(t.waiting), total), t.waiting)
	}
	c.Message = workv1.Shorten(c.Message, workv1.MaxConditionMessageLength, "")
	return c
}

// degraded is the work's Degraded condition, of total manifests.
func (t rolloutTally) degraded(generation int64, total int) metav1.Condition {
	c := metav1.Condition{Type: workv1.WorkDegraded, ObservedGeneration: generation}
	switch {
	case len(t.bad) == 0:
		c.Status, c.Reason = metav1.ConditionFalse, workv1.WorkDegradedReasonAsExpected
		c.Message = "No manifest is degraded or keeps failing to apply"
		return c
	case t.healthDegraded:
		c.Status, c.Reason = metav1.ConditionTrue, workv1.WorkDegradedReasonManifestsDegraded
	default:
		c.Status, c.Reason = metav1.ConditionTrue, workv1.WorkDegradedReasonApplyStalled
	}
	c.Message = workv1.Shorten(listed(fmt.Sprintf("%d of %d manifests are degraded", len(t.bad), total), t.bad), workv1.MaxConditionMessageLength, "")
	return c
}

// manifestRollout classifies one manifest, with a few words saying why it
// has not rolled out.
func manifestRollout(mc *workv1.ManifestCondition, generation int64, now time.Time) (rolloutState, string) {
	applied := apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestApplied)
	switch {
	case applied == nil || applied.ObservedGeneration != generation:
		return notApplied, "is not applied yet"
	case applied.Status != metav1.ConditionTrue:
		if persisting, _ := stalled.Persists(applied.LastTransitionTime.Time, now); persisting {
			return stalling, "keeps failing to apply"
		}
		return notApplied, "fails to apply, retrying"
	}
	healthy := apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestHealthy)
	switch {
	case healthy == nil || healthy.ObservedGeneration != generation:
		return rollingOut, "is not judged yet"
	case healthy.Status == metav1.ConditionTrue:
		return rolledOut, ""
	}
	state := State(*healthy)
	if state == workv1.HealthyReasonDegraded {
		return healthBad, "is Degraded"
	}
	return rollingOut, "is " + state
}

// unreadableReadOnly tells whether a manifest is ReadOnly and its object
// could not be read for this generation (Available Unknown,
// FetchingResourceFailed).
func unreadableReadOnly(work *workv1.ManifestWork, mc *workv1.ManifestCondition, generation int64) bool {
	available := apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestAvailable)
	return available != nil && available.Status == metav1.ConditionUnknown && available.ObservedGeneration == generation &&
		available.Reason == workv1.ManifestAvailableReasonFetchFailed && manifest.ReadOnly(work, mc.ResourceMeta)
}

// listed is head followed by the first maxNamed items, and how many more.
func listed(head string, items []string) string {
	named := items[:min(len(items), maxNamed)]
	msg := head + ": " + strings.Join(named, "; ")
	if more := len(items) - len(named); more > 0 {
		msg += fmt.Sprintf("; and %d more", more)
	}
	return msg
}

func conditionMessage(mc *workv1.ManifestCondition, conditionType string) string {
	if c := apimeta.FindStatusCondition(mc.Conditions, conditionType); c != nil {
		return c.Message
	}
	return ""
}
