package availability

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/status/feedback"
	"github.com/manifestwork/work/pkg/agent/status/health"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// outcome tells sync how to follow a reconcile up.
type outcome int

const (
	// finished: nothing to follow up (the agent released the work, or
	// another controller writes its availability).
	finished outcome = iota
	// settled: every resource is available, or none is applied yet; only the
	// safety net checks again.
	settled
	// unsettled: a resource is missing or its state is unknown; the work is
	// checked again soon.
	unsettled
)

// reconcile checks every manifest the work's status lists and patches the
// Available and Healthy conditions when they changed. A work being deleted
// is still assessed, its objects going one by one, until the agent releases
// it; works with feedback or condition rules belong to the status feedback
// controller, which writes this part of their status with its own.
func (c *Controller) reconcile(ctx context.Context, work *workv1.ManifestWork) (outcome, error) {
	if workwriter.Released(work) {
		c.Assessor.Forget(cache.MetaObjectToName(work).String())
		return finished, nil
	}
	if feedback.WorkHasRules(work) {
		return finished, nil
	}
	status := *work.Status.DeepCopy()
	pending := c.Assessor.Assess(ctx, work, &status)
	if err := c.patchStatus(ctx, work, status); err != nil {
		return finished, err
	}
	c.Assessor.Written(work, status)
	if pending {
		return unsettled, nil
	}
	return settled, nil
}

// checkManifests returns the Available condition of each manifest of the
// work's status, in the same order. justApplied tells, per manifest, that
// its object was just applied and the watch cache has not seen it yet.
func (a *Assessor) checkManifests(ctx context.Context, work *workv1.ManifestWork) (conditions []metav1.Condition, justApplied []bool) {
	manifests := work.Status.ResourceStatus.Manifests
	conditions = make([]metav1.Condition, len(manifests))
	justApplied = make([]bool, len(manifests))
	for i := range manifests {
		if cond, ok := a.justApplied(&manifests[i]); ok {
			conditions[i], justApplied[i] = cond, true
			continue
		}
		conditions[i] = a.checkManifest(ctx, &manifests[i], work.Generation)
	}
	return conditions, justApplied
}

// justAppliedGrace is how long after the apply reported an object Available
// its absence from the watch cache is taken for the watch being a moment
// behind, rather than read from the API.
const justAppliedGrace = 5 * time.Second

// justApplied keeps, without a request, the Available condition the apply
// has just written for an object that the watch cache has not seen yet;
// the work is looked at again soon, when the cache will have caught up. An
// object the cache saw deleted since is not "not seen yet".
func (a *Assessor) justApplied(mc *workv1.ManifestCondition) (metav1.Condition, bool) {
	current := apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestAvailable)
	if current == nil || current.Status != metav1.ConditionTrue || a.now().Sub(current.LastTransitionTime.Time) > justAppliedGrace {
		return metav1.Condition{}, false
	}
	meta := mc.ResourceMeta
	gvr := schema.GroupVersionResource{Group: meta.Group, Version: meta.Version, Resource: meta.Resource}
	obj, synced, err := a.Objects.Get(gvr, meta.Namespace, meta.Name)
	if err != nil || !synced || obj != nil || a.Objects.DeletedSince(gvr, meta.Namespace, meta.Name, current.LastTransitionTime.Time) {
		return metav1.Condition{}, false
	}
	return *current, true
}

