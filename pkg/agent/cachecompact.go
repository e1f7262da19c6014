package agent

import (
	"unique"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// compactForCache is the transform of the work informers. It keeps
// managedFields out of the caches (nothing reads them, and on a ManifestWork
// whose status several writers patch they describe every field of the status
// again, often outweighing the spec), and it shares the strings that repeat
// across thousands of manifests: each decoded object brings its own copy of
// every condition type, status, reason and message ("Applied", "True",
// "AppliedManifestComplete", ...) and of every group, version, kind, resource
// and namespace, which at 10,000 manifests are megabytes of the same few
// words. unique.Make keeps one copy of each, held only while some cached
// object uses it.
func compactForCache(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	switch o := obj.(type) {
	case *workv1.ManifestWork:
		compactConditions(o.Status.Conditions)
		for i := range o.Status.ResourceStatus.Manifests {
			m := &o.Status.ResourceStatus.Manifests[i]
			compactManifestMeta(&m.ResourceMeta)
			compactConditions(m.Conditions)
		}
	case *workv1.AppliedManifestWork:
		for i := range o.Status.AppliedResources {
			r := &o.Status.AppliedResources[i]
			intern(&r.Group, &r.Version, &r.Resource, &r.Namespace)
		}
	}
	return obj, nil // tombstones and other types pass as they are
}

func compactConditions(conds []metav1.Condition) {
	for i := range conds {
		c := &conds[i]
		s := string(c.Status)
		intern(&c.Type, &s, &c.Reason, &c.Message)
		c.Status = metav1.ConditionStatus(s)
	}
}

func compactManifestMeta(m *workv1.ManifestResourceMeta) {
	intern(&m.Group, &m.Version, &m.Kind, &m.Resource, &m.Namespace)
}

// intern replaces each string by the one copy unique keeps of its value.
func intern(ss ...*string) {
	for _, s := range ss {
		if *s != "" {
			*s = unique.Make(*s).Value()
		}
	}
}
