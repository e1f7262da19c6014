// Package admission validates ManifestWorks as the hub admits them on create
// and update. It is a pure library: the webhook server wires it in.
package admission

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
)

// DefaultManifestLimit is the default of --manifest-limit: 500 KiB.
const DefaultManifestLimit = 500 * 1024

// Options configures Validate.
type Options struct {
	// ManifestLimit is the most bytes the manifests' raw JSON may total
	// (--manifest-limit). Zero or less means DefaultManifestLimit.
	ManifestLimit int
}

// objectKey identifies the object a manifest applies; the version is left out
// because two versions of one object are still the same object.
type objectKey struct {
	group, kind, namespace, name string
}

func (k objectKey) String() string {
	gk := schema.GroupKind{Group: k.group, Kind: k.kind}.String()
	if k.namespace == "" {
		return fmt.Sprintf("%s %q", gk, k.name)
	}
	return fmt.Sprintf("%s %q in namespace %q", gk, k.name, k.namespace)
}

// Validate returns every problem of a work's manifests: none at all, a
// manifest the agent could not apply, two manifests for the same object, or
// more bytes in total than opts.ManifestLimit.
func Validate(work *workv1.ManifestWork, opts Options) field.ErrorList {
	limit := opts.ManifestLimit
	if limit <= 0 {
		limit = DefaultManifestLimit
	}
	path := field.NewPath("spec", "workload", "manifests")
	if work == nil {
		return field.ErrorList{field.Required(field.NewPath("spec"), "the ManifestWork is empty")}
	}
	manifests := work.Spec.Workload.Manifests
	if len(manifests) == 0 {
		return field.ErrorList{field.Required(path, "a ManifestWork needs at least one manifest under spec.workload.manifests")}
	}

	var errs field.ErrorList
	first := map[objectKey]int{}
	total := 0
	for i, m := range manifests {
		total += size(m)
		// Decode checks what the agent needs: a JSON object with apiVersion,
		// kind and metadata.name, and no generateName.
		obj, err := manifest.Decode(m)
		if err != nil {
			errs = append(errs, invalid(path.Index(i), err.Error()))
			continue
		}
		gvk := obj.GroupVersionKind()
		key := objectKey{group: gvk.Group, kind: gvk.Kind, namespace: obj.GetNamespace(), name: obj.GetName()}
		if j, ok := first[key]; ok {
			errs = append(errs, &field.Error{
				Type:     field.ErrorTypeDuplicate,
				Field:    path.Index(i).String(),
				BadValue: field.OmitValueType{},
				Detail:   fmt.Sprintf("%s is already in %s; each object may appear only once in a ManifestWork", key, path.Index(j)),
			})
			continue
		}
		first[key] = i
	}
	if total > limit {
		errs = append(errs, &field.Error{
			Type:     field.ErrorTypeTooLong,
			Field:    path.String(),
			BadValue: field.OmitValueType{},
			Detail:   fmt.Sprintf("the manifests total %d bytes, over the limit of %d (--manifest-limit); split them across several ManifestWorks", total, limit),
		})
	}
	return errs
}

// invalid reports a problem without echoing the whole manifest back.
func invalid(p *field.Path, detail string) *field.Error {
	return field.Invalid(p, field.OmitValueType{}, detail)
}

// size is the length of a manifest's raw JSON, encoding Object when Raw is unset.
func size(m workv1.Manifest) int {
	if len(m.Raw) > 0 || m.Object == nil {
		return len(m.Raw)
	}
	raw, err := json.Marshal(m.Object)
	if err != nil {
		return 0 // Decode reports the manifest as unencodable.
	}
	return len(raw)
}
