// Package workwriter is the agent's only way to change a ManifestWork on the
// hub: its status and the agent's finalizer. Every write
//   - of the status is trimmed to fit in the status size limit (see Fit),
//     the same way whichever controller writes, and then
//   - is skipped, without a request, when it would change nothing;
//   - is one merge patch carrying the resourceVersion it was computed from, so
//     that a concurrent writer makes it fail with a conflict instead of being
//     undone;
//   - is counted, for the controller that makes it, in
//     metrics.StatusPatches or metrics.FinalizerPatches;
//   - and, for a guarded writer, is remembered, so that the controller can
//     tell a lister copy that its own writes have replaced (see Outdated).
//
// A write that keeps failing (the hub refuses it: RBAC, an admission
// webhook, a conflict with another writer that never ends) cannot be
// reported in the status it fails to write. Once the writes of a work have
// failed for stalled.Threshold, the writer records one Warning Event on the
// work (StatusPatchFailing, FinalizerPatchFailing), not one per retry, and
// counts the work in metrics.PatchesFailing until a write succeeds.
package workwriter

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"

	"github.com/manifestwork/work/pkg/agent/status/stalled"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workclient "github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/metrics"
)

// Writer writes ManifestWorks on the hub for one controller.
type Writer struct {
	controller string
	client     workclient.Interface
	maxSize    int // of the status JSON; 0 means DefaultMaxSize
	// replaced is nil for a writer without guard; otherwise it holds, per
	// work key, the resourceVersions our writes replaced.
	replaced *OwnWrites[string, string]
	// events records the Warning Events of writes that keep failing; nil
	// records none.
	events  record.EventRecorder
	failing stalled.Failures // by patch and work key
	now     func() time.Time
	// pacing, when set, holds back the status of a work in transition.
	pacing *Pacing
}

// Reasons of the Warning Events recorded on a work whose writes keep
// failing.
const (
	EventStatusPatchFailing    = "StatusPatchFailing"
	EventFinalizerPatchFailing = "FinalizerPatchFailing"
)

// Shared is what the writers of the agent's controllers share: the hub's
// client, the status size limit, where the Warning Events of writes that
// keep failing go, and the pacing of works in transition. Each controller
// makes its own writer from it with New.
type Shared struct {
	Client        workclient.Interface // ManifestWorks on the hub
	MaxStatusSize int                  // --max-status-size; 0 or less means DefaultMaxSize
	Events        record.EventRecorder // nil records no Event
	// Pacing, shared by the Paced writers, holds back the status of works
	// in transition; nil holds nothing back.
	Pacing *Pacing
}

// Mode is what a controller's writer does besides writing.
type Mode int

const (
	// Plain writes, and does nothing more.
	Plain Mode = iota
	// Guarded also remembers the versions its writes replaced, for
	// Outdated; its controller calls Forget when a work is gone.
	Guarded
	// Paced holds the status of a work in transition back (see Pacing).
	Paced
)

// New returns the writer of the named controller (the name labels its
// metrics).
func New(shared Shared, controller string, mode Mode) *Writer {
	w := &Writer{controller: controller, client: shared.Client, maxSize: shared.MaxStatusSize, events: shared.Events, now: time.Now}
	switch mode {
	case Guarded:
		w.replaced = &OwnWrites[string, string]{}
	case Paced:
		w.pacing = shared.Pacing
	}
	return w
}

