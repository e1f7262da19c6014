package apply

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A jqPathExpression picks fields on both objects: the same path pairs with
// itself, a key only the live object has is kept from it, a key only the
// manifest has is taken out (live value not found), and list items a filter
// picks pair by order whatever their positions.
func TestJQPathExpand(t *testing.T) {
	tests := []struct {
		name       string
		expression string
		body, live map[string]any
		want       map[string]any // body path (joined by ".") → live value; nil: not found in live
	}{
		{
			name:       "keys of a map, in either object",
			expression: ".data[]",
			body:       map[string]any{"data": map[string]any{"a": "1", "c": "3"}},
			live:       map[string]any{"data": map[string]any{"a": "9", "b": "8"}},
			want:       map[string]any{"data.a": "9", "data.b": "8", "data.c": nil},
		},
		{
			name:       "keys that look like list indexes are keys: they pair only with themselves",
			expression: ".data[]",
			body:       map[string]any{"data": map[string]any{"80": "a"}},
			live:       map[string]any{"data": map[string]any{"81": "b"}},
			want:       map[string]any{"data.80": nil, "data.81": "b"},
		},
		{
			name:       "a filter of list items pairs them by order",
			expression: `.spec.containers[] | select(.name == "app") | .image`,
			body:       map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "app", "image": "v1"}}}},
			live: map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "sidecar", "image": "s"}, map[string]any{"name": "app", "image": "v2"}}}},
			want: map[string]any{"spec.containers.0.image": "v2"},
		},
		{
			name:       "the n-th item a filter picks pairs with the n-th picked live, as with a JSONPath filter",
			expression: `.spec.containers[] | select(.name == "app") | .image`,
			body: map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "app", "image": "v1"}, map[string]any{"name": "app", "image": "v2"}}}},
			live: map[string]any{"spec": map[string]any{"containers": []any{
				map[string]any{"name": "sidecar", "image": "s"}, map[string]any{"name": "app", "image": "v9"}}}},
			want: map[string]any{"spec.containers.0.image": "v9", "spec.containers.1.image": nil},
		},
		{
			name:       "numbers as the API decodes them (int64) are compared",
			expression: `.spec.ports[] | select(.port == 80) | .nodePort`,
			body:       map[string]any{"spec": map[string]any{"ports": []any{map[string]any{"port": int64(80)}}}},
			live:       map[string]any{"spec": map[string]any{"ports": []any{map[string]any{"port": int64(80), "nodePort": int64(30080)}}}},
			want:       map[string]any{"spec.ports.0.nodePort": int64(30080)},
		},
		{
			name:       "a field neither object has: picked, not found live",
			expression: ".data.none",
			body:       map[string]any{"data": map[string]any{}},
			live:       map[string]any{},
			want:       map[string]any{"data.none": nil},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := parseJQPath(tt.expression)
			require.NoError(t, err)
			matches, err := q.expand(context.Background(), tt.body, tt.live)
			require.NoError(t, err)
			got := map[string]any{}
			for _, m := range matches {
				var v any
				if m.liveFound {
					v = m.liveValue
				}
				got[joinPath(m.body)] = v
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func joinPath(p fieldPath) string {
	out := ""
	for i, s := range p {
		if i > 0 {
			out += "."
		}
		out += s
	}
	return out
}

// An expression is compiled once; it sees no environment variables.
func TestJQPathCompiledOnceWithoutEnvironment(t *testing.T) {
	t.Setenv("WORK_SECRET", "s3cret")
	a, err := parseJQPath(".data[env.WORK_SECRET // \"none\"]")
	require.NoError(t, err)
	b, err := parseJQPath(".data[env.WORK_SECRET // \"none\"]")
	require.NoError(t, err)
	assert.Same(t, a.code, b.code)
	fields, err := a.fields(context.Background(), map[string]any{"data": map[string]any{}})
	require.NoError(t, err)
	require.Len(t, fields, 1)
	assert.Equal(t, fieldPath{"data", "none"}, fields[0].path)
}

// An expression may pick up to jqMaxPaths fields of an object; one that
// picks more fails, naming the bound.
func TestJQPathPicksAtMostMaxPaths(t *testing.T) {
	// Picking 10,000 fields can take longer than the time bound on a
	// loaded machine; this test is about the count.
	defer func(d time.Duration) { jqTimeout = d }(jqTimeout)
	jqTimeout = time.Minute
	q, err := parseJQPath(".data[]")
	require.NoError(t, err)
	data := map[string]any{}
	for i := range jqMaxPaths {
		data[fmt.Sprintf("k%d", i)] = "v"
	}
	matches, err := q.expand(context.Background(), map[string]any{"data": data}, nil)
	require.NoError(t, err)
	assert.Len(t, matches, jqMaxPaths)

	data["one-more"] = "v"
	_, err = q.expand(context.Background(), map[string]any{"data": data}, nil)
	assert.EqualError(t, err, "it picks more than 10000 fields")
}
