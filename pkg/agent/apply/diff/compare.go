// Package diff finds where a live object differs from the manifest it
// was applied from: the paths of the fields the manifest sets that the live
// object does not hold, with both values, masked where they may be
// credentials, and the field managers that own the differing fields.
//
// A manifest "is held" by a live object when every field the manifest sets
// has the same value on it; whatever the server or other actors added
// (defaults, extra labels, other owners) is not a difference. The apply
// strategies use the same comparison to decide whether to write, so a write
// of a manifest that was applied before always has differences to report.
// CompareExact holds chosen fields to the manifest as a whole instead, for
// the Update strategy's kinds that OCM's agent writes whole: there, what
// others added is a difference too.
package diff

import (
	"maps"
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// notCompared are top-level fields that never make a difference: apiVersion
// and kind identify the object, metadata is compared field by field, and
// status belongs to the object's controllers, not to the work.
var notCompared = map[string]bool{"apiVersion": true, "kind": true, "metadata": true, "status": true}

// Equal reports whether live holds everything desired sets. It stops at the
// first difference.
func Equal(desired, live *unstructured.Unstructured) bool {
	w := walker{firstOnly: true}
	w.object(desired, live)
	return w.total == 0
}

// Compare lists the differences of live from desired, at most limit of them
// (Report.Total counts them all).
func Compare(desired, live *unstructured.Unstructured, limit int) Report {
	w := walker{limit: limit}
	w.object(desired, live)
	return Report{Differences: w.diffs, Total: w.total, Secret: isSecret(desired)}
}

// CompareExact is Compare, except that the top-level fields exact names
// (every field but metadata and status when it is nil) are compared as a
// whole: what live holds there beyond desired, a map key or a field of a
// list item, is a difference too (Difference.Removed), as is a top-level
// field only live has. Metadata stays a subset comparison: labels and
// annotations others add are theirs.
func CompareExact(desired, live *unstructured.Unstructured, exact []string, limit int) Report {
	w := walker{limit: limit, exact: exact, exactAll: exact == nil}
	w.object(desired, live)
	return Report{Differences: w.diffs, Total: w.total, Secret: isSecret(desired)}
}

// walker walks a manifest and the live object side by side.
type walker struct {
	limit     int
	firstOnly bool
	path      Path // of the field being compared; copied when recorded
	diffs     []Difference
	total     int
	// exact names the top-level fields compared as a whole; exactAll
	// makes every one so. inExact is set while the walk is inside one.
	exact    []string
	exactAll bool
	inExact  bool
}

func (w *walker) done() bool { return w.firstOnly && w.total > 0 }

// differ records a difference at the current path.
func (w *walker) differ(want, got any, found bool) {
	w.total++
	if len(w.diffs) < w.limit {
		w.diffs = append(w.diffs, Difference{Path: slices.Clone(w.path), Desired: want, Live: got, Missing: !found || got == nil})
	}
}

// removed records, at the current path, a live value the manifest removes.
func (w *walker) removed(got any) {
	w.total++
	if len(w.diffs) < w.limit {
		w.diffs = append(w.diffs, Difference{Path: slices.Clone(w.path), Live: got, Removed: true})
	}
}

func (w *walker) enter(s Segment) { w.path = append(w.path, s) }
func (w *walker) leave()          { w.path = w.path[:len(w.path)-1] }

func (w *walker) object(desired, live *unstructured.Unstructured) {
	w.enter(Segment{Key: "metadata"})
	w.metadata(desired, live)
	w.leave()
	for _, key := range w.keys(desired.Object) {
		if notCompared[key] || w.done() {
			continue
		}
		got, found := live.Object[key]
		w.enter(Segment{Key: key})
		w.inExact = w.exactAll || slices.Contains(w.exact, key)
		w.field(desired.Object[key], got, found)
		w.inExact = false
		w.leave()
	}
	for _, key := range w.keys(live.Object) {
		if notCompared[key] || w.done() || !(w.exactAll || slices.Contains(w.exact, key)) {
			continue
		}
		if _, found := desired.Object[key]; !found && !isZero(live.Object[key]) {
			w.enter(Segment{Key: key})
			w.removed(live.Object[key])
			w.leave()
		}
	}
}

// keys are the keys of m, sorted when differences are listed so that the
// same differences always give the same report (a condition message that
// changed with map order would be written again and again).
func (w *walker) keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	if !w.firstOnly {
		slices.Sort(out)
	}
	return out
}

