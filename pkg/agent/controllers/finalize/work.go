// Package finalize cleans up after deleted works.
//
// Two controllers share the job, one per finalizer:
//   - the work controller sees a ManifestWork being deleted: it sets the
//     work's Deleting condition, deletes the work's AppliedManifestWork, waits
//     until that is gone, and then removes the ManifestWork finalizer;
//   - the applied controller sees an AppliedManifestWork being deleted: it
//     deletes or releases every applied resource as the work's deleteOption
//     says, waits until the deleted ones are really gone (naming them in the
//     work's Deleting condition meanwhile), and then removes the
//     AppliedManifestWork finalizer.
//
// So a work stays on the hub until everything it applied is gone from the
// managed cluster, and an object stuck terminating holds both finalizers.
package finalize

import (
	"context"
	"encoding/json"
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
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
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
	"github.com/manifestwork/work/pkg/metrics"
)

// ControllerName names the ManifestWork finalize controller in logs, events
// and its queue.
const ControllerName = "ManifestWorkFinalizeController"

// WorkDeps are the ManifestWork finalize controller's collaborators.
type WorkDeps struct {
	appliedwork.Agent // the cluster, hub and agent ID the records name

	Writes       workwriter.Shared // the writes of ManifestWorks on the hub
	Works        workinformers.ManifestWorkInformer
	SpokeClient  workclient.Interface // AppliedManifestWorks on the managed cluster
	AppliedWorks workinformers.AppliedManifestWorkInformer
	Recorder     events.Recorder      // library-go's, for the controller factory
	Events       record.EventRecorder // Kubernetes Events on the works, on the hub
	// SyncContext, when set, is the controller's queue (the wiring retries
	// its failed keys when a cluster answers again). Nil makes a new one.
	SyncContext factory.SyncContext
}

// WorkController finalizes deleted ManifestWorks.
type WorkController struct {
	WorkDeps
	works   worklisters.ManifestWorkNamespaceLister
	applied worklisters.AppliedManifestWorkLister
	logger  klog.Logger // for the queue key functions, which have no context
	// writer is guarded: once the finalizer is removed, the cached copy that
	// still carries it is nothing to act on.
	writer *workwriter.Writer
	// failures is since when the deletion of each work's
	// AppliedManifestWork fails.
	failures stalled.Failures
	now      func() time.Time
}

// NewWorkController returns the ManifestWork finalize controller, ready to Run.
func NewWorkController(d WorkDeps) factory.Controller {
	if d.SyncContext == nil {
		d.SyncContext = factory.NewSyncContext(ControllerName, d.Recorder)
	}
	c := newWorkController(d)
	f := factory.New().WithSyncContext(d.SyncContext)
	return queuekeys.WorkEvents(f, c.logger, d.Agent, d.Works.Informer(), d.AppliedWorks.Informer()).
		WithSync(metrics.InstrumentSync(ControllerName, c.sync)).
		ToController(ControllerName, d.Recorder)
}

func newWorkController(d WorkDeps) *WorkController {
	return &WorkController{
		WorkDeps: d,
		works:    d.Works.Lister().ManifestWorks(d.ClusterName),
		applied:  d.AppliedWorks.Lister(),
		logger:   klog.Background().WithName(ControllerName),
		writer:   workwriter.New(d.Writes, ControllerName, workwriter.Guarded),
		now:      time.Now,
	}
}

// sync looks the work up and reconciles it; a work that is gone needs nothing.
func (c *WorkController) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	key := syncCtx.QueueKey()
	ref, err := cache.ParseObjectName(key)
	name := ref.Name
	if err != nil || ref.Namespace != c.ClusterName {
		return nil // not a key of ours; retrying cannot help
	}
	work, err := c.works.Get(name)
	if apierrors.IsNotFound(err) {
		c.writer.Forget(key)
		c.failures.Succeeded(key)
		return nil
	}
	if err != nil {
		return err
	}
	if c.writer.Outdated(work) {
		return nil // our own write replaced this copy; its event is on its way
	}
	ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithValues("manifestWork", klog.KObj(work)))
	after, err := c.reconcile(ctx, work)
	return requeue(ctx, syncCtx, after, err)
}

// workState is what one reconcile of a deleted work builds up.
type workState struct {
	work *workv1.ManifestWork // the latest copy, after our own writes
	wait time.Duration        // > 0 when the work must wait and be looked at again
}

// reconcile finalizes a deleted work. It returns how soon to look again
// while the work waits for its AppliedManifestWork to go.
func (c *WorkController) reconcile(ctx context.Context, work *workv1.ManifestWork) (time.Duration, error) {
	if work.DeletionTimestamp == nil || !slices.Contains(work.Finalizers, workv1.ManifestWorkFinalizer) {
		return 0, nil
	}
	st := &workState{work: work}
	for _, step := range []func(context.Context, *workState) error{
		c.markDeleting,
		c.deleteAppliedWork,
		c.removeFinalizer,
	} {
		if err := step(ctx, st); err != nil {
			return 0, err
		}
		if st.wait > 0 {
			return st.wait, nil
		}
	}
	return 0, nil
}

