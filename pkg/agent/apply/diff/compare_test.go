package diff

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// object is a ConfigMap-like object with the given content.
func object(content map[string]any) *unstructured.Unstructured {
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}
	for k, v := range content {
		obj.Object[k] = v
	}
	obj.SetName("cm")
	obj.SetNamespace("ns")
	return obj
}

func TestEqualValues(t *testing.T) {
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
			desired, live := object(map[string]any{"spec": tt.desired}), object(map[string]any{"spec": tt.live})
			assert.Equal(t, tt.want, Equal(desired, live), "Equal")
			assert.Equal(t, tt.want, Compare(desired, live, 10).InSync(), "Compare")
		})
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name    string
		desired map[string]any
		live    map[string]any
		edit    func(desired, live *unstructured.Unstructured)
		limit   int
		want    []string // path: desired -> live
		total   int
	}{
		{name: "in sync", desired: map[string]any{"data": map[string]any{"a": "1"}},
			live: map[string]any{"data": map[string]any{"a": "1", "extra": "x"}}},
		{name: "changed and missing fields in path order",
			desired: map[string]any{"data": map[string]any{"b": "2", "a": "1"}, "spec": map[string]any{"replicas": int64(3)}},
			live:    map[string]any{"data": map[string]any{"a": "9"}},
			limit:   10, total: 3,
			want: []string{`.data.a: "1" -> "9"`, `.data.b: "2" -> (absent)`, `.spec: {"replicas":3} -> (absent)`}},
		{name: "list items by index, odd keys quoted",
			desired: map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx:1"}}},
				"data": map[string]any{"tls.crt": "x", "a b": "y"}},
			live: map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx:2"}}},
				"data": map[string]any{"tls.crt": "z", "a b": "w"}},
			limit: 10, total: 3,
			want: []string{`.data["a b"]: "y" -> "w"`, `.data["tls.crt"]: (masked) -> (masked)`, `.spec.containers[0].image: "nginx:1" -> "nginx:2"`}},
		{name: "a list of another length differs as a whole",
			desired: map[string]any{"spec": map[string]any{"args": []any{"a"}}},
			live:    map[string]any{"spec": map[string]any{"args": []any{"a", "b"}}},
			limit:   10, total: 1, want: []string{`.spec.args: ["a"] -> ["a","b"]`}},
		{name: "metadata the manifest sets",
			edit: func(desired, live *unstructured.Unstructured) {
				desired.SetLabels(map[string]string{"app": "a", "tier": "web"})
				desired.SetFinalizers([]string{"example.com/keep"})
				live.SetLabels(map[string]string{"app": "b"})
			},
			limit: 10, total: 3,
			want: []string{`.metadata.labels.app: "a" -> "b"`, `.metadata.labels.tier: "web" -> (absent)`, `.metadata.finalizers: "example.com/keep" -> (absent)`}},
		{name: "removals the live object still holds",
			edit: func(desired, live *unstructured.Unstructured) {
				desired.SetLabels(map[string]string{"stale-": "", "gone-": ""})
				desired.SetAnnotations(map[string]string{"note--": ""})
				desired.SetOwnerReferences([]metav1.OwnerReference{
					{APIVersion: "apps/v2", Kind: "Deployment", Name: "old", UID: "uid-old-"},
					{APIVersion: "apps/v1", Kind: "Deployment", Name: "absent", UID: "uid-x-"},
				})
				live.SetLabels(map[string]string{"stale": "1"})
				live.SetAnnotations(map[string]string{"note": "x"})
				live.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "old", UID: "uid-other"}})
			},
			limit: 10, total: 3,
			want: []string{`.metadata.labels.stale: (absent) -> "1"`, `.metadata.annotations.note: (absent) -> "x"`, `.metadata.ownerReferences: (absent) -> "old"`}},
		{name: "removals the live object does not hold are in sync",
			edit: func(desired, live *unstructured.Unstructured) {
				desired.SetLabels(map[string]string{"stale-": "", "app": "a"})
				desired.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "old", UID: "uid-old-"}})
				live.SetLabels(map[string]string{"app": "a", "stale-x": "1"})
				live.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "v1", Kind: "Deployment", Name: "old", UID: "uid-old"}})
			}},
		{name: "bounded: the first listed, all counted",
			desired: map[string]any{"data": map[string]any{"a": "1", "b": "2", "c": "3"}},
			live:    map[string]any{"data": map[string]any{}},
			limit:   2, total: 3,
			want: []string{`.data.a: "1" -> (absent)`, `.data.b: "2" -> (absent)`}},
		{name: "long values are cut",
			desired: map[string]any{"data": map[string]any{"a": string(make([]byte, 0)) + "0123456789012345678901234567890123456789012345678901234567890123456789"}},
			live:    map[string]any{"data": map[string]any{"a": "short"}},
			limit:   10, total: 1,
			want: []string{`.data.a: "012345678901234567890123456789012345678901234567890123456789... -> "short"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			desired, live := object(tt.desired), object(tt.live)
			if tt.edit != nil {
				tt.edit(desired, live)
			}
			r := Compare(desired, live, tt.limit)
			assert.Equal(t, tt.total, r.Total)
			assert.Equal(t, tt.total == 0, Equal(desired, live))
			var got []string
			for _, d := range r.Differences {
				want, have := r.Values(d)
				got = append(got, d.Path.String()+": "+want+" -> "+have)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestCompareIsStable(t *testing.T) {
	data := map[string]any{}
	for _, k := range []string{"e", "d", "c", "b", "a", "f", "g", "h"} {
		data[k] = k
	}
	desired, live := object(map[string]any{"data": data}), object(map[string]any{"data": map[string]any{}})
	first := Compare(desired, live, 3).Describe("%[1]s")
	for range 20 {
		require.Equal(t, first, Compare(desired, live, 3).Describe("%[1]s"))
	}
	assert.Equal(t, ".data.a; .data.b; .data.c; and 5 more", first)
}

func TestSecretValuesAreMasked(t *testing.T) {
	desired := object(map[string]any{"data": map[string]any{"color": "Ymx1ZQ=="}})
	desired.SetKind("Secret")
	live := object(map[string]any{"data": map[string]any{"color": "cmVk"}})
	r := Compare(desired, live, 10)
	assert.Equal(t, ".data.color: manifest (masked), live (masked)", r.Describe("%[1]s: manifest %[2]s, live %[3]s"))
}

func TestSensitive(t *testing.T) {
	tests := map[string]bool{
		"password": true, "dbPassword": true, "db_password": true, "DB_PASSWORD": true, "sshKey": true,
		"APIKey": true, "apiKey": true, "tls.crt": true, "clientSecret": true, "token": true, "bearerToken": true,
		"caCert": true, "certificate-authority-data": true, "key1": true,
		"monkey": false, "keyboard": false, "color": false, "replicas": false, "secretary": false, "image": false,
	}
	for name, want := range tests {
		assert.Equal(t, want, Sensitive(Path{{Key: "data"}, {Key: name}}), name)
	}
	assert.True(t, Sensitive(Path{{Key: "credentials"}, {Index: 0, IsIndex: true}, {Key: "value"}}), "a field under a credential")
}

func TestChangedBy(t *testing.T) {
	live := object(map[string]any{
		"data": map[string]any{"color": "red", "size": "L"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:2"}}},
	})
	live.SetManagedFields([]metav1.ManagedFieldsEntry{
		{Manager: "work", Operation: metav1.ManagedFieldsOperationUpdate, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:data":{".":{},"f:size":{}}}`)}},
		{Manager: "kubectl-edit", Operation: metav1.ManagedFieldsOperationUpdate, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:data":{"f:color":{}}}`)}},
		{Manager: "rollout", Operation: metav1.ManagedFieldsOperationApply, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{"f:image":{}}}}}`)}},
		{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status", FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:data":{"f:color":{}}}`)}},
	})
	tests := []struct {
		name    string
		desired map[string]any
		want    []string
	}{
		{name: "the owner of a changed value", desired: map[string]any{"data": map[string]any{"color": "blue"}}, want: []string{"kubectl-edit"}},
		{name: "the owner of a list item's field, matched by its key", desired: map[string]any{
			"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1"}}}}, want: []string{"rollout"}},
		{name: "a removed field has no owner", desired: map[string]any{"data": map[string]any{"gone": "x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Compare(object(tt.desired), live, 10)
			require.False(t, r.InSync())
			assert.Equal(t, tt.want, ChangedBy(live, r))
		})
	}
	r := Compare(object(map[string]any{"data": map[string]any{"color": "blue", "size": "S"}}), live, 10)
	assert.Equal(t, []string{"work", "kubectl-edit"}, ChangedBy(live, r))
	assert.Equal(t, []string{"kubectl-edit"}, ChangedBy(live, r, "work"), "the agent's own manager is not named")
}

