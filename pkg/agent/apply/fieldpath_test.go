package apply

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseJSONPath(t *testing.T) {
	names := func(steps ...string) selector { return selectorOf(steps) }
	tests := []struct {
		path    string
		want    selector
		wantErr string
	}{
		{path: ".data", want: names("data")},
		{path: ".spec.replicas", want: names("spec", "replicas")},
		{path: "{.spec.replicas}", want: names("spec", "replicas")},
		{path: "$.spec.replicas", want: names("spec", "replicas")},
		{path: ".metadata.labels.foo", want: names("metadata", "labels", "foo")},
		{path: ".metadata.annotations['example.com/x']", want: names("metadata", "annotations", "example.com/x")},
		{path: `.metadata.labels["app.kubernetes.io/name"]`, want: names("metadata", "labels", "app.kubernetes.io/name")},
		{path: `.metadata.labels.app\.kubernetes\.io/name`, want: names("metadata", "labels", "app.kubernetes.io/name")},
		{path: ".spec.template.spec.containers[0].image", want: names("spec", "template", "spec", "containers", "0", "image")},
		{path: ".data.*", want: selector{{name: "data"}, {all: true}}},
		{path: `.data.\*`, want: names("data", "*")},
		{path: ".spec.containers[*].image", want: selector{{name: "spec"}, {name: "containers"}, {all: true}, {name: "image"}}},
		{path: `.spec.containers[?(@.name=="app")].image`,
			want: selector{{name: "spec"}, {name: "containers"}, {pick: `[?(@.name=="app")]`}, {name: "image"}}},
		{path: `.items[?(@.name=='a.b)]')].x`, want: selector{{name: "items"}, {pick: `[?(@.name=='a.b)]')]`}, {name: "x"}}},
		{path: ".items[-1]", want: selector{{name: "items"}, {pick: "[-1]"}}},
		{path: ".items[1:3]", want: selector{{name: "items"}, {pick: "[1:3]"}}},
		{path: ".items[0,2]", want: selector{{name: "items"}, {pick: "[0,2]"}}},
		{path: "", wantErr: "path is empty"},
		{path: "data", wantErr: `unexpected 'd' at offset 0, expected '.' or '['`},
		{path: ".", wantErr: "empty field name at offset 1"},
		{path: ".spec.", wantErr: "empty field name at offset 6"},
		{path: "..data", wantErr: "recursive descent (..) at offset 0 is not supported"},
		{path: ".spec[", wantErr: "unterminated '[' at offset 5"},
		{path: ".items[?(@.name=='a']", wantErr: "unterminated filter at offset 6"},
		{path: ".items[abc]", wantErr: "unsupported subscript [abc] at offset 6: "},
		{path: ".data['key", wantErr: "unterminated quote at offset 6"},
		{path: ".data['key'x", wantErr: "expected ']' at offset 11"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, err := parseJSONPath(tt.path)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.True(t, strings.HasPrefix(err.Error(), tt.wantErr), "error %q", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseJSONPointer(t *testing.T) {
	tests := []struct {
		pointer string
		want    fieldPath
		wantErr string
	}{
		{pointer: "/data", want: fieldPath{"data"}},
		{pointer: "/data/key", want: fieldPath{"data", "key"}},
		{pointer: "/metadata/labels/app.kubernetes.io~1name", want: fieldPath{"metadata", "labels", "app.kubernetes.io/name"}},
		{pointer: "/data/a~0b", want: fieldPath{"data", "a~b"}},
		{pointer: "/data/~01", want: fieldPath{"data", "~1"}},
		{pointer: "/spec/containers/0/image", want: fieldPath{"spec", "containers", "0", "image"}},
		{pointer: "", wantErr: "the empty pointer selects the whole object"},
		{pointer: "data", wantErr: "a JSON pointer must start with '/'"},
		{pointer: "/data/a~2", wantErr: `invalid escape in "a~2": '~' must be followed by 0 or 1`},
		{pointer: "/data/a~", wantErr: `invalid escape in "a~": '~' must be followed by 0 or 1`},
	}
	for _, tt := range tests {
		t.Run(tt.pointer, func(t *testing.T) {
			got, err := parseJSONPointer(tt.pointer)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestFieldPathGetSetRemove(t *testing.T) {
	newObj := func() map[string]any {
		return map[string]any{
			"spec": map[string]any{
				"replicas":   int64(3),
				"containers": []any{map[string]any{"name": "a", "image": "nginx:1"}},
			},
		}
	}

	t.Run("get", func(t *testing.T) {
		obj := newObj()
		v, ok := fieldPath{"spec", "replicas"}.get(obj)
		assert.True(t, ok)
		assert.Equal(t, int64(3), v)
		v, ok = fieldPath{"spec", "containers", "0", "image"}.get(obj)
		assert.True(t, ok)
		assert.Equal(t, "nginx:1", v)
		_, ok = fieldPath{"spec", "containers", "1", "image"}.get(obj)
		assert.False(t, ok, "index out of range")
		_, ok = fieldPath{"spec", "replicas", "deeper"}.get(obj)
		assert.False(t, ok, "through a scalar")
		_, ok = fieldPath{"spec", "missing"}.get(obj)
		assert.False(t, ok)
	})

	t.Run("set creates missing maps", func(t *testing.T) {
		obj := newObj()
		require.True(t, fieldPath{"metadata", "labels", "app"}.set(obj, "hello"))
		assert.Equal(t, map[string]any{"labels": map[string]any{"app": "hello"}}, obj["metadata"])
	})

	t.Run("set replaces a list item field", func(t *testing.T) {
		obj := newObj()
		require.True(t, fieldPath{"spec", "containers", "0", "image"}.set(obj, "nginx:2"))
		v, _ := fieldPath{"spec", "containers", "0", "image"}.get(obj)
		assert.Equal(t, "nginx:2", v)
	})

	t.Run("set cannot invent a list item", func(t *testing.T) {
		obj := newObj()
		assert.False(t, fieldPath{"spec", "containers", "3", "image"}.set(obj, "nginx:2"))
		assert.Len(t, obj["spec"].(map[string]any)["containers"], 1)
	})

	t.Run("remove", func(t *testing.T) {
		obj := newObj()
		fieldPath{"spec", "replicas"}.remove(obj)
		_, ok := fieldPath{"spec", "replicas"}.get(obj)
		assert.False(t, ok)
		fieldPath{"spec", "containers", "0"}.remove(obj)
		assert.Len(t, obj["spec"].(map[string]any)["containers"], 1, "list items are never removed")
		fieldPath{"nothing", "here"}.remove(obj)
		assert.NotContains(t, obj, "nothing", "removing a missing field creates nothing")
	})
}
