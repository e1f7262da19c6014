package manifestwork

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/apply/diff"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/status/stalled"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// state is what one reconcile builds up before its single status patch.
type state struct {
	work    *workv1.ManifestWork        // the latest copy, after our own metadata writes
	applied *workv1.AppliedManifestWork // owner of everything applied
	mem     *workMemory                 // what the controller remembers of the work
	results []manifestResult            // by ordinal
	// halted is why the pass applies nothing (the managed cluster does not
	// answer, the AppliedManifestWork is not there); nil when it applies.
	halted error
	// stall is the work's Stalled condition; nil removes it, except from a
	// halted pass, which knows nothing about the other causes.
	stall *metav1.Condition
	// later is a failure that is not reported yet and fails nothing else,
	// and within how soon it will be if it lasts: the work is looked at again
	// by then.
	later  error
	within time.Duration
	// now is when the pass began: how long a failure has lasted (of the
	// managed cluster, the AppliedManifestWork, a watch, a manifest's
	// apply) is measured to it, one clock for the whole pass.
	now time.Time
}

// manifestResult is the outcome of one manifest.
type manifestResult struct {
	meta workv1.ManifestResourceMeta
	// previous is the manifest's entry in the work's status before this
	// pass (carryOver), a copy that buildStatus updates; empty for a new
	// manifest.
	previous workv1.ManifestCondition
	err      error // nil when applied
	exists   bool  // the object is known to exist: applied now, or as last applied
	// missing says the strategy succeeded without an object: a ReadOnly
	// manifest whose object does not exist.
	missing bool
	// unread is why a ReadOnly manifest's object could not be read: it is
	// applied all the same (as in OCM), not compared, and its availability
	// says why (FetchingResourceFailed).
	unread error
	// differences is where the live object differs from the manifest, nil
	// when it was not compared in this pass.
	differences *diff.Report
	// use is the resource type, and namespace, watched for the manifest's
	// object; nil when it could not be prepared (its Applied says why).
	use *objectwatch.Use
	// notWatched is why the agent has not been able to watch objects of the
	// manifest's type for a while; nil while it watches them.
	notWatched error
	// contest is set while the agent does not revert the object, which
	// another writer keeps changing back.
	contest *contest
}

// reconcile runs the steps of one pass over a work and patches its status
// once. While any manifest fails it returns an error, so the queue retries the
// work with backoff; the other manifests are applied all the same. A failure
// that keeps the whole work from progressing halts the pass and, once it has
// lasted (see package stalled), sets the work's Stalled condition.
func (c *Controller) reconcile(ctx context.Context, work *workv1.ManifestWork) error {
	if work.DeletionTimestamp != nil {
		return nil // the finalize controller owns deleted works
	}
	st := &state{work: work, mem: c.mem.of(cache.MetaObjectToName(work)), now: c.now()}
	for _, step := range []func(context.Context, *state) error{
		c.ensureFinalizer,
		c.checkCluster,
		c.ensureAppliedWork,
		c.applyManifests,
		c.checkWatches,
	} {
		if err := step(ctx, st); err != nil {
			return err
		}
		if st.halted != nil {
			break
		}
	}
	status := st.status()
	updated, err := c.writer.Status(ctx, st.work, status)
	if err != nil {
		return err
	}
	if updated != nil {
		recordTransitions(c.Events, st.work, status)
		st.work = updated
	}
	return st.outcome()
}

// ensureFinalizer keeps the work on the hub until the agent has cleaned up.
func (c *Controller) ensureFinalizer(ctx context.Context, st *state) error {
	updated, err := c.writer.AddFinalizer(ctx, st.work)
	if err != nil {
		return err
	}
	if updated != nil {
		st.work = updated
	}
	return nil
}

// ensureAppliedWork finds or creates the AppliedManifestWork that records,
// and owns, what the work applies. Without it nothing can be applied: the
// pass halts, and the work is Stalled once that lasts.
func (c *Controller) ensureAppliedWork(ctx context.Context, st *state) error {
	applied, err := c.appliedWork(ctx, st.work)
	if err != nil {
		persisting, wait := stalled.Persists(st.mem.appliedUnavailable(st.now), st.now)
		st.halt(err, wait, appliedWorkStalled(err, persisting, st.work.Generation))
		return nil
	}
	st.mem.appliedAvailable()
	st.applied = applied
	// The labels are no reason to hold the apply back: a record that could
	// not take them gets them at the work's next reconcile.
	if labelled, err := appliedwork.FollowWork(ctx, c.SpokeClient, applied, st.work.Labels); err != nil {
		klog.FromContext(ctx).Info("Cannot label the AppliedManifestWork; trying again at the next reconcile", "err", err)
	} else {
		st.applied = labelled
	}
	return nil
}

