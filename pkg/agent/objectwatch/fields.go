package objectwatch

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/sharedstrings"
)

// keepFields returns the transform of a cache that keeps, besides what
// stripMetadata keeps, the given fields of each object (such as the status
// fields a health rule reads) and nothing else: a Deployment's pod template,
// or a custom resource's spec, never reaches the cache. Repeated strings
// take the copies of strs.
func keepFields(fields [][]string, strs *sharedstrings.Table) cache.TransformFunc {
	strip := stripMetadata(strs)
	return func(obj interface{}) (interface{}, error) {
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return obj, nil // tombstones pass as they are
		}
		if _, err := strip(u); err != nil {
			return nil, err
		}
		apiVersion, kind := u.GetAPIVersion(), u.GetKind()
		strs.Intern(&apiVersion, &kind)
		kept := map[string]any{
			"apiVersion": apiVersion,
			"kind":       kind,
			"metadata":   u.Object["metadata"],
		}
		for _, path := range fields {
			if v, found, err := unstructured.NestedFieldNoCopy(u.Object, path...); found && err == nil {
				_ = unstructured.SetNestedField(kept, v, path...)
			}
		}
		u.Object = kept
		return u, nil
	}
}

// partialMetadata is the metadata of a cached object, as the metadata-only
// caches hold it.
func partialMetadata(u *unstructured.Unstructured) *metav1.PartialObjectMetadata {
	p := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: u.GetAPIVersion(), Kind: u.GetKind()}}
	if m, ok := u.Object["metadata"].(map[string]any); ok {
		// Converting a copy: the cached map is shared with other readers.
		_ = runtime.DefaultUnstructuredConverter.FromUnstructured(runtime.DeepCopyJSON(m), &p.ObjectMeta)
	}
	return p
}
