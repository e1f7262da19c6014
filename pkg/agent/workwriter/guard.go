package workwriter

import (
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// A guarded writer remembers, per work, the resourceVersions its own writes
// replaced. A lister copy at one of them is older than what the controller
// wrote: reconciling it again would only send writes that conflict, and the
// informer event of the write brings the current copy a moment later.

// Outdated tells whether the guarded writer's own writes replaced this copy
// of the work. A copy they did not replace is at least as new as all of
// them (an informer never goes back), so what was remembered is dropped.
// A writer without guard never finds a copy outdated.
func (w *Writer) Outdated(work *workv1.ManifestWork) bool {
	if w.replaced == nil {
		return false
	}
	return w.replaced.Outdated(keyOf(work), work.ResourceVersion)
}

// Forget drops what the writer remembers of a work that is gone; key is its
// namespace/name.
func (w *Writer) Forget(key string) {
	if w.replaced != nil {
		w.replaced.Forget(key)
	}
	w.pacing.forget(key)
	for _, patch := range []string{metrics.PatchStatus, metrics.PatchFinalizer} {
		w.clear(patch, key)
	}
}

// wrote remembers that a write replaced the work's version. A write that
// changed nothing on the server keeps the resourceVersion, which then stays
// current.
func (w *Writer) wrote(before, after *workv1.ManifestWork) {
	if w.replaced == nil || after == nil || after.ResourceVersion == before.ResourceVersion {
		return
	}
	w.replaced.Note(keyOf(before), before.ResourceVersion)
}