// appliedWork is the work's AppliedManifestWork, created if need be.
func (c *Controller) appliedWork(ctx context.Context, work *workv1.ManifestWork) (*workv1.AppliedManifestWork, error) {
	name := c.AppliedName(work.Name)
	applied, err := c.applied.Get(name)
	if apierrors.IsNotFound(err) {
		applied, err = c.createAppliedWork(ctx, name, work)
	}
	if err != nil {
		return nil, err
	}
	if applied.DeletionTimestamp != nil {
		return nil, fmt.Errorf("AppliedManifestWork %s is being deleted; waiting until it is gone to apply the work again", name)
	}
	return applied, nil
}

// createAppliedWork creates the work's record, with the work's labels
// (appliedwork.FromWork) and the cluster's.
func (c *Controller) createAppliedWork(ctx context.Context, name string, work *workv1.ManifestWork) (*workv1.AppliedManifestWork, error) {
	labels := appliedwork.FromWork(work.Labels)
	labels[appliedwork.ClusterLabel] = c.ClusterName
	applied := &workv1.AppliedManifestWork{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Finalizers: []string{workv1.AppliedManifestWorkFinalizer}, Labels: labels,
		},
		Spec: workv1.AppliedManifestWorkSpec{HubHash: c.HubHash, AgentID: c.AgentID, ManifestWorkName: work.Name},
	}
	client := c.SpokeClient.WorkV1().AppliedManifestWorks()
	created, err := client.Create(ctx, applied, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		// Created a moment ago, and not in our cache yet; or written without
		// the cluster label (by OCM's agent, or a version of this agent from
		// before the label): the work's record all the same.
		return appliedwork.Get(ctx, c.SpokeClient, name, c.ClusterName)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot create AppliedManifestWork %s: %w", name, err)
	}
	return created, nil
}

// halt ends the pass with err; stall is the Stalled condition to report it
// with, nil while it is too young to be reported (it will be in wait).
func (st *state) halt(err error, wait time.Duration, stall *metav1.Condition) {
	st.halted, st.stall = err, stall
	if wait > 0 {
		st.within = wait
	}
}

// notYet notes a failure that will be reported in wait if it lasts.
func (st *state) notYet(err error, wait time.Duration) {
	if st.later == nil || wait < st.within {
		st.later, st.within = err, wait
	}
}

// status is the work's status after this pass: of every manifest, or, after
// a halt, the work's own with the Stalled condition the halt reports.
func (st *state) status() workv1.ManifestWorkStatus {
	if st.halted != nil {
		status := *st.work.Status.DeepCopy()
		if st.stall != nil {
			apimeta.SetStatusCondition(&status.Conditions, *st.stall)
		}
		return status
	}
	status := buildStatus(st.work, st.results, st.now)
	st.dueApplyStalls(status)
	if st.stall != nil {
		apimeta.SetStatusCondition(&status.Conditions, *st.stall)
	} else {
		apimeta.RemoveStatusCondition(&status.Conditions, stalled.ConditionType)
	}
	return status
}

// dueApplyStalls has the work looked at again, at the latest, when a
// manifest that fails to apply will have failed for stalled.Threshold: the
// work's Degraded condition says so from then on.
func (st *state) dueApplyStalls(status workv1.ManifestWorkStatus) {
	for _, mc := range status.ResourceStatus.Manifests {
		c := apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestApplied)
		if c == nil || c.Status != metav1.ConditionFalse {
			continue
		}
		persisting, wait := stalled.Persists(c.LastTransitionTime.Time, st.now)
		if !persisting && (st.within == 0 || wait < st.within) {
			st.within = wait
		}
	}
}

// retryLater is the error of a reconcile that the work's own backoff
// retries: some manifests failed (the rest of the work was applied and
// reported), the pass halted, or a failure is not reported yet. within,
// when not 0, is how soon at the latest: when that failure is due to be
// reported.
type retryLater struct {
	error
	within time.Duration
}

func (e *retryLater) Unwrap() error { return e.error }

// outcome is nil when every manifest was applied and nothing is to be
// reported later.
func (st *state) outcome() error {
	var errs []error
	if st.halted != nil {
		errs = append(errs, st.halted)
	}
	for _, r := range st.results {
		if r.err != nil {
			errs = append(errs, fmt.Errorf("manifest %d: %w", r.meta.Ordinal, r.err))
		}
		// A read the agent may not make is tried again when RBAC changes on
		// the managed cluster (the refused watch of its type restarts and
		// requeues the work); any other failure with the work's backoff.
		if r.unread != nil && !apierrors.IsForbidden(r.unread) {
			errs = append(errs, fmt.Errorf("manifest %d: cannot read the object: %w", r.meta.Ordinal, r.unread))
		}
	}
	if st.later != nil {
		errs = append(errs, st.later)
	}
	if len(errs) == 0 {
		return nil
	}
	return &retryLater{error: errors.Join(errs...), within: st.within}
}
