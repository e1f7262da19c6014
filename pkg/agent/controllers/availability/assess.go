package availability

import (
	"context"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// AssessorDeps are what an Assessor reads the applied objects from, and
// where it records the health Events.
type AssessorDeps struct {
	Objects  ObjectCache          // applied objects, cached
	Metadata metadata.Interface   // applied objects, when the cache cannot answer
	Dynamic  dynamic.Interface    // applied objects' status, when the cache cannot answer
	Events   record.EventRecorder // Events on the ManifestWork when a manifest turns Degraded or recovers; may be nil
}

// Assessor computes the availability part of a work's status: the
// Available and Healthy conditions of its manifests and of the work, and
// the StatusFeedbackSynced of the manifests without feedback rules. The
// availability controller writes it for the works without feedback or
// condition rules; the status feedback controller writes it, with its own
// part in the same patch, for the works with rules (feedback.WorkHasRules).
// One Assessor is shared by both, so that the health Events and gauge of a
// work, and the backoff of its rechecks, are kept once whichever writes it.
type Assessor struct {
	AssessorDeps
	now      func() time.Time
	health   *healthReport                      // Events and the gauge of manifests by health
	rechecks workqueue.TypedRateLimiter[string] // per-work backoff of the rechecks
}

// NewAssessor returns the assessment the availability and status feedback
// controllers share.
func NewAssessor(d AssessorDeps) *Assessor {
	return &Assessor{
		AssessorDeps: d,
		now:          time.Now,
		health:       newHealthReport(d.Events, time.Now),
		rechecks:     newRechecks(),
	}
}

// Assess sets the availability part of the work's status in status, which
// starts as a copy of it (and may hold the other writer's part already: a
// Healthy set by a condition rule is aggregated into the work's). It leaves
// status as it is while nothing is applied yet, or not this generation of
// the spec: the apply's status write requeues the work. unsettled tells
// that a resource is missing, unknown or just applied: the work is to be
// assessed again soon (see Recheck).
func (a *Assessor) Assess(ctx context.Context, work *workv1.ManifestWork, status *workv1.ManifestWorkStatus) (unsettled bool) {
	if len(work.Status.ResourceStatus.Manifests) == 0 || applyBehind(work) {
		return false
	}
	conditions, justApplied := a.checkManifests(ctx, work)
	healthy := make([]*metav1.Condition, len(conditions))
	for i := range conditions {
		healthy[i] = a.judgeManifest(ctx, work, &work.Status.ResourceStatus.Manifests[i], conditions[i], justApplied[i])
	}
	setStatus(work, status, conditions, healthy, a.now())
	return slices.Contains(justApplied, true) || slices.ContainsFunc(conditions, func(c metav1.Condition) bool {
		return c.Status != metav1.ConditionTrue
	})
}

// Written reports a status once the hub holds it (or held it already): the
// health Events of the manifests that turned Degraded or recovered, and the
// gauge of manifests by health.
func (a *Assessor) Written(work *workv1.ManifestWork, status workv1.ManifestWorkStatus) {
	a.health.recordTransitions(work, status)
	a.health.count(cache.MetaObjectToName(work).String(), status)
}

// Recheck returns when the work of key is to be assessed again: soon, with
// a backoff, while it is unsettled; otherwise only by the safety net.
func (a *Assessor) Recheck(key string, unsettled bool) time.Duration {
	if unsettled {
		return a.rechecks.When(key)
	}
	a.rechecks.Forget(key)
	return wait.Jitter(resyncInterval, jitterFactor)
}

// Forget drops what the assessor holds of a work that is gone or being
// deleted.
func (a *Assessor) Forget(key string) {
	a.rechecks.Forget(key)
	a.health.forget(key)
}
