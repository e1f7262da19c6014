package apply

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// LastApplied is what the agent remembers of a manifest once it applied it.
// It lets a strategy tell a change of the work from a change made on the
// managed cluster without keeping any bookkeeping on the object itself:
// objects carry only what the manifest sets and the owner reference, so
// server-side apply never reports a conflict on a field no manifest set, and
// objects another agent applied are taken over without a write.
type LastApplied struct {
	// Spec identifies the desired state that was applied (Request.Spec).
	Spec uint64
	// IgnoredFields holds, for each field an OnSpokeChange path of the
	// manifest's server-side apply config picks in the manifest, the hash of
	// the value the work gave that field, keyed by the hash of the field's
	// identity (match.id: its path, a filter's pick by order).
	IgnoredFields map[uint64]uint64
}

// Remember returns what to remember of req once it has been applied.
// Invalid ignoreFields yield an error, as they do when applying.
func Remember(req Request) (LastApplied, error) {
	rules, err := parseIgnoreFields(applyOptionsOf(req.Config).ignoreFields)
	if err != nil {
		return LastApplied{}, err
	}
	last := LastApplied{Spec: req.Spec}
	for _, rule := range rules {
		if rule.condition != workv1.IgnoreFieldsConditionOnSpokeChange {
			continue
		}
		fields, err := rule.fields(context.Background(), req.Desired.Object, nil)
		if err != nil {
			return LastApplied{}, err
		}
		for _, field := range fields {
			if last.IgnoredFields == nil {
				last.IgnoredFields = map[uint64]uint64{}
			}
			last.IgnoredFields[field.id.hash()] = valueHash(req.Desired, field.body)
		}
	}
	return last, nil
}

// workChanged tells whether the desired state differs from the one last
// applied. Unknown (nothing remembered) is not a change: the live object is
// then compared with the manifest as it is.
func workChanged(req Request) bool {
	return req.Last != nil && req.Last.Spec != req.Spec
}

// fieldChanged tells whether the work changed the value of an ignored field
// since it was last applied. Unknown, for a manifest or a path never
// applied with this rule, is not a change: the managed cluster's value stays.
func fieldChanged(req Request, field match) bool {
	if req.Last == nil {
		return false
	}
	last, ok := req.Last.IgnoredFields[field.id.hash()]
	return ok && last != valueHash(req.Desired, field.body)
}

// valueHash is the hash of the value at path in obj; 0 when there is none.
func valueHash(obj *unstructured.Unstructured, path fieldPath) uint64 {
	value, found := path.get(obj.Object)
	if !found {
		return 0
	}
	data, err := json.Marshal(value)
	if err != nil {
		return 0 // not JSON: cannot come from a decoded manifest
	}
	return HashBytes(data) | 1 // never 0, which stands for "no value"
}

// hash identifies a path whatever way it was written (JSONPath or pointer).
func (fp fieldPath) hash() uint64 {
	return HashBytes([]byte(strings.Join(fp, "\x00")))
}

// HashBytes is the 64-bit FNV-1a hash the agent uses for what it remembers.
// It is not a defence against collisions crafted on purpose; it tells apart
// the states of one manifest.
func HashBytes(data []byte) uint64 {
	h := fnv.New64a()
	_, _ = h.Write(data)
	return h.Sum64()
}
