package finalize

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/queuekeys"
	"github.com/manifestwork/work/pkg/agent/status/stalled"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	workinformers "github.com/manifestwork/work/pkg/client/informers/externalversions/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
	"github.com/manifestwork/work/pkg/metrics"
)

// AppliedControllerName names the AppliedManifestWork finalize controller in
// logs, events and its queue.
const AppliedControllerName = "AppliedManifestWorkFinalizeController"

// AppliedDeps are the AppliedManifestWork finalize controller's collaborators.
type AppliedDeps struct {
	appliedwork.Agent // the cluster, hub and agent ID the records name

	Writes       workwriter.Shared // the writes of ManifestWorks on the hub, for their Deleting condition
	Works        workinformers.ManifestWorkInformer
	SpokeClient  workclient.Interface // AppliedManifestWorks on the managed cluster
	AppliedWorks workinformers.AppliedManifestWorkInformer
	Metadata     metadata.Interface      // applied objects on the managed cluster
	Objects      appliedwork.ObjectCache // watch cache of applied objects
	Recorder     events.Recorder         // library-go's, for the controller factory
	Events       record.EventRecorder    // Kubernetes Events on the works, on the hub
	// SyncContext, when set, is the controller's queue; share it with the
	// object cache's change callback (the wiring adds AppliedManifestWork names to it). Nil makes a new one.
	SyncContext factory.SyncContext
}

// AppliedController finalizes deleted AppliedManifestWorks.
type AppliedController struct {
	AppliedDeps
	works   worklisters.ManifestWorkNamespaceLister
	applied worklisters.AppliedManifestWorkLister
	cleaner *appliedwork.Cleaner
	writer  *workwriter.Writer // of the work's Deleting condition
	logger  klog.Logger        // for the queue key functions, which have no context
	// failures is since when the cleanup of each AppliedManifestWork fails.
	failures stalled.Failures
	now      func() time.Time
}

// NewAppliedController returns the AppliedManifestWork finalize controller,
// ready to Run.
func NewAppliedController(d AppliedDeps) factory.Controller {
	if d.SyncContext == nil {
		d.SyncContext = factory.NewSyncContext(AppliedControllerName, d.Recorder)
	}
	c := newAppliedController(d)
	return factory.New().
		WithSyncContext(d.SyncContext).
		WithInformersQueueKeysFunc(c.appliedKey, d.AppliedWorks.Informer()).
		// A work's events bring its record: a change of its deleteOption.
		WithInformersQueueKeysFunc(queuekeys.AppliedOfWork(c.logger, d.Agent), d.Works.Informer()).
		WithSync(metrics.InstrumentSync(AppliedControllerName, c.sync)).
		ToController(AppliedControllerName, d.Recorder)
}

func newAppliedController(d AppliedDeps) *AppliedController {
	return &AppliedController{
		AppliedDeps: d,
		works:       d.Works.Lister().ManifestWorks(d.ClusterName),
		applied:     d.AppliedWorks.Lister(),
		cleaner:     &appliedwork.Cleaner{Client: d.Metadata, Objects: d.Objects},
		writer:      workwriter.New(d.Writes, AppliedControllerName, workwriter.Plain),
		logger:      klog.Background().WithName(AppliedControllerName),
		now:         time.Now,
	}
}

// sync looks the AppliedManifestWork up and reconciles it.
func (c *AppliedController) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	name := syncCtx.QueueKey()
	applied, err := c.applied.Get(name)
	if apierrors.IsNotFound(err) {
		c.failures.Succeeded(name)
		return nil
	}
	if err != nil {
		return err
	}
	ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithValues("appliedManifestWork", klog.KObj(applied),
		"manifestWork", klog.KRef(c.ClusterName, workName(applied))))
	after, err := c.reconcile(ctx, applied)
	return requeue(ctx, syncCtx, after, err)
}

// appliedState is what one reconcile of a deleted AppliedManifestWork builds up.
type appliedState struct {
	applied *workv1.AppliedManifestWork
	work    *workv1.ManifestWork // nil when gone from the hub
	// adopter is, for this agent's record of another hub, the work of the
	// same name on the current hub, which took its objects over; nil if none.
	adopter *workv1.ManifestWork
	// pending names the objects still being deleted; requested tells whether
	// this pass asked for any of those deletions.
	pending   []string
	requested bool
	// failed are the other cleanup steps that failed: retried with backoff,
	// and named in the Deleting condition once they have failed for a while.
	failed []error
}

