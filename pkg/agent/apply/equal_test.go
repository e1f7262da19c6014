package apply

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
)

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
			assert.Equal(t, tt.want, diff.Equal(desired, live(tt.live)))
		})
	}
}