// checkManifest decides whether one manifest's object exists.
func (a *Assessor) checkManifest(ctx context.Context, mc *workv1.ManifestCondition, generation int64) metav1.Condition {
	meta := mc.ResourceMeta
	cond := metav1.Condition{Type: workv1.ManifestAvailable, ObservedGeneration: generation}
	if incomplete(meta) {
		cond.Status = metav1.ConditionUnknown
		cond.Reason = workv1.ManifestAvailableReasonIncompleteResource
		cond.Message = workv1.ManifestAvailableMessageIncompleteMeta
		return cond
	}
	gvr := schema.GroupVersionResource{Group: meta.Group, Version: meta.Version, Resource: meta.Resource}
	// An object not yet known as missing was usually applied a moment ago (the
	// apply reports it Available at once); the cache may not have caught up
	// yet, so its absence is confirmed before it is reported.
	current := apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestAvailable)
	confirmAbsence := current == nil || current.Status != metav1.ConditionFalse
	found, err := a.exists(ctx, gvr, meta.Namespace, meta.Name, confirmAbsence)
	switch {
	case err != nil:
		klog.FromContext(ctx).V(2).Info("Cannot read applied object", "resource", gvr.String(),
			"object", klog.KRef(meta.Namespace, meta.Name), "err", err)
		cond.Status = metav1.ConditionUnknown
		cond.Reason = workv1.ManifestAvailableReasonFetchFailed
		cond.Message = workv1.Shorten(workv1.ManifestAvailableMessageFetchFailed+err.Error(), workv1.MaxConditionMessageLength, "")
	case found:
		return health.ManifestAvailable(generation)
	default:
		cond.Status = metav1.ConditionFalse
		cond.Reason = workv1.ManifestAvailableReasonNotAvailable
		cond.Message = workv1.ManifestAvailableMessageNotAvailable
	}
	return cond
}

// incomplete tells whether the resourceMeta lacks a field needed to find
// the object; the manifest's Applied condition says why.
func incomplete(meta workv1.ManifestResourceMeta) bool {
	return meta.Resource == "" || meta.Version == "" || meta.Name == ""
}

// exists answers from the cache when it can; otherwise, or when confirm is
// set and the cache says the object is absent, it asks the API server.
func (a *Assessor) exists(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, confirm bool) (bool, error) {
	obj, synced, err := a.Objects.Get(gvr, namespace, name)
	if err != nil {
		return false, err
	}
	if synced && (obj != nil || !confirm) {
		return obj != nil, nil
	}
	_, err = a.Metadata.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

// setStatus sets in status the given manifest Available and Healthy
// conditions (a nil Healthy keeps the manifest's) and their aggregates,
// the work's Progressing and Degraded among them;
// everything else is kept as it is. The work's Healthy waits until every
// manifest has one. An available manifest without feedback rules gets
// OCM's StatusFeedbackSynced condition that says so.
func setStatus(work *workv1.ManifestWork, status *workv1.ManifestWorkStatus, conditions []metav1.Condition, healthy []*metav1.Condition, now time.Time) {
	for i := range status.ResourceStatus.Manifests {
		apimeta.SetStatusCondition(&status.ResourceStatus.Manifests[i].Conditions, conditions[i])
		if conditions[i].Status == metav1.ConditionTrue {
			feedback.SetNoRules(work, &status.ResourceStatus.Manifests[i])
		}
		if healthy != nil && healthy[i] != nil {
			apimeta.SetStatusCondition(&status.ResourceStatus.Manifests[i].Conditions, *healthy[i])
		}
	}
	apimeta.SetStatusCondition(&status.Conditions, health.WorkAvailable(conditions, work.Generation))
	health.SetWorkConditions(work, status, now)
}

// patchStatus writes the status when it changed. The patch carries the
// resourceVersion it was computed from: if another writer (the apply) changed
// the status meanwhile, it fails with a conflict instead of undoing that
// change.
func (c *Controller) patchStatus(ctx context.Context, work *workv1.ManifestWork, status workv1.ManifestWorkStatus) error {
	updated, err := c.writer.Status(ctx, work, status)
	if err != nil || updated == nil {
		return err
	}
	klog.FromContext(ctx).V(2).Info("Updated availability",
		"available", string(workAvailableStatus(status)), "resourceVersion", work.ResourceVersion)
	return nil
}

func workAvailableStatus(status workv1.ManifestWorkStatus) metav1.ConditionStatus {
	if cond := apimeta.FindStatusCondition(status.Conditions, workv1.WorkAvailable); cond != nil {
		return cond.Status
	}
	return ""
}

// applyBehind tells whether the apply has not yet reported on the work's
// current generation.
func applyBehind(work *workv1.ManifestWork) bool {
	applied := apimeta.FindStatusCondition(work.Status.Conditions, workv1.WorkApplied)
	return applied != nil && applied.ObservedGeneration != work.Generation
}
