package manifestwork

import (
	"fmt"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// The InSync condition of a manifest, and of the work: does the managed
// cluster hold every field the manifest sets? It is this agent's addition
// to OCM's condition types.
const (
	ConditionInSync = workv1.WorkInSync

	InSyncReasonInSync      = "InSync"
	InSyncReasonDrifted     = "Drifted"
	InSyncReasonNotCompared = "NotCompared"
)

// maxInSyncMessage bounds the message of a manifest's InSync condition: the
// status of a work with many drifted manifests must stay small.
const maxInSyncMessage = 2048

// manifestInSync is the InSync condition of a manifest whose live object
// was compared with it; diff is what differs.
func manifestInSync(diff *diff.Report, generation int64) metav1.Condition {
	if diff.InSync() {
		return metav1.Condition{
			Type: ConditionInSync, Status: metav1.ConditionTrue, ObservedGeneration: generation,
			Reason: InSyncReasonInSync, Message: "The live object holds every field the manifest sets",
		}
	}
	fields := "fields differ"
	if diff.Total == 1 {
		fields = "field differs"
	}
	return metav1.Condition{
		Type: ConditionInSync, Status: metav1.ConditionFalse, ObservedGeneration: generation,
		Reason:  InSyncReasonDrifted,
		Message: workv1.Shorten(fmt.Sprintf("%d %s from the manifest: %s", diff.Total, fields, diff.Describe("%[1]s: manifest %[2]s, live %[3]s")), maxInSyncMessage, "..."),
	}
}

// setManifestInSync sets the InSync condition of a manifest: from the
// comparison made now, or, when none was made (the object is unchanged
// since it was last compared, or could not be read), the last one's,
// confirmed for this generation when the manifest was applied. While the
// agent cannot watch objects of the manifest's type, it is Unknown: a
// change made to the object would not be seen.
func setManifestInSync(mc *workv1.ManifestCondition, r manifestResult, generation int64) {
	if r.notWatched != nil {
		apimeta.SetStatusCondition(&mc.Conditions, metav1.Condition{
			Type: ConditionInSync, Status: metav1.ConditionUnknown, ObservedGeneration: generation,
			Reason: InSyncReasonNotWatched,
			Message: workv1.Shorten(fmt.Sprintf("The agent cannot list or watch %s, so changes made to the object are not seen: %v",
				schema.GroupResource{Group: r.meta.Group, Resource: r.meta.Resource}, r.notWatched), maxInSyncMessage, "..."),
		})
		return
	}
	if r.contest != nil {
		apimeta.SetStatusCondition(&mc.Conditions, r.contest.inSync(describe(r.meta), generation))
		return
	}
	if r.differences != nil {
		apimeta.SetStatusCondition(&mc.Conditions, manifestInSync(r.differences, generation))
		return
	}
	if r.unread != nil {
		apimeta.SetStatusCondition(&mc.Conditions, metav1.Condition{
			Type: ConditionInSync, Status: metav1.ConditionUnknown, ObservedGeneration: generation,
			Reason:  InSyncReasonNotCompared,
			Message: workv1.Shorten(fmt.Sprintf("The object could not be read, so it was not compared with the manifest: %v", r.unread), maxInSyncMessage, "..."),
		})
		return
	}
	if r.missing {
		apimeta.SetStatusCondition(&mc.Conditions, metav1.Condition{
			Type: ConditionInSync, Status: metav1.ConditionFalse, ObservedGeneration: generation, Reason: InSyncReasonDrifted,
			Message: "The object does not exist on the managed cluster, and its update strategy (ReadOnly) does not create it",
		})
		return
	}
	previous := apimeta.FindStatusCondition(mc.Conditions, ConditionInSync)
	switch {
	case previous == nil || previous.Reason == InSyncReasonNotWatched:
		apimeta.SetStatusCondition(&mc.Conditions, metav1.Condition{
			Type: ConditionInSync, Status: metav1.ConditionUnknown, ObservedGeneration: generation,
			Reason: InSyncReasonNotCompared, Message: "The live object could not be compared with the manifest; see Applied",
		})
	case r.err == nil:
		previous.ObservedGeneration = generation
	}
}

// workInSync aggregates the manifests' InSync conditions.
func workInSync(manifests []workv1.ManifestCondition, generation int64) metav1.Condition {
	drifted, unknown, contested := 0, 0, 0
	for _, m := range manifests {
		switch c := apimeta.FindStatusCondition(m.Conditions, ConditionInSync); {
		case c == nil || c.Status == metav1.ConditionUnknown:
			unknown++
		case c.Status == metav1.ConditionFalse:
			drifted++
			if c.Reason == InSyncReasonContested {
				contested++
			}
		}
	}
	switch {
	case contested > 0:
		return metav1.Condition{
			Type: ConditionInSync, Status: metav1.ConditionFalse, ObservedGeneration: generation, Reason: InSyncReasonContested,
			Message: fmt.Sprintf("%d of %d manifests differ from the managed cluster, %d of them changed back again and again by "+
				"another writer, which the agent stopped reverting for a while; see status.resourceStatus", drifted, len(manifests), contested),
		}
	case drifted > 0:
		return metav1.Condition{
			Type: ConditionInSync, Status: metav1.ConditionFalse, ObservedGeneration: generation, Reason: InSyncReasonDrifted,
			Message: fmt.Sprintf("%d of %d manifests differ from the managed cluster; see status.resourceStatus", drifted, len(manifests)),
		}
	case unknown > 0:
		return metav1.Condition{
			Type: ConditionInSync, Status: metav1.ConditionUnknown, ObservedGeneration: generation, Reason: InSyncReasonNotCompared,
			Message: fmt.Sprintf("%d of %d manifests could not be compared with the managed cluster", unknown, len(manifests)),
		}
	}
	return metav1.Condition{
		Type: ConditionInSync, Status: metav1.ConditionTrue, ObservedGeneration: generation, Reason: InSyncReasonInSync,
		Message: "The managed cluster holds every field the manifests set",
	}
}