// reconcile finalizes a deleted AppliedManifestWork of this hub. It returns
// how soon to look again while deleted objects are still there.
func (c *AppliedController) reconcile(ctx context.Context, applied *workv1.AppliedManifestWork) (time.Duration, error) {
	if applied.DeletionTimestamp == nil || !slices.Contains(applied.Finalizers, workv1.AppliedManifestWorkFinalizer) {
		return 0, nil
	}
	if !c.ours(applied) {
		return 0, nil // another agent finalizes it
	}
	work, err := c.workOf(applied)
	if err != nil {
		return 0, err
	}
	adopter, err := c.adopterOf(applied)
	if err != nil {
		return 0, err
	}
	st := &appliedState{applied: applied, work: work, adopter: adopter}
	for _, step := range []func(context.Context, *appliedState) error{
		c.cleanResources,
		c.removeFinalizer,
		c.reportWaiting,
	} {
		if err := step(ctx, st); err != nil {
			return 0, err
		}
	}
	if len(st.failed) > 0 {
		return 0, errors.Join(st.failed...)
	}
	if len(st.pending) > 0 {
		if st.requested {
			return jittered(settleInterval), nil
		}
		return jittered(pollInterval), nil
	}
	return 0, nil
}

// ours tells whether this agent finalizes an AppliedManifestWork (see
// appliedwork.Responsible). A record of the same hub with another agent ID
// and a work elsewhere is another agent's on this cluster: that agent knows
// its work's deleteOption, which this one cannot see. Objects an old
// record of another hub shares with the current hub's record only lose its
// owner reference, which is how a hub switch adopts them instead of
// deleting them; so do those that the current hub's work of the same name
// applies and orphans (orphanedByAdopter).
func (c *AppliedController) ours(applied *workv1.AppliedManifestWork) bool {
	return c.Responsible(applied, func(name string) bool {
		_, err := c.works.Get(name)
		return err == nil
	})
}

// workOf is the ManifestWork of an AppliedManifestWork, or nil when it is
// gone from the hub or the record belongs to another hub.
func (c *AppliedController) workOf(applied *workv1.AppliedManifestWork) (*workv1.ManifestWork, error) {
	if _, sameHub := c.WorkName(applied.Name); !sameHub {
		return nil, nil
	}
	work, err := c.works.Get(workName(applied))
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return work, nil
}

// adopterOf is, for a record of another hub, the work of the same name on
// the current hub, or nil when there is none (or the record is this hub's).
func (c *AppliedController) adopterOf(applied *workv1.AppliedManifestWork) (*workv1.ManifestWork, error) {
	if _, sameHub := c.WorkName(applied.Name); sameHub {
		return nil, nil
	}
	work, err := c.works.Get(workName(applied))
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return work, err
}

// workName is the name of the ManifestWork an AppliedManifestWork records.
func workName(applied *workv1.AppliedManifestWork) string {
	if applied.Spec.ManifestWorkName != "" {
		return applied.Spec.ManifestWorkName
	}
	name, _ := appliedwork.WorkName(applied.Spec.HubHash, applied.Name)
	return name
}

// cleanResources deletes or orphans every applied resource as the work's
// deleteOption says, and records which deleted objects are still there.
// Orphaned objects lose our owner reference here, before the finalizer goes:
// once the AppliedManifestWork is gone, the garbage collector deletes every
// object still owned only by it. The agent deletes as itself, whatever the
// work's executor may do now (see appliedwork.Cleaner.Clean).
func (c *AppliedController) cleanResources(ctx context.Context, st *appliedState) error {
	option := deleteOptionOf(st.work)
	for _, r := range c.resources(st) {
		action := actionFor(option, r)
		if orphanedByAdopter(st.adopter, r) {
			action = appliedwork.Orphan
		}
		outcome, err := c.cleaner.Clean(ctx, st.applied.UID, r, action)
		if err != nil {
			st.pending = append(st.pending, appliedwork.Describe(r))
			st.failed = append(st.failed, err) // it names the object
			continue
		}
		switch outcome {
		case appliedwork.Deleting:
			st.requested = true
			st.pending = append(st.pending, appliedwork.Describe(r))
		case appliedwork.Terminating:
			st.pending = append(st.pending, appliedwork.Describe(r))
		}
	}
	return nil
}

// resources are the recorded applied resources and, while the work is
// still there, the ones its status says were applied but that were not
// recorded yet (a work deleted right after it was applied). Those have no
// recorded UID: only our owner reference marks them as ours.
func (c *AppliedController) resources(st *appliedState) []workv1.AppliedManifestResourceMeta {
	out := slices.Clone(st.applied.Status.AppliedResources)
	if st.work == nil {
		return out
	}
	recorded := map[workv1.ResourceIdentifier]bool{}
	for _, r := range out {
		recorded[r.ResourceIdentifier] = true
	}
	for _, m := range st.work.Status.ResourceStatus.Manifests {
		meta := m.ResourceMeta
		if meta.Resource == "" || meta.Version == "" || meta.Name == "" ||
			!apimeta.IsStatusConditionTrue(m.Conditions, workv1.ManifestApplied) {
			continue
		}
		id := workv1.ResourceIdentifier{Group: meta.Group, Resource: meta.Resource, Namespace: meta.Namespace, Name: meta.Name}
		if recorded[id] || manifest.ReadOnly(st.work, meta) {
			continue
		}
		recorded[id] = true
		out = append(out, workv1.AppliedManifestResourceMeta{ResourceIdentifier: id, Version: meta.Version})
	}
	return out
}