// metadata compares only what a manifest can ask for in metadata. Name and
// namespace identify the object; the server-set fields (resourceVersion,
// uid, managedFields, creationTimestamp, generation) are not the work's.
func (w *walker) metadata(desired, live *unstructured.Unstructured) {
	w.stringMap("labels", desired.GetLabels(), live.GetLabels())
	w.stringMap("annotations", desired.GetAnnotations(), live.GetAnnotations())
	liveOwners := live.GetOwnerReferences()
	for _, ref := range desired.GetOwnerReferences() {
		w.enter(Segment{Key: "ownerReferences"})
		switch {
		case RemovesOwner(ref):
			if slices.ContainsFunc(liveOwners, func(l metav1.OwnerReference) bool { return SameOwnerObject(l, ref) }) {
				w.removed(ref.Name)
			}
		case !HasOwner(liveOwners, ref):
			w.differ(ref.Name, nil, false)
		}
		w.leave()
	}
	liveFinalizers := live.GetFinalizers()
	for _, f := range desired.GetFinalizers() {
		if !slices.Contains(liveFinalizers, f) {
			w.enter(Segment{Key: "finalizers"})
			w.differ(f, nil, false)
			w.leave()
		}
	}
}

func (w *walker) stringMap(name string, desired, live map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(desired)) {
		v := desired[k]
		key, removes := RemovedKey(k)
		got, ok := live[key]
		if removes && !ok || !removes && ok && got == v {
			continue
		}
		w.enter(Segment{Key: name})
		w.enter(Segment{Key: key})
		switch {
		case removes:
			w.removed(got)
		case ok:
			w.differ(v, got, true)
		default:
			w.differ(v, nil, false)
		}
		w.leave()
		w.leave()
	}
}

// HasOwner tells whether refs hold owner.
func HasOwner(refs []metav1.OwnerReference, owner metav1.OwnerReference) bool {
	return slices.ContainsFunc(refs, func(ref metav1.OwnerReference) bool { return SameOwner(ref, owner) })
}

// SameOwner matches references by UID, which is what the garbage collector
// uses; a reference without UID (possible in a hand-written manifest) is
// matched by apiVersion, kind and name instead.
func SameOwner(a, b metav1.OwnerReference) bool {
	if a.UID != "" && b.UID != "" {
		return a.UID == b.UID
	}
	return a.APIVersion == b.APIVersion && a.Kind == b.Kind && a.Name == b.Name
}

// field compares one desired value with the live one (found is false when
// live has no such field).
//
// A desired null has no opinion and matches anything. A field the server
// dropped matches a desired zero value: built-in types omit empty fields
// (false, 0, "", {} and []), so a manifest that spells them out would
// otherwise differ from its own result forever.
func (w *walker) field(want, got any, found bool) {
	if want == nil {
		if w.inExact && found && !isZero(got) {
			w.removed(got)
		}
		return
	}
	if !found || got == nil {
		if !isZero(want) {
			w.differ(want, nil, false)
		}
		return
	}
	w.subset(want, got)
}

// subset checks that live holds desired: maps need every desired key, lists
// the same length with each element a subset (so server defaults inside list
// items, such as a container's terminationMessagePath, don't count), and
// scalars must be equal in value, not in representation.
func (w *walker) subset(desired, live any) {
	switch want := desired.(type) {
	case map[string]any:
		got, ok := live.(map[string]any)
		if !ok {
			w.differ(desired, live, true)
			return
		}
		for _, key := range w.keys(want) {
			if w.done() {
				return
			}
			g, found := got[key]
			w.enter(Segment{Key: key})
			w.field(want[key], g, found)
			w.leave()
		}
		if w.inExact {
			w.extraKeys(want, got)
		}
	case []any:
		got, ok := live.([]any)
		if !ok || len(want) != len(got) {
			w.differ(desired, live, true)
			return
		}
		for i := range want {
			if w.done() {
				return
			}
			w.enter(Segment{Index: i, IsIndex: true})
			w.field(want[i], got[i], true)
			w.leave()
		}
	default:
		if !scalarMatches(desired, live) {
			w.differ(desired, live, true)
		}
	}
}

// extraKeys records, in a field compared as a whole, the keys that only
// live holds. An empty value is no difference: the server omits those.
func (w *walker) extraKeys(want, got map[string]any) {
	for _, key := range w.keys(got) {
		if w.done() {
			return
		}
		if _, found := want[key]; found || isZero(got[key]) {
			continue
		}
		w.enter(Segment{Key: key})
		w.removed(got[key])
		w.leave()
	}
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
