package agent

import (
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
// words.
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
		c.conditions(o.Status.Conditions)
		for i := range o.Status.ResourceStatus.Manifests {
			m := &o.Status.ResourceStatus.Manifests[i].ResourceMeta
			c.strings.Intern(&m.Group, &m.Version, &m.Kind, &m.Resource, &m.Namespace)
			c.conditions(o.Status.ResourceStatus.Manifests[i].Conditions)
		}
	case *workv1.AppliedManifestWork:
		for i := range o.Status.AppliedResources {
			r := &o.Status.AppliedResources[i]
			c.strings.Intern(&r.Group, &r.Version, &r.Resource, &r.Namespace)
		}
	}
	return obj, nil // tombstones and other types pass as they are
}

func (c *cacheCompactor) conditions(conds []metav1.Condition) {
	for i := range conds {
		cond := &conds[i]
		s := string(cond.Status)
		c.strings.Intern(&cond.Type, &s, &cond.Reason, &cond.Message)
		cond.Status = metav1.ConditionStatus(s)
	}
}
