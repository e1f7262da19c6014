package apply

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestSemanticSubset(t *testing.T) {
	tests := []struct {
		name    string
		desired any
		live    any
		want    bool
	}{
		{name: "equal strings", desired: "a", live: "a", want: true},
		{name: "different strings", desired: "a", live: "b"},
		{name: "int64 and float64 of the same number", desired: int64(3), live: float64(3), want: true},
		{name: "float64 and int64 of the same number", desired: float64(3), live: int64(3), want: true},
		{name: "different numbers", desired: int64(3), live: float64(3.5)},
		{name: "large int64 compared exactly", desired: int64(1<<62 + 1), live: int64(1 << 62)},
		{name: "decimal quantity canonicalised by the server", desired: "0.1", live: "100m", want: true},
		{name: "binary quantity canonicalised by the server", desired: "1024Mi", live: "1Gi", want: true},
		{name: "float quantity returned as string", desired: float64(0.5), live: "500m", want: true},
		{name: "int quantity returned as string", desired: int64(2), live: "2", want: true},
		{name: "different quantities", desired: "0.2", live: "100m"},
		{name: "version-like strings are not equated", desired: "1.20", live: "1.2"},
		{name: "a non-canonical live quantity is a change", desired: "100m", live: "0.1"},
		{name: "bools", desired: true, live: true, want: true},
		{name: "different bools", desired: true, live: false},
		{name: "bool against string", desired: true, live: "true"},
		{name: "number against a non-quantity string", desired: int64(1), live: "one"},
		{name: "map with extra live keys", desired: map[string]any{"a": "x"}, live: map[string]any{"a": "x", "b": "y"}, want: true},
		{name: "map missing a key", desired: map[string]any{"a": "x"}, live: map[string]any{"b": "y"}},
		{name: "map against scalar", desired: map[string]any{"a": "x"}, live: "x"},
		{name: "desired zero values the server omitted", desired: map[string]any{
			"paused": false, "count": int64(0), "name": "", "labels": map[string]any{}, "items": []any{},
		}, live: map[string]any{}, want: true},
		{name: "a non-zero value missing on live", desired: map[string]any{"paused": true}, live: map[string]any{}},
		{name: "a zero value against a live value", desired: map[string]any{"paused": false}, live: map[string]any{"paused": true}},
		{name: "null has no opinion", desired: map[string]any{"x": nil}, live: map[string]any{"x": "set"}, want: true},
		{name: "list items with server defaults", desired: []any{
			map[string]any{"name": "c", "image": "nginx"},
		}, live: []any{
			map[string]any{"name": "c", "image": "nginx", "terminationMessagePath": "/dev/termination-log"},
		}, want: true},
		{name: "list of different length", desired: []any{"a"}, live: []any{"a", "b"}},
		{name: "list items in another order", desired: []any{"a", "b"}, live: []any{"b", "a"}},
		{name: "list item that differs", desired: []any{map[string]any{"image": "nginx:1"}}, live: []any{map[string]any{"image": "nginx:2"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, semanticSubset(tt.desired, tt.live))
		})
	}
}

func TestUpToDate(t *testing.T) {
	base := func() *unstructured.Unstructured {
		obj := configMap(t, map[string]any{"key": "v"})
		obj.SetLabels(map[string]string{"app": "hello"})
		obj.SetAnnotations(map[string]string{"note": "x"})
		return obj
	}
	live := func(edit func(*unstructured.Unstructured)) *unstructured.Unstructured {
		obj := base()
		obj.SetOwnerReferences([]metav1.OwnerReference{ownerB, ownerA})
		obj.SetResourceVersion("7")
		obj.SetUID("1234")
		obj.SetLabels(map[string]string{"app": "hello", "other": "actor"})
		obj.SetAnnotations(map[string]string{"note": "x", "other": "actor"})
		obj.SetFinalizers([]string{"example.com/protect"})
		obj.Object["status"] = map[string]any{"phase": "Ready"}
		if edit != nil {
			edit(obj)
		}
		return obj
	}
	tests := []struct {
		name    string
		desired func(*unstructured.Unstructured)
		live    func(*unstructured.Unstructured)
		want    bool
	}{
		{name: "live holds the manifest plus other actors' metadata", want: true},
		{name: "server-set metadata and status in the manifest are not compared", desired: func(obj *unstructured.Unstructured) {
			obj.SetResourceVersion("1")
			obj.SetUID("other")
			obj.SetGeneration(9)
			obj.Object["status"] = map[string]any{"phase": "Pending"}
		}, want: true},
		{name: "the agent's owner reference is not the work's concern", live: func(obj *unstructured.Unstructured) {
			obj.SetOwnerReferences([]metav1.OwnerReference{ownerB})
		}, want: true},
		{name: "a label differs", live: func(obj *unstructured.Unstructured) {
			obj.SetLabels(map[string]string{"app": "other"})
		}},
		{name: "an annotation is missing", live: func(obj *unstructured.Unstructured) {
			obj.SetAnnotations(nil)
		}},
		{name: "a finalizer of the manifest is missing", desired: func(obj *unstructured.Unstructured) {
			obj.SetFinalizers([]string{"example.com/mine"})
		}},
		{name: "an owner reference of the manifest is missing", desired: func(obj *unstructured.Unstructured) {
			obj.SetOwnerReferences([]metav1.OwnerReference{workOwner("parent", "uid-parent")})
		}},
		{name: "content differs", live: func(obj *unstructured.Unstructured) {
			obj.Object["data"] = map[string]any{"key": "changed"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			desired := base()
			if tt.desired != nil {
				tt.desired(desired)
			}
			assert.Equal(t, tt.want, upToDate(desired, live(tt.live)))
		})
	}
}

func TestSameOwner(t *testing.T) {
	noUID := ownerA
	noUID.UID = ""
	assert.True(t, sameOwner(ownerA, ownerA))
	assert.False(t, sameOwner(ownerA, ownerB))
	assert.True(t, sameOwner(noUID, ownerA), "without UID, the name decides")
	assert.False(t, sameOwner(noUID, ownerB))
	renamed := ownerA
	renamed.Name = "renamed"
	assert.True(t, sameOwner(renamed, ownerA), "with both UIDs, the UID decides")
}
