// Package manifest turns the raw manifests of a ManifestWork into objects the
// agent can apply: decoding, resource mapping, apply order and the lookup of
// each manifest's configuration.
package manifest

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Parse decodes one manifest into the object the agent applies: a JSON
// object with a kind and an apiVersion. A manifest without a kind fails with
// the message OCM's agent gives (its decoder's), raw JSON included. The name
// is not checked here: the agent reports a manifest without one only once it
// knows its resource, as OCM's agent does (NoNameError).
func Parse(m workv1.Manifest) (*unstructured.Unstructured, error) {
	raw := m.Raw
	if len(raw) == 0 && m.Object != nil {
		var err error
		if raw, err = json.Marshal(m.Object); err != nil {
			return nil, fmt.Errorf("cannot encode manifest: %w", err)
		}
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("manifest is empty")
	}
	// apimachinery's decoder keeps whole numbers as int64, as the API server would.
	content := map[string]any{}
	if err := utiljson.Unmarshal(raw, &content); err != nil {
		return nil, fmt.Errorf("manifest is not a JSON object: %v", err)
	}
	obj := &unstructured.Unstructured{Object: content}
	switch {
	case obj.GetKind() == "":
		return nil, runtime.NewMissingKindErr(string(raw))
	case obj.GetAPIVersion() == "":
		return nil, fmt.Errorf("manifest has no apiVersion")
	}
	return obj, nil
}

// Decode is Parse that also requires what the agent needs to find the object
// again on the next reconcile: metadata.name, and no generateName. The hub
// refuses a work with a manifest that fails it.
func Decode(m workv1.Manifest) (*unstructured.Unstructured, error) {
	obj, err := Parse(m)
	if err != nil {
		return nil, err
	}
	if obj.GetName() == "" {
		return nil, fmt.Errorf("manifest has no metadata.name")
	}
	if err := CheckGenerateName(obj); err != nil {
		return nil, err
	}
	return obj, nil
}

// CheckGenerateName refuses a manifest with metadata.generateName: the
// agent could not find the object it creates again.
func CheckGenerateName(obj *unstructured.Unstructured) error {
	if obj.GetGenerateName() != "" {
		return fmt.Errorf("manifest %s %q sets metadata.generateName, which is not supported: set metadata.name only", obj.GetKind(), obj.GetName())
	}
	return nil
}
