package workwriter

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/status/stalled"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// failed records that a patch of the work failed. Once the patches of the
// work have failed for stalled.Threshold, it records one Event and counts
// the work as failing. A work that is gone fails nothing any more.
func (w *Writer) failed(work *workv1.ManifestWork, patch string, err error) {
	key := keyOf(work)
	if apierrors.IsNotFound(err) {
		w.clear(patch, key)
		return
	}
	if !w.failing.Failed(patch+" "+key, w.now()).First {
		return
	}
	metrics.PatchesFailing.WithLabelValues(w.controller, patch).Inc()
	if w.events == nil {
		return
	}
	reason := EventStatusPatchFailing
	if patch == metrics.PatchFinalizer {
		reason = EventFinalizerPatchFailing
	}
	w.events.Event(work, corev1.EventTypeWarning, reason, workv1.Shorten(fmt.Sprintf(
		"The %s patches of %s have failed for over %s; the agent retries: %v", patch, w.controller, stalled.Threshold, err),
		workv1.MaxEventMessageLength, "..."))
}

// succeeded records that the work holds what the controller wrote.
func (w *Writer) succeeded(work *workv1.ManifestWork, patch string) {
	w.clear(patch, cache.MetaObjectToName(work).String())
}

// clear forgets the failures of a patch of the work with key.
func (w *Writer) clear(patch, key string) {
	if w.failing.Succeeded(patch + " " + key) {
		metrics.PatchesFailing.WithLabelValues(w.controller, patch).Dec()
	}
}
