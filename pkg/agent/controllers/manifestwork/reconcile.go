package manifestwork

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/appliedname"
	"github.com/manifestwork/work/pkg/agent/objectdiff"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// state is what one reconcile builds up before its single status patch.
type state struct {
	work    *workv1.ManifestWork        // the latest copy, after our own metadata writes
	applied *workv1.AppliedManifestWork // owner of everything applied
	results []manifestResult            // by ordinal
}

// manifestResult is the outcome of one manifest.
type manifestResult struct {
	meta   workv1.ManifestResourceMeta
	err    error // nil when applied
	exists bool  // the object is known to exist: applied now, or as last applied
	// differences is where the live object differs from the manifest, nil
	// when it was not compared in this pass.
	differences *objectdiff.Report
}

// reconcile runs the steps of one pass over a work and patches its status
// once. While any manifest fails it returns an error, so the queue retries the
// work with backoff; the other manifests are applied all the same.
func (c *Controller) reconcile(ctx context.Context, work *workv1.ManifestWork) error {
	if work.DeletionTimestamp != nil {
		return nil // the finalize controller owns deleted works
	}
	st := &state{work: work}
	for _, step := range []func(context.Context, *state) error{
		c.ensureFinalizer,
		c.ensureAppliedWork,
		c.applyManifests,
	} {
		if err := step(ctx, st); err != nil {
			return err
		}
	}
	status := buildStatus(st.work, st.results)
	updated, err := c.writer.Status(ctx, st.work, status)
	if err != nil {
		return err
	}
	if updated != nil {
		recordTransitions(c.Events, st.work, status)
		st.work = updated
	}
	return st.failures()
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
// and owns, what the work applies.
func (c *Controller) ensureAppliedWork(ctx context.Context, st *state) error {
	name := appliedname.Name(c.HubHash, st.work.Name)
	applied, err := c.applied.Get(name)
	if apierrors.IsNotFound(err) {
		applied, err = c.createAppliedWork(ctx, name, st.work.Name)
	}
	if err != nil {
		return err
	}
	if applied.DeletionTimestamp != nil {
		return fmt.Errorf("AppliedManifestWork %s is being deleted; waiting before applying again", name)
	}
	st.applied = applied
	return nil
}

func (c *Controller) createAppliedWork(ctx context.Context, name, workName string) (*workv1.AppliedManifestWork, error) {
	applied := &workv1.AppliedManifestWork{
		ObjectMeta: metav1.ObjectMeta{Name: name, Finalizers: []string{workv1.AppliedManifestWorkFinalizer}},
		Spec:       workv1.AppliedManifestWorkSpec{HubHash: c.HubHash, AgentID: c.AgentID, ManifestWorkName: workName},
	}
	client := c.SpokeClient.WorkV1().AppliedManifestWorks()
	created, err := client.Create(ctx, applied, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return client.Get(ctx, name, metav1.GetOptions{}) // our cache is behind
	}
	if err != nil {
		return nil, fmt.Errorf("creating AppliedManifestWork %s: %w", name, err)
	}
	return created, nil
}

// manifestFailures is the error of a reconcile in which some manifests
// failed; the rest of the work was applied and reported.
type manifestFailures struct{ error }

func (e *manifestFailures) Unwrap() error { return e.error }

// failures is nil when every manifest was applied.
func (st *state) failures() error {
	var errs []error
	for _, r := range st.results {
		if r.err != nil {
			errs = append(errs, fmt.Errorf("manifest %d: %w", r.meta.Ordinal, r.err))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return &manifestFailures{errors.Join(errs...)}
}
