package render

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	deployment = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	configMap  = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	widget     = schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
)

var cluster1 = ClusterFacts{
	Name:   "cluster1",
	Labels: map[string]string{"env": "prod", "replicas": "5", "paused": "true", "surge": "25%"},
	Claims: map[string]string{"region.open-cluster-management.io": "eu-west-1"},
}

func TestSubstitute(t *testing.T) {
	for _, tc := range []struct {
		name    string
		value   string // JSON
		gvk     schema.GroupVersionKind
		path    []string
		want    string // JSON
		wantErr string
		syntax  bool // admission refuses it too, without a cluster
	}{
		{name: "the cluster's name", value: `"${cluster.name}"`, gvk: configMap, path: []string{"data", "cluster"}, want: `"cluster1"`},
		{name: "a label", value: `"${cluster.labels['env']}"`, gvk: configMap, path: []string{"data", "env"}, want: `"prod"`},
		{name: "a claim", value: `"${cluster.claims['region.open-cluster-management.io']}"`, gvk: configMap, path: []string{"data", "region"}, want: `"eu-west-1"`},
		{name: "spaces inside the braces", value: `"${ cluster.name }"`, gvk: configMap, path: []string{"data", "x"}, want: `"cluster1"`},
		{name: "inside a longer string, as text", value: `"mirror-${cluster.claims['region.open-cluster-management.io']}.example.com/${cluster.name}:5"`,
			gvk: configMap, path: []string{"data", "x"}, want: `"mirror-eu-west-1.example.com/cluster1:5"`},
		{name: "$${ is a literal ${", value: `"$${cluster.name} is ${cluster.name}"`, gvk: configMap, path: []string{"data", "x"}, want: `"${cluster.name} is cluster1"`},
		{name: "a shell's ${HOME} is kept", value: `"cd ${HOME} && echo ${cluster.name}"`, gvk: configMap, path: []string{"data", "x"}, want: `"cd ${HOME} && echo cluster1"`},
		{name: "an unclosed ${ that is not ours is kept", value: `"cost: ${5"`, gvk: configMap, path: []string{"data", "x"}, want: `"cost: ${5"`},
		{name: "a whole variable into an int32 field is a number", value: `"${cluster.labels['replicas']}"`, gvk: deployment, path: []string{"spec", "replicas"}, want: `5`},
		{name: "a whole variable into a bool field is a bool", value: `"${cluster.labels['paused']}"`, gvk: deployment, path: []string{"spec", "paused"}, want: `true`},
		{name: "in a longer string it stays a string", value: `"${cluster.labels['replicas']}0"`, gvk: deployment, path: []string{"spec", "replicas"}, want: `"50"`},
		{name: "into a string field it stays a string", value: `"${cluster.labels['replicas']}"`, gvk: configMap, path: []string{"data", "n"}, want: `"5"`},
		{name: "a kind the hub does not know gets a string", value: `"${cluster.labels['replicas']}"`, gvk: widget, path: []string{"spec", "replicas"}, want: `"5"`},
		{name: "an unknown field gets a string", value: `"${cluster.labels['replicas']}"`, gvk: deployment, path: []string{"spec", "nosuch"}, want: `"5"`},
		{name: "typed inside an object value, by its path", value: `{"replicas":"${cluster.labels['replicas']}","paused":"${cluster.labels['paused']}"}`,
			gvk: deployment, path: []string{"spec"}, want: `{"replicas":5,"paused":true}`},
		{name: "typed inside a list value", value: `[{"name":"web","containerPort":"${cluster.labels['replicas']}"}]`,
			gvk: deployment, path: []string{"spec", "template", "spec", "containers", "0", "ports"}, want: `[{"name":"web","containerPort":5}]`},
		{name: "int-or-string: a number when it reads as one", value: `"${cluster.labels['replicas']}"`, gvk: deployment,
			path: []string{"spec", "strategy", "rollingUpdate", "maxSurge"}, want: `5`},
		{name: "int-or-string: a string otherwise", value: `"${cluster.labels['surge']}"`, gvk: deployment,
			path: []string{"spec", "strategy", "rollingUpdate", "maxSurge"}, want: `"25%"`},
		{name: "an inlined field (ObjectMeta's labels)", value: `"${cluster.labels['replicas']}"`, gvk: deployment, path: []string{"metadata", "labels", "n"}, want: `"5"`},
		{name: "numbers and bools of the value are kept", value: `{"a":1,"b":false,"c":null}`, gvk: configMap, path: []string{"x"}, want: `{"a":1,"b":false,"c":null}`},
		{name: "not a number where one is needed", value: `"${cluster.labels['env']}"`, gvk: deployment, path: []string{"spec", "replicas"},
			wantErr: `${cluster.labels['env']} is "prod", not the integer /spec/replicas of Deployment needs`},
		{name: "not a bool where one is needed", value: `"${cluster.labels['replicas']}"`, gvk: deployment, path: []string{"spec", "paused"},
			wantErr: `not the true or false /spec/paused of Deployment needs`},
		{name: "a missing label fails, naming it", value: `"x-${cluster.labels['tier']}"`, gvk: configMap, path: []string{"data", "x"},
			wantErr: `the cluster has no label "tier" (${cluster.labels['tier']})`},
		{name: "a missing claim fails, naming it", value: `"${cluster.claims['id.k8s.io']}"`, gvk: configMap, path: []string{"data", "x"},
			wantErr: `the cluster has no claim "id.k8s.io" (${cluster.claims['id.k8s.io']})`},
		{name: "an unknown variable fails", value: `"${cluster.label['env']}"`, gvk: configMap, path: []string{"data", "x"},
			wantErr: `${cluster.label['env']} is not a variable`, syntax: true},
		{name: "double quotes are not the syntax", value: `"${cluster.labels[\"env\"]}"`, gvk: configMap, path: []string{"data", "x"},
			wantErr: `is not a variable`, syntax: true},
		{name: "an empty key fails", value: `"${cluster.labels['']}"`, gvk: configMap, path: []string{"data", "x"}, wantErr: `is not a variable`, syntax: true},
		{name: "an unclosed variable fails", value: `"${cluster.name"`, gvk: configMap, path: []string{"data", "x"}, wantErr: `no closing }`, syntax: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			require.NoError(t, json.Unmarshal([]byte(tc.value), &v))
			got, err := substitute(v, cluster1, tc.gvk, tc.path)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				assert.Equal(t, tc.syntax, CheckVariables(v) != nil, "admission refuses malformed variables only")
				return
			}
			require.NoError(t, err)
			b, err := json.Marshal(got)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(b))
		})
	}
}

// CheckVariables, without a cluster, refuses malformed variables only.
func TestCheckVariables(t *testing.T) {
	assert.NoError(t, CheckVariables(map[string]any{"a": []any{"${cluster.labels['x']}", "${HOME}", 5.0}}))
	assert.ErrorContains(t, CheckVariables(map[string]any{"a": []any{"${cluster.nam}"}}), "${cluster.nam} is not a variable")
}