// deleteOptionOf is the work's deleteOption; a work that is gone, or that
// sets none, is deleted in the foreground.
func deleteOptionOf(work *workv1.ManifestWork) workv1.DeleteOption {
	if work == nil || work.Spec.DeleteOption == nil {
		return workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeForeground}
	}
	return *work.Spec.DeleteOption
}

// actionFor is what deleteOption says to do with one resource: the same
// decision as at apply (manifest.Orphaned), which already kept our owner
// reference off an orphaned object; releasing it here covers one applied
// before the work came to orphan it.
func actionFor(option workv1.DeleteOption, r workv1.AppliedManifestResourceMeta) appliedwork.Action {
	if manifest.Orphaned(&option, r.ResourceIdentifier) {
		return appliedwork.Orphan
	}
	return appliedwork.Delete
}

// orphanedByAdopter tells whether the work that took over the objects of a
// record of another hub applies r and orphans it. That work never put its
// own owner reference on r, so deleting the old record in the foreground
// would delete an object the work applies and orphans; it only loses the
// old record's reference instead, as the work's own reference would have
// had it.
func orphanedByAdopter(adopter *workv1.ManifestWork, r workv1.AppliedManifestResourceMeta) bool {
	if adopter == nil || !manifest.Orphaned(adopter.Spec.DeleteOption, r.ResourceIdentifier) {
		return false
	}
	return slices.ContainsFunc(adopter.Status.ResourceStatus.Manifests, func(m workv1.ManifestCondition) bool {
		meta := m.ResourceMeta
		return meta.Group == r.Group && meta.Resource == r.Resource && meta.Namespace == r.Namespace && meta.Name == r.Name &&
			apimeta.IsStatusConditionTrue(m.Conditions, workv1.ManifestApplied)
	})
}

// reportWaiting names, in the Deleting condition of the work being deleted,
// the objects its deletion waits for, and what keeps it from going on:
// failures that have lasted (see package stalled). A work that is not being deleted (its
// AppliedManifestWork was deleted on its own) is left alone.
func (c *AppliedController) reportWaiting(ctx context.Context, st *appliedState) error {
	if st.work == nil || st.work.DeletionTimestamp == nil {
		return nil
	}
	persisting := false
	if len(st.failed) == 0 {
		c.failures.Succeeded(st.applied.Name)
	} else {
		persisting = c.failures.Failed(st.applied.Name, c.now()).Persisting
	}
	if len(st.pending) == 0 && !persisting {
		return nil
	}
	klog.FromContext(ctx).V(2).Info("Waiting for applied objects to be deleted", "objects", st.pending)
	message := fmt.Sprintf("waiting for AppliedManifestWork %s to be finalized", st.applied.Name)
	if len(st.pending) > 0 {
		message = waitingMessage(st.pending)
	}
	if persisting {
		message += firstOf(st.failed, "failures")
	}
	updated, written, err := setDeleting(ctx, c.writer, st.work, deletingCondition(st.work, message))
	if err != nil {
		return err
	}
	if written {
		c.Events.Event(updated, corev1.EventTypeNormal, EventWaitingForResources, message)
	}
	st.work = updated
	return nil
}

// firstOf is "; " and the first error, with how many more there are; ""
// without errors.
func firstOf(errs []error, more string) string {
	if len(errs) == 0 {
		return ""
	}
	s := "; " + errs[0].Error()
	if n := len(errs) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more %s)", n, more)
	}
	return s
}

// removeFinalizer lets the AppliedManifestWork go once no applied object is
// left to wait for. A failure is one of the pass's failures: retried, and
// named once it lasts.
func (c *AppliedController) removeFinalizer(ctx context.Context, st *appliedState) error {
	if len(st.pending) > 0 { // also every object that failed
		return nil
	}
	patch, err := withoutFinalizer(st.applied.Finalizers, st.applied.ResourceVersion, workv1.AppliedManifestWorkFinalizer)
	if err != nil {
		return err
	}
	_, err = c.SpokeClient.WorkV1().AppliedManifestWorks().Patch(ctx, st.applied.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		st.failed = append(st.failed, fmt.Errorf("cannot remove the finalizer of AppliedManifestWork %s: %w", st.applied.Name, err))
		return nil
	}
	klog.FromContext(ctx).Info("Applied resources cleaned up; removed the AppliedManifestWork finalizer",
		"deleteOption", string(deleteOptionOf(st.work).PropagationPolicy))
	return nil
}

// appliedKey is the key of an AppliedManifestWork this agent finalizes: its name.
func (c *AppliedController) appliedKey(obj runtime.Object) []string {
	applied, ok := obj.(*workv1.AppliedManifestWork)
	if !ok {
		c.logger.Error(nil, "Ignoring an event of an unexpected type", "type", fmt.Sprintf("%T", obj))
		return nil
	}
	if !c.ours(applied) {
		return nil
	}
	return []string{applied.Name}
}