// markDeleting sets the Deleting condition when the work has none yet. Once
// it is set, the applied controller keeps its message naming what the
// deletion waits for, and this controller leaves it alone.
func (c *WorkController) markDeleting(ctx context.Context, st *workState) error {
	if apimeta.IsStatusConditionTrue(st.work.Status.Conditions, workv1.WorkDeleting) {
		return nil
	}
	msg := fmt.Sprintf("waiting for AppliedManifestWork %s to be deleted", c.AppliedName(st.work.Name))
	updated, written, err := setDeleting(ctx, c.writer, st.work, deletingCondition(st.work, msg))
	if err != nil {
		return err
	}
	if written {
		c.Events.Event(updated, corev1.EventTypeNormal, EventDeletionStarted, "Cleaning up on the managed cluster: "+msg)
	}
	st.work = updated
	return nil
}

// deleteAppliedWork deletes the work's AppliedManifestWork and waits until
// it is gone. A failure that lasts (see package stalled) is named in the
// work's Deleting condition: the deletion waits for it.
func (c *WorkController) deleteAppliedWork(ctx context.Context, st *workState) error {
	key := cache.MetaObjectToName(st.work).String()
	err := c.requestAppliedDeletion(ctx, st)
	if err == nil {
		c.failures.Succeeded(key)
		return nil
	}
	if apierrors.IsConflict(err) || !c.failures.Failed(key, c.now()).Persisting {
		return err // a conflict is retried at once
	}
	msg := fmt.Sprintf("waiting for AppliedManifestWork %s to be deleted; %v", c.AppliedName(st.work.Name), err)
	if _, _, werr := setDeleting(ctx, c.writer, st.work, deletingCondition(st.work, msg)); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}

// requestAppliedDeletion asks for the deletion of the work's
// AppliedManifestWork and has the work wait until it is gone. The cache may
// not have seen an AppliedManifestWork created a moment ago, so the API
// confirms that there is none before the work goes.
func (c *WorkController) requestAppliedDeletion(ctx context.Context, st *workState) error {
	name := c.AppliedName(st.work.Name)
	applied, err := c.applied.Get(name)
	if apierrors.IsNotFound(err) {
		// One written without the cluster label (by OCM's agent, or an agent
		// from before the label) is labelled, so that it reaches the applied
		// controller, which finalizes what its cache brings.
		applied, err = appliedwork.Get(ctx, c.SpokeClient, name, c.ClusterName)
	}
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read AppliedManifestWork %s: %w", name, err)
	}
	if applied.DeletionTimestamp != nil {
		klog.FromContext(ctx).V(4).Info("Waiting for the AppliedManifestWork to be finalized", "appliedManifestWork", name)
		st.wait = jittered(pollInterval)
		return nil
	}
	if err := c.ensureAppliedFinalizer(ctx, applied); err != nil {
		return err
	}
	// Background: the garbage collector must not touch the applied objects
	// while the applied controller decides, per deleteOption, what happens to
	// each of them (foreground would delete them all, orphan would strip the
	// owner references that the applied controller relies on).
	uid := applied.UID
	background := metav1.DeletePropagationBackground
	err = c.SpokeClient.WorkV1().AppliedManifestWorks().Delete(ctx, name, metav1.DeleteOptions{
		Preconditions:     &metav1.Preconditions{UID: &uid},
		PropagationPolicy: &background,
	})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot delete AppliedManifestWork %s: %w", name, err)
	}
	klog.FromContext(ctx).Info("Deleting the AppliedManifestWork of a deleted work", "appliedManifestWork", name)
	st.wait = jittered(pollInterval)
	return nil
}

// ensureAppliedFinalizer gives the AppliedManifestWork its finalizer if it
// lacks it (one written by hand or by an older agent). Without it the
// AppliedManifestWork would vanish at once and the garbage collector would
// delete everything it owns, also what the work says to orphan.
func (c *WorkController) ensureAppliedFinalizer(ctx context.Context, applied *workv1.AppliedManifestWork) error {
	if slices.Contains(applied.Finalizers, workv1.AppliedManifestWorkFinalizer) {
		return nil
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"finalizers":      append(slices.Clone(applied.Finalizers), workv1.AppliedManifestWorkFinalizer),
		"resourceVersion": applied.ResourceVersion,
	}})
	if err != nil {
		return err
	}
	_, err = c.SpokeClient.WorkV1().AppliedManifestWorks().Patch(ctx, applied.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		return fmt.Errorf("cannot add the finalizer to AppliedManifestWork %s: %w", applied.Name, err)
	}
	return nil
}

// removeFinalizer lets the work go.
func (c *WorkController) removeFinalizer(ctx context.Context, st *workState) error {
	_, err := c.writer.RemoveFinalizer(ctx, st.work)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	klog.FromContext(ctx).Info("Cleanup done; removed the ManifestWork finalizer")
	c.Events.Event(st.work, corev1.EventTypeNormal, EventResourcesCleanedUp,
		"The applied resources are cleaned up on the managed cluster; the work is released")
	return nil
}
