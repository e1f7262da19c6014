package diff

import (
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// A manifest can ask for metadata to be removed, with the syntax of kubectl
// label and kubectl annotate that OCM's agent honours: a label or annotation
// key ending in "-" removes that key (without its trailing dashes) from the
// live object, and an owner reference whose UID ends in "-" removes the live
// reference to the same object (group, kind and name). Such entries are never
// written themselves: the API server would refuse the key.

// RemovedKey tells whether a label or annotation key of a manifest asks for a
// removal, and which key it removes.
func RemovedKey(key string) (string, bool) {
	if !strings.HasSuffix(key, "-") {
		return key, false
	}
	return strings.TrimRight(key, "-"), true
}

// RemovesOwner tells whether an owner reference of a manifest asks for the
// removal of the live reference to the same object.
func RemovesOwner(ref metav1.OwnerReference) bool {
	return strings.HasSuffix(string(ref.UID), "-")
}

// SameOwnerObject tells whether two references point at the same object by
// group, kind and name, whatever their version and UID: a reference to an
// earlier object of the same name, or a removal, matches too.
func SameOwnerObject(a, b metav1.OwnerReference) bool {
	return a.Kind == b.Kind && a.Name == b.Name &&
		schema.FromAPIVersionAndKind(a.APIVersion, a.Kind).Group == schema.FromAPIVersionAndKind(b.APIVersion, b.Kind).Group
}

// AsksRemovals tells whether obj's metadata holds any removal.
func AsksRemovals(obj metav1.Object) bool {
	removes := func(m map[string]string) bool {
		for k := range m {
			if _, ok := RemovedKey(k); ok {
				return true
			}
		}
		return false
	}
	return removes(obj.GetLabels()) || removes(obj.GetAnnotations()) || slices.ContainsFunc(obj.GetOwnerReferences(), RemovesOwner)
}
