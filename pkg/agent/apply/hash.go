package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// ObjectHash is the value of the object-hash annotation: the lowercase hex
// SHA-256 of the canonical JSON of the manifest as the work gives it.
//
// encoding/json writes map keys sorted and numbers in their shortest form
// (3 and 3.0 both become 3), so the hash depends only on the content, not on
// key order or on the decoder that produced the map. The agent's own
// annotations are left out, so hashing an object we stamped gives the same
// value as hashing the manifest it came from.
func ObjectHash(desired *unstructured.Unstructured) (string, error) {
	return hashJSON(withoutOwnAnnotations(desired).Object)
}

// ConfigSpecHash is the value of the config-spec-hash annotation written by
// server-side apply: the hash of the manifest together with the
// updateStrategy of its manifestConfig. It changes whenever the work changes
// what it asks for or how (force, field manager, ignoreFields), which is what
// the OnSpokeChange condition needs to tell the work's changes apart from
// changes made on the managed cluster.
func ConfigSpecHash(desired *unstructured.Unstructured, config *workv1.ManifestConfigOption) (string, error) {
	input := struct {
		Manifest       map[string]any         `json:"manifest"`
		UpdateStrategy *workv1.UpdateStrategy `json:"updateStrategy,omitempty"`
	}{Manifest: withoutOwnAnnotations(desired).Object}
	if config != nil {
		input.UpdateStrategy = config.UpdateStrategy
	}
	return hashJSON(input)
}

func hashJSON(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("cannot hash manifest: %w", err)
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:]), nil
}

// withoutOwnAnnotations returns a copy of obj without the annotations the
// agent writes itself.
func withoutOwnAnnotations(obj *unstructured.Unstructured) *unstructured.Unstructured {
	out := obj.DeepCopy()
	annotations := out.GetAnnotations()
	if annotations == nil {
		return out
	}
	delete(annotations, workv1.ObjectHashAnnotation)
	delete(annotations, workv1.ConfigSpecHashAnnotation)
	if len(annotations) == 0 {
		unstructured.RemoveNestedField(out.Object, "metadata", "annotations")
		return out
	}
	out.SetAnnotations(annotations)
	return out
}
