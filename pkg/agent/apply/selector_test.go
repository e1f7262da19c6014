package apply

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSelectorExpand(t *testing.T) {
	container := func(name, image string) map[string]any { return map[string]any{"name": name, "image": image} }
	pod := func(containers ...any) map[string]any {
		return map[string]any{"spec": map[string]any{"containers": containers}}
	}
	type field struct {
		body  string // the body path, steps joined by /
		live  any    // nil: the live object has no such field
		found bool
		id    string
	}
	tests := []struct {
		name       string
		path       string
		body, live map[string]any
		want       []field
	}{
		{
			name: "a plain path",
			path: ".spec.replicas",
			body: map[string]any{"spec": map[string]any{"replicas": 3}}, live: map[string]any{"spec": map[string]any{"replicas": 5}},
			want: []field{{body: "spec/replicas", live: 5, found: true, id: "spec/replicas"}},
		},
		{
			name: "a filter pairs the items it picks, wherever they are",
			path: `.spec.containers[?(@.name=="app")].image`,
			body: pod(container("app", "app:2")),
			live: pod(container("istio-proxy", "proxy:1"), container("app", "app:1")),
			want: []field{{body: "spec/containers/0/image", live: "app:1", found: true, id: `spec/containers/[?(@.name=="app")]#0/image`}},
		},
		{
			name: "a filter the live object does not satisfy leaves the field without a live value",
			path: `.spec.containers[?(@.name=="app")].image`,
			body: pod(container("app", "app:2")),
			live: pod(container("other", "x")),
			want: []field{{body: "spec/containers/0/image", id: `spec/containers/[?(@.name=="app")]#0/image`}},
		},
		{
			name: "a filter that picks nothing does nothing",
			path: `.spec.containers[?(@.name=="none")].image`,
			body: pod(container("app", "app:2")), live: pod(container("app", "app:1")),
		},
		{
			name: "a filter on a map picks nothing",
			path: `.spec[?(@.name=="app")].image`,
			body: pod(container("app", "app:2")), live: pod(container("app", "app:1")),
		},
		{
			name: "[*] on a list takes the body's items, paired by position",
			path: ".spec.containers[*].image",
			body: pod(container("a", "a:2"), container("b", "b:2")),
			live: pod(container("a", "a:1")),
			want: []field{
				{body: "spec/containers/0/image", live: "a:1", found: true, id: "spec/containers/0/image"},
				{body: "spec/containers/1/image", id: "spec/containers/1/image"},
			},
		},
		{
			name: "* on a map takes the keys of both",
			path: ".data.*",
			body: map[string]any{"data": map[string]any{"a": "1", "b": "2"}},
			live: map[string]any{"data": map[string]any{"b": "20", "c": "30"}},
			want: []field{
				{body: "data/a", id: "data/a"},
				{body: "data/b", live: "20", found: true, id: "data/b"},
				{body: "data/c", live: "30", found: true, id: "data/c"},
			},
		},
		{
			name: "a negative index counts from the end of each list",
			path: ".spec.containers[-1].image",
			body: pod(container("a", "a:2"), container("b", "b:2"), container("c", "c:2")),
			live: pod(container("a", "a:1"), container("c", "c:1")),
			want: []field{{body: "spec/containers/2/image", live: "c:1", found: true, id: "spec/containers/[-1]#0/image"}},
		},
		{
			name: "a slice",
			path: ".spec.containers[1:].image",
			body: pod(container("a", "a:2"), container("b", "b:2")),
			live: pod(container("a", "a:1"), container("b", "b:1")),
			want: []field{{body: "spec/containers/1/image", live: "b:1", found: true, id: "spec/containers/[1:]#0/image"}},
		},
		{
			name: "an index out of range picks nothing",
			path: ".spec.containers[5:6].image",
			body: pod(container("a", "a:2")), live: pod(container("a", "a:1")),
		},
		{
			name: "no live object",
			path: `.spec.containers[?(@.name=="app")].image`,
			body: pod(container("app", "app:2")),
			want: []field{{body: "spec/containers/0/image", id: `spec/containers/[?(@.name=="app")]#0/image`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := parseJSONPath(tt.path)
			require.NoError(t, err)
			var got []field
			for _, m := range s.expand(tt.body, tt.live) {
				got = append(got, field{body: joinSteps(m.body), live: m.liveValue, found: m.liveFound, id: joinSteps(m.id)})
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func joinSteps(fp fieldPath) string { return strings.Join(fp, "/") }
