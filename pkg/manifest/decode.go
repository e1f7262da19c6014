// Package manifest turns the raw manifests of a ManifestWork into objects the
// agent can apply: decoding, resource mapping, apply order and the lookup of
// each manifest's configuration.
package manifest

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Decode parses one manifest and checks what the agent needs to apply it:
// apiVersion, kind and metadata.name. generateName is refused because the
// agent could not find the object again on the next reconcile.
func Decode(m workv1.Manifest) (*unstructured.Unstructured, error) {
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
	var missing []string
	if obj.GetAPIVersion() == "" {
		missing = append(missing, "apiVersion")
	}
	if obj.GetKind() == "" {
		missing = append(missing, "kind")
	}
	if obj.GetName() == "" {
		missing = append(missing, "metadata.name")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("manifest has no %s", strings.Join(missing, ", "))
	}
	if obj.GetGenerateName() != "" {
		return nil, fmt.Errorf("manifest %s %q sets metadata.generateName, which is not supported: set metadata.name only", obj.GetKind(), obj.GetName())
	}
	return obj, nil
}
