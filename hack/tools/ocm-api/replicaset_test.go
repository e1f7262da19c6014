package ocmapi

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"k8s.io/apimachinery/pkg/util/yaml"
	ocmclusterv1beta1 "open-cluster-management.io/api/cluster/v1beta1"
	ocmworkv1alpha1 "open-cluster-management.io/api/work/v1alpha1"
)

// The objects pkg/apis decodes into our types, as OCM writes them, are
// OCM's: its published types decode them with unknown fields refused, and
// encode them back with the same keys.
func TestOCMTypesDecodeReplicaSetTestdata(t *testing.T) {
	for file, obj := range map[string]any{
		"manifestworkreplicaset.yaml": &ocmworkv1alpha1.ManifestWorkReplicaSet{},
		"placementdecision.yaml":      &ocmclusterv1beta1.PlacementDecision{},
	} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "..", "pkg", "apis", "testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := yaml.ToJSON(data)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(doc))
			dec.DisallowUnknownFields()
			if err := dec.Decode(obj); err != nil {
				t.Fatalf("OCM's types refuse %s: %v", file, err)
			}
			again, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			if want, got := keyPaths(t, doc), keyPaths(t, again); !slices.Equal(want, got) {
				t.Errorf("keys of %s through OCM's types:\nwant %v\ngot  %v", file, want, got)
			}
		})
	}
}

// keyPaths lists the paths of every key of a JSON document, sorted; list
// items are "[]" (a manifest's own keys included).
func keyPaths(t *testing.T, doc []byte) []string {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	var paths []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch n := v.(type) {
		case map[string]any:
			for k, child := range n {
				paths = append(paths, prefix+"."+k)
				walk(prefix+"."+k, child)
			}
		case []any:
			for _, child := range n {
				walk(prefix+"[]", child)
			}
		}
	}
	walk("", v)
	sort.Strings(paths)
	return slices.Compact(paths)
}
