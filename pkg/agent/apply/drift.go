package apply

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
)

// maxListed bounds the differences a report lists; it counts the others.
const maxListed = 10

// Drift is what a repaired object held instead of the manifest.
type Drift struct {
	diff.Report
	// ChangedBy names the field managers that own the differing fields on
	// the object as it was found, when its managedFields tell.
	ChangedBy []string
}

// compare lists the differences of live from desired as its kind's rules
// see them (forComparison); a manifest the rules cannot normalize is
// compared as it is.
func compare(desired, live *unstructured.Unstructured) *diff.Report {
	comparable, err := forComparison(desired, live)
	if err != nil {
		comparable = desired
	}
	return diffOf(comparable, live)
}

// diffOf lists the differences of live from desired as it stands.
func diffOf(desired, live *unstructured.Unstructured) *diff.Report {
	r := diff.Compare(desired, live, maxListed)
	return &r
}

// repaired is the drift of live, which the strategy has just written back,
// when the work had not changed since it last applied the object: then
// every difference was made on the managed cluster. Without a record of the
// last apply (a first apply, an object taken over) it is not called drift.
// ours is the field manager the strategy writes with which, like
// DefaultFieldManager, is not named as one that changed the object.
func repaired(req Request, before *diff.Report, live *unstructured.Unstructured, ours string) *Drift {
	if req.Last == nil || workChanged(req) || before.InSync() {
		return nil
	}
	return &Drift{Report: *before, ChangedBy: diff.ChangedBy(live, *before, ours, DefaultFieldManager)}
}
