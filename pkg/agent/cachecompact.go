package agent

import (
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/sharedstrings"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// cacheCompactor is the transform of the work informers. It keeps
// managedFields out of the caches (nothing reads them, and on a ManifestWork
// whose status several writers patch they describe every field of the status
// again, often outweighing the spec), and it shares the strings that repeat
// across thousands of manifests: each decoded object brings its own copy of
// every condition type, status, reason and message ("Applied", "True",
// "AppliedManifestComplete", ...) and of every group, version, kind, resource
// and namespace, which at 10,000 manifests are megabytes of the same few
// words. It also keeps the lists of manifests, of their statuses and
// conditions, and of applied resources in arrays of their length: the
// decoder grows a list's array as append does, which leaves 20 manifest
// statuses in an array of 35. Manifests of one work whose conditions are
// the same (50 ConfigMaps applied together) share one list of them: the
// caches are read-only, and every writer edits a deep copy.
type cacheCompactor struct {
	strings *sharedstrings.Table
}

func newCacheCompactor() *cacheCompactor {
	return &cacheCompactor{strings: sharedstrings.New(internedStrings)}
}

// internedStrings bounds the strings the work caches share. The words that
// repeat are a few dozen; the rest (messages naming an object) repeat
// rarely, and a table that fills up starts over rather than growing.
const internedStrings = 4096

func (c *cacheCompactor) transform(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	switch o := obj.(type) {
	case *workv1.ManifestWork:
		o.Spec.Workload.Manifests = exactLength(o.Spec.Workload.Manifests)
		o.Status.Conditions = c.conditions(o.Status.Conditions)
		o.Status.ResourceStatus.Manifests = exactLength(o.Status.ResourceStatus.Manifests)
		var lists conditionLists
		for i := range o.Status.ResourceStatus.Manifests {
			mc := &o.Status.ResourceStatus.Manifests[i]
			m := &mc.ResourceMeta
			c.strings.Intern(&m.Group, &m.Version, &m.Kind, &m.Resource, &m.Namespace)
			mc.Conditions = lists.share(c.conditions(mc.Conditions))
		}
	case *workv1.AppliedManifestWork:
		o.Status.AppliedResources = exactLength(o.Status.AppliedResources)
		for i := range o.Status.AppliedResources {
			r := &o.Status.AppliedResources[i]
			c.strings.Intern(&r.Group, &r.Version, &r.Resource, &r.Namespace)
		}
	}
	return obj, nil // tombstones and other types pass as they are
}

// conditions shares the strings of conds and returns them in an array of
// their length.
func (c *cacheCompactor) conditions(conds []metav1.Condition) []metav1.Condition {
	conds = exactLength(conds)
	for i := range conds {
		cond := &conds[i]
		s := string(cond.Status)
		c.strings.Intern(&cond.Type, &s, &cond.Reason, &cond.Message)
		cond.Status = metav1.ConditionStatus(s)
	}
	return conds
}

// conditionLists are the distinct condition lists of the manifests of one
// work seen so far, the first maxConditionLists of them.
type conditionLists [][]metav1.Condition

// maxConditionLists bounds the lists a work's manifests are compared with:
// manifests applied together mostly have one.
const maxConditionLists = 4

// share returns an earlier list equal to conds, or conds, which later
// manifests may then share.
func (l *conditionLists) share(conds []metav1.Condition) []metav1.Condition {
	if len(conds) == 0 {
		return conds
	}
	for _, seen := range *l {
		if slices.EqualFunc(seen, conds, sameCondition) {
			return seen
		}
	}
	if len(*l) < maxConditionLists {
		*l = append(*l, conds)
	}
	return conds
}

func sameCondition(a, b metav1.Condition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.ObservedGeneration == b.ObservedGeneration &&
		a.LastTransitionTime.Equal(&b.LastTransitionTime) && a.Reason == b.Reason && a.Message == b.Message
}

// exactLength returns s, or a copy of it in an array of its length when
// the array has room for more. Nil and empty lists stay as they are.
func exactLength[T any](s []T) []T {
	if cap(s) == len(s) {
		return s
	}
	out := make([]T, len(s))
	copy(out, s)
	return out
}
