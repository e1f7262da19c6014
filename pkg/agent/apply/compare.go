package apply

import (
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// notCompared are top-level fields that never make a write necessary:
// apiVersion and kind identify the object (the GET already used them),
// metadata is compared field by field, and status belongs to the object's
// controllers, not to the work.
var notCompared = map[string]bool{"apiVersion": true, "kind": true, "metadata": true, "status": true}

// upToDate reports whether live already holds everything desired asks for.
// Anything the server or other actors added (defaults, extra labels, other
// owners) does not count as a difference: writing over it would change
// nothing the work cares about, and an idle agent must not write. The
// owner reference to the AppliedManifestWork is checked by the strategies,
// which add it each in their own way.
func upToDate(desired, live *unstructured.Unstructured) bool {
	return metadataUpToDate(desired, live) && contentUpToDate(desired.Object, live.Object)
}

func contentUpToDate(desired, live map[string]any) bool {
	for key, want := range desired {
		if notCompared[key] {
			continue
		}
		got, found := live[key]
		if !fieldMatches(want, got, found) {
			return false
		}
	}
	return true
}

// metadataUpToDate compares only what a manifest can ask for in metadata.
// Name and namespace identify the object; the server-set fields
// (resourceVersion, uid, managedFields, creationTimestamp, generation) are
// not the work's.
func metadataUpToDate(desired, live *unstructured.Unstructured) bool {
	liveOwners := live.GetOwnerReferences()
	for _, ref := range desired.GetOwnerReferences() {
		if !hasOwner(liveOwners, ref) {
			return false
		}
	}
	liveFinalizers := live.GetFinalizers()
	for _, f := range desired.GetFinalizers() {
		if !slices.Contains(liveFinalizers, f) {
			return false
		}
	}
	return stringMapSubset(desired.GetLabels(), live.GetLabels()) &&
		stringMapSubset(desired.GetAnnotations(), live.GetAnnotations())
}

func stringMapSubset(desired, live map[string]string) bool {
	for k, v := range desired {
		if got, ok := live[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// fieldMatches compares one desired value with the live one (found is false
// when live has no such field).
//
// A desired null has no opinion and matches anything. A field the server
// dropped matches a desired zero value: built-in types omit empty fields
// (false, 0, "", {} and []), so a manifest that spells them out would
// otherwise differ from its own result forever.
func fieldMatches(want, got any, found bool) bool {
	if want == nil {
		return true
	}
	if !found || got == nil {
		return isZero(want)
	}
	return semanticSubset(want, got)
}

// semanticSubset reports whether live holds desired: maps need every desired
// key, lists the same length with each element a subset (so server defaults
// inside list items, such as a container's terminationMessagePath, don't
// count), and scalars must be equal in value, not in representation.
func semanticSubset(desired, live any) bool {
	switch want := desired.(type) {
	case map[string]any:
		got, ok := live.(map[string]any)
		return ok && contentMapSubset(want, got)
	case []any:
		got, ok := live.([]any)
		return ok && listSubset(want, got)
	default:
		return scalarMatches(desired, live)
	}
}

func contentMapSubset(desired, live map[string]any) bool {
	for key, want := range desired {
		got, found := live[key]
		if !fieldMatches(want, got, found) {
			return false
		}
	}
	return true
}

func listSubset(desired, live []any) bool {
	if len(desired) != len(live) {
		return false
	}
	for i := range desired {
		if !fieldMatches(desired[i], live[i], true) {
			return false
		}
	}
	return true
}

func scalarMatches(desired, live any) bool {
	switch want := desired.(type) {
	case string:
		got, ok := live.(string)
		return ok && (want == got || isCanonicalQuantity(want, got))
	case bool:
		got, ok := live.(bool)
		return ok && want == got
	}
	if numbersEqual(desired, live) {
		return true
	}
	// A number in the manifest for a quantity field, such as cpu: 0.5,
	// comes back from the server as the string "500m".
	if got, ok := live.(string); ok {
		if text, ok := numberText(desired); ok {
			return isCanonicalQuantity(text, got)
		}
	}
	return false
}

// isCanonicalQuantity reports whether live is what the API server makes of
// desired when the field is a resource.Quantity: the server stores quantities
// in canonical form, so "0.1" comes back as "100m" and "1024Mi" as "1Gi".
//
// Only that direction counts. Comparing any two strings that both parse as
// quantities would also equate "1.2" with "1.20" in a ConfigMap, hiding a real
// change of a version string; the server never rewrites such a field, so
// requiring live to be exactly the canonical form keeps those apart.
func isCanonicalQuantity(desired, live string) bool {
	q, err := resource.ParseQuantity(desired)
	if err != nil {
		return false
	}
	return q.String() == live
}

// numbersEqual compares two JSON numbers by value: decoders produce int64 or
// float64 for the same number depending on how it was written (3 or 3.0) and
// which decoder read it.
func numbersEqual(a, b any) bool {
	if x, ok := asInt64(a); ok {
		if y, ok := asInt64(b); ok {
			return x == y
		}
	}
	x, okA := asFloat64(a)
	y, okB := asFloat64(b)
	return okA && okB && x == y
}

func asInt64(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	}
	return 0, false
}

func asFloat64(v any) (float64, bool) {
	if n, ok := asInt64(v); ok {
		return float64(n), true
	}
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	}
	return 0, false
}

// numberText writes a number the way a quantity parser reads it: plain
// decimal, no exponent.
func numberText(v any) (string, bool) {
	if n, ok := asInt64(v); ok {
		return strconv.FormatInt(n, 10), true
	}
	if f, ok := asFloat64(v); ok {
		return strconv.FormatFloat(f, 'f', -1, 64), true
	}
	return "", false
}

// isZero reports whether v is a value that built-in types omit when empty.
func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	f, ok := asFloat64(v)
	return ok && f == 0
}