// Status sends the new status, trimmed to fit, when it differs from the
// work's. updated is the work as the hub now holds it, nil when nothing was
// sent. A paced writer holds the status of a work in transition back: it
// then returns a Deferred error, and the controller syncs the work again
// once it has passed.
func (w *Writer) Status(ctx context.Context, work *workv1.ManifestWork, status workv1.ManifestWorkStatus) (updated *workv1.ManifestWork, err error) {
	count := func(result string) { metrics.StatusPatches.WithLabelValues(w.controller, result).Inc() }
	status = Fit(status, meta.FindStatusCondition(work.Status.Conditions, TrimmedConditionType), work.Generation, w.maxSize)
	if equality.Semantic.DeepEqual(work.Status, status) {
		count(metrics.PatchSkipped)
		w.succeeded(work, metrics.PatchStatus) // the hub holds what we would write
		return nil, nil
	}
	key := keyOf(work)
	inTransition := w.pacing != nil && InTransition(status)
	if inTransition {
		if wait := w.pacing.hold(key, w.now()); wait > 0 {
			count(metrics.PatchDeferred)
			return nil, &Deferred{After: wait}
		}
	}
	patch, err := statusPatch(work, status)
	if err != nil {
		return nil, err
	}
	updated, err = w.client.WorkV1().ManifestWorks(work.Namespace).Patch(ctx, work.Name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	if err != nil {
		count(metrics.PatchError)
		w.failed(work, metrics.PatchStatus, err)
		return nil, fmt.Errorf("patching status: %w", err)
	}
	count(metrics.PatchSent)
	w.succeeded(work, metrics.PatchStatus)
	w.wrote(work, updated)
	w.pacing.written(key, inTransition, w.now())
	return updated, nil
}

// Released tells that the agent has let go of a work being deleted: its
// finalizer is off, and nothing more is reported on it. Until then the
// status is kept up to date as the work's objects go, as OCM's agent does.
func Released(work *workv1.ManifestWork) bool {
	return work.DeletionTimestamp != nil && !slices.Contains(work.Finalizers, workv1.ManifestWorkFinalizer)
}

// AddFinalizer gives the work the agent's finalizer, which keeps it on the
// hub until the agent has cleaned up after it. updated is nil when the work
// had it already.
func (w *Writer) AddFinalizer(ctx context.Context, work *workv1.ManifestWork) (updated *workv1.ManifestWork, err error) {
	if slices.Contains(work.Finalizers, workv1.ManifestWorkFinalizer) {
		w.countFinalizer(metrics.FinalizerAdd, metrics.PatchSkipped)
		w.succeeded(work, metrics.PatchFinalizer)
		return nil, nil
	}
	updated, err = w.patchFinalizers(ctx, work, metrics.FinalizerAdd, append(slices.Clone(work.Finalizers), workv1.ManifestWorkFinalizer))
	if err != nil {
		return nil, fmt.Errorf("adding finalizer: %w", err)
	}
	return updated, nil
}

// RemoveFinalizer takes the agent's finalizer off the work, keeping the
// others. updated is nil when the work did not have it.
func (w *Writer) RemoveFinalizer(ctx context.Context, work *workv1.ManifestWork) (updated *workv1.ManifestWork, err error) {
	if !slices.Contains(work.Finalizers, workv1.ManifestWorkFinalizer) {
		w.countFinalizer(metrics.FinalizerRemove, metrics.PatchSkipped)
		w.succeeded(work, metrics.PatchFinalizer)
		return nil, nil
	}
	rest := slices.DeleteFunc(slices.Clone(work.Finalizers), func(f string) bool { return f == workv1.ManifestWorkFinalizer })
	updated, err = w.patchFinalizers(ctx, work, metrics.FinalizerRemove, rest)
	if err != nil {
		return nil, fmt.Errorf("removing finalizer: %w", err)
	}
	return updated, nil
}

// patchFinalizers replaces the work's finalizers with the given list.
func (w *Writer) patchFinalizers(ctx context.Context, work *workv1.ManifestWork, action string, finalizers []string) (*workv1.ManifestWork, error) {
	var list any // null clears the list
	if len(finalizers) > 0 {
		list = finalizers
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"finalizers":      list,
		"resourceVersion": work.ResourceVersion,
	}})
	if err != nil {
		return nil, err
	}
	updated, err := w.client.WorkV1().ManifestWorks(work.Namespace).Patch(ctx, work.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	if err != nil {
		w.countFinalizer(action, metrics.PatchError)
		w.failed(work, metrics.PatchFinalizer, err)
		return nil, err
	}
	w.countFinalizer(action, metrics.PatchSent)
	w.succeeded(work, metrics.PatchFinalizer)
	w.wrote(work, updated)
	return updated, nil
}

func (w *Writer) countFinalizer(action, result string) {
	metrics.FinalizerPatches.WithLabelValues(w.controller, action, result).Inc()
}

// statusPatch is the merge patch from the work's status to the new one, with
// explicit nulls for what disappeared, and the resourceVersion it was
// computed from.
func statusPatch(work *workv1.ManifestWork, status workv1.ManifestWorkStatus) ([]byte, error) {
	type doc struct {
		Metadata map[string]string         `json:"metadata"`
		Status   workv1.ManifestWorkStatus `json:"status"`
	}
	before, err := json.Marshal(doc{Metadata: map[string]string{}, Status: work.Status})
	if err != nil {
		return nil, err
	}
	after, err := json.Marshal(doc{Metadata: map[string]string{"resourceVersion": work.ResourceVersion}, Status: status})
	if err != nil {
		return nil, err
	}
	return jsonpatch.CreateMergePatch(before, after)
}