func TestCompareExact(t *testing.T) {
	tests := []struct {
		name    string
		desired map[string]any
		live    map[string]any
		exact   []string // nil: every field but metadata and status
		labels  map[string]string
		want    []string // path: desired -> live
	}{
		{name: "a key only live has in an exact field is removed",
			desired: map[string]any{"data": map[string]any{"a": "1"}},
			live:    map[string]any{"data": map[string]any{"a": "1", "b": "2"}},
			exact:   []string{"data"},
			want:    []string{`.data.b: (absent) -> "2"`}},
		{name: "fields outside the exact ones stay a subset comparison",
			desired: map[string]any{"data": map[string]any{"a": "1"}, "spec": map[string]any{"x": "1"}},
			live:    map[string]any{"data": map[string]any{"a": "1"}, "spec": map[string]any{"x": "1", "y": "2"}},
			exact:   []string{"data"}},
		{name: "a field added inside a list item",
			desired: map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c"}}}},
			live: map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "c", "env": []any{map[string]any{"name": "FOO", "value": "bar"}}}}}},
			want: []string{`.spec.containers[0].env: (absent) -> [{"name":"FOO","value":"bar"}]`}},
		{name: "a top-level field only live has",
			desired: map[string]any{"spec": map[string]any{}},
			live:    map[string]any{"spec": map[string]any{}, "extra": "x", "status": map[string]any{"ready": true}},
			want:    []string{`.extra: (absent) -> "x"`}},
		{name: "empty values only live has are none: the server omits them",
			desired: map[string]any{"spec": map[string]any{"a": "1"}},
			live:    map[string]any{"spec": map[string]any{"a": "1", "b": map[string]any{}, "c": "", "d": []any{}}}},
		{name: "labels only live has are kept: metadata stays a subset",
			desired: map[string]any{"spec": map[string]any{"a": "1"}},
			live:    map[string]any{"spec": map[string]any{"a": "1"}},
			labels:  map[string]string{"team": "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			desired, live := object(tt.desired), object(tt.live)
			live.SetLabels(tt.labels)
			r := CompareExact(desired, live, tt.exact, 10)
			var got []string
			for _, d := range r.Differences {
				want, have := r.Values(d)
				got = append(got, d.Path.String()+": "+want+" -> "+have)
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, len(tt.want), r.Total)
		})
	}
}
