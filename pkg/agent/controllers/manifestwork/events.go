package manifestwork

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Reasons of the Events the controller records on a ManifestWork.
const (
	// EventManifestApplyFailed (Warning): a manifest's Applied condition
	// turned False, or changed its reason or message while False.
	EventManifestApplyFailed = "ManifestApplyFailed"
)

// recordTransitions records an Event for each manifest that started failing,
// or fails differently, from the work's status to the new one. It is called
// only once the new status is written, so a transition is recorded once, not
// on every reconcile. Success records nothing: the work's conditions say it,
// and an Event per applied work would double the writes to the hub.
func recordTransitions(recorder record.EventRecorder, work *workv1.ManifestWork, status workv1.ManifestWorkStatus) {
	for _, m := range status.ResourceStatus.Manifests {
		now := apimeta.FindStatusCondition(m.Conditions, workv1.ManifestApplied)
		if now == nil || now.Status != metav1.ConditionFalse {
			continue
		}
		previous := carryOver(work.Status.ResourceStatus.Manifests, m.ResourceMeta)
		was := apimeta.FindStatusCondition(previous.Conditions, workv1.ManifestApplied)
		if was != nil && was.Status == now.Status && was.Reason == now.Reason && was.Message == now.Message {
			continue
		}
		recorder.Event(work, corev1.EventTypeWarning, EventManifestApplyFailed, workv1.Shorten(
			fmt.Sprintf("Manifest %d (%s): %s", m.ResourceMeta.Ordinal, describe(m.ResourceMeta), now.Message), workv1.MaxEventMessageLength, "..."))
	}
}

// describe names a manifest's object as far as it is known.
func describe(meta workv1.ManifestResourceMeta) string {
	kind := meta.Kind
	if kind == "" {
		kind = "object"
	}
	if meta.Name == "" {
		return kind + " without a name"
	}
	return kind + " " + cache.NewObjectName(meta.Namespace, meta.Name).String()
}
