package apply

import (
	"maps"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// serverSetMetadata are metadata fields the API server owns. They are never
// compared, and never sent from a manifest: a stale resourceVersion in a
// manifest would make every update fail, and apply refuses managedFields.
var serverSetMetadata = []string{
	"resourceVersion", "uid", "managedFields", "creationTimestamp",
	"generation", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds",
}

// legacyAnnotations are the hash annotations earlier versions of this agent
// wrote on every object. They are no longer written, and an update that
// writes the object anyway drops them.
var legacyAnnotations = []string{workv1.ObjectHashAnnotation, workv1.ConfigSpecHashAnnotation}

// forCreate is the object to create: the manifest, owned by the
// AppliedManifestWork unless the work orphans it. What the manifest's
// metadata asks to remove (diff.RemovedKey) is left out, as there is
// nothing to remove it from.
func forCreate(req Request) *unstructured.Unstructured {
	obj := withoutServerSetMetadata(req.Desired)
	obj.SetLabels(mergeStringMaps(nil, obj.GetLabels()))
	obj.SetAnnotations(mergeStringMaps(nil, obj.GetAnnotations()))
	obj.SetOwnerReferences(ownersFor(req, nil, obj.GetOwnerReferences()...))
	return obj
}

// forUpdate is the object to send to replace live: the manifest with live's
// resourceVersion, and live's metadata kept. Labels, annotations and owner
// references that other actors put on the object stay, so the agent does not
// fight them over fields the work never mentioned; the manifest's values win
// where both set a key, and the manifest's removals (diff.RemovedKey)
// take keys and references away. Our owner reference is added, or removed
// when the work orphans the object. req.Desired is forUpdateOf's, which
// already holds live's finalizers.
func forUpdate(req Request, live *unstructured.Unstructured) *unstructured.Unstructured {
	obj := withoutServerSetMetadata(req.Desired)
	obj.SetResourceVersion(live.GetResourceVersion())
	obj.SetLabels(mergeStringMaps(live.GetLabels(), obj.GetLabels()))
	annotations := mergeStringMaps(withoutLegacyAnnotations(live.GetAnnotations()), obj.GetAnnotations())
	obj.SetAnnotations(annotations)
	obj.SetOwnerReferences(ownersFor(req, live.GetOwnerReferences(), obj.GetOwnerReferences()...))
	return obj
}

func withoutLegacyAnnotations(annotations map[string]string) map[string]string {
	out := maps.Clone(annotations)
	for _, key := range legacyAnnotations {
		delete(out, key)
	}
	return out
}

func withoutServerSetMetadata(obj *unstructured.Unstructured) *unstructured.Unstructured {
	out := obj.DeepCopy()
	for _, field := range serverSetMetadata {
		unstructured.RemoveNestedField(out.Object, "metadata", field)
	}
	return out
}

// mergeStringMaps returns base overlaid with over, without the keys that
// over removes (diff.RemovedKey) and without over's removal keys
// themselves; nil when nothing is left, so that no empty map is written.
func mergeStringMaps(base, over map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(over))
	maps.Copy(out, base)
	var removed []string
	for k, v := range over {
		if key, removes := diff.RemovedKey(k); removes {
			removed = append(removed, key)
		} else {
			out[k] = v
		}
	}
	for _, key := range removed { // after the values: a removal wins
		delete(out, key)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// unionOwners appends to base the references it does not already hold, in
// order. Two works that share an object thus each add their own reference
// without removing the other's. A reference of more that asks for a removal
// (diff.RemovesOwner) takes away the references to the same object
// instead.
func unionOwners(base []metav1.OwnerReference, more ...metav1.OwnerReference) []metav1.OwnerReference {
	out := append([]metav1.OwnerReference(nil), base...)
	for _, ref := range more {
		switch {
		case diff.RemovesOwner(ref):
			out = slices.DeleteFunc(out, func(o metav1.OwnerReference) bool { return diff.SameOwnerObject(o, ref) })
		case !hasOwner(out, ref):
			out = append(out, ref)
		}
	}
	return out
}

func hasOwner(refs []metav1.OwnerReference, owner metav1.OwnerReference) bool {
	return diff.HasOwner(refs, owner)
}
