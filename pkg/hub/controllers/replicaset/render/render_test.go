package render

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/fixture"
)

const (
	cmRaw     = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"web","name":"conf"},"data":{"a":"1"}}`
	deployRaw = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"namespace":"web","name":"web"},"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"web","image":"example.com/web:1"}]}}}}`
)

func template() workv1.ManifestWorkSpec {
	spec := fixture.NewWork("cluster1", "web").WithRawManifest(cmRaw).WithRawManifest(deployRaw).
		WithDeleteOption(workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeOrphan}).Build().Spec
	spec.ManifestConfigs = []workv1.ManifestConfigOption{{ResourceIdentifier: workv1.ResourceIdentifier{Resource: "deployments", Name: "web", Namespace: "web"}}}
	return spec
}

func override(name string, priority int32, rules ...fleetv1alpha1.WorkOverrideRule) fleetv1alpha1.WorkOverride {
	o := fleetv1alpha1.WorkOverride{Spec: fleetv1alpha1.WorkOverrideSpec{ReplicaSet: "web", Priority: priority, Rules: rules}}
	o.Name, o.Generation = name, 3
	return o
}

func names(clusters ...string) fleetv1alpha1.ClusterSelector {
	return fleetv1alpha1.ClusterSelector{ClusterNames: clusters}
}

func env(value string) fleetv1alpha1.ClusterSelector {
	return fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": value}}}
}

var (
	anyConfigMap  = fleetv1alpha1.ManifestSelector{Kind: "ConfigMap"}
	anyDeployment = fleetv1alpha1.ManifestSelector{Group: "apps", Kind: "Deployment", Name: "*"}
)

func patch(op fleetv1alpha1.PatchOp, path, value string) fleetv1alpha1.Patch {
	p := fleetv1alpha1.Patch{Op: op, Path: path}
	if value != "" {
		p.Value = &apiextensionsv1.JSON{Raw: []byte(value)}
	}
	return p
}

func rule(clusters fleetv1alpha1.ClusterSelector, m fleetv1alpha1.ManifestSelector, patches ...fleetv1alpha1.Patch) fleetv1alpha1.WorkOverrideRule {
	return fleetv1alpha1.WorkOverrideRule{Clusters: clusters, Manifests: []fleetv1alpha1.ManifestSelector{m}, Patches: patches}
}

func drop(clusters fleetv1alpha1.ClusterSelector, m fleetv1alpha1.ManifestSelector) fleetv1alpha1.WorkOverrideRule {
	return fleetv1alpha1.WorkOverrideRule{Clusters: clusters, Manifests: []fleetv1alpha1.ManifestSelector{m}, Drop: true}
}

func TestRender(t *testing.T) {
	facts := ClusterFacts{Name: "cluster1", Labels: map[string]string{"env": "prod", "replicas": "5"},
		Groups: []GroupRef{{Placement: "all", Name: "canary", Index: 0}, {Placement: "eu", Index: 2}}}
	for _, tc := range []struct {
		name        string
		overrides   []fleetv1alpha1.WorkOverride
		want        []string // the manifests, as JSON
		wantApplied []Applied
		wantErr     *Error
	}{
		{name: "no override: the template", want: []string{cmRaw, deployRaw}},
		{name: "a rule for other clusters: the template",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0, rule(names("cluster2"), anyConfigMap, patch("add", "/data/b", `"2"`)))},
			want:      []string{cmRaw, deployRaw}},
		{name: "add, replace and remove, with a typed variable",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0,
				rule(env("prod"), anyConfigMap, patch("add", "/data/cluster", `"${cluster.name}"`), patch("remove", "/data/a", "")),
				rule(names("cluster1"), anyDeployment, patch("replace", "/spec/replicas", `"${cluster.labels['replicas']}"`)))},
			want: []string{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"web","name":"conf"},"data":{"cluster":"cluster1"}}`,
				`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"namespace":"web","name":"web"},"spec":{"replicas":5,"template":{"spec":{"containers":[{"name":"web","image":"example.com/web:1"}]}}}}`},
			wantApplied: []Applied{{Name: "o", Generation: 3}}},
		{name: "add to the end of a list",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0, rule(names("cluster1"), anyDeployment,
				patch("add", "/spec/template/spec/containers/-", `{"name":"proxy","image":"proxy:${cluster.labels['env']}"}`)))},
			want:        []string{cmRaw, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"namespace":"web","name":"web"},"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"web","image":"example.com/web:1"},{"name":"proxy","image":"proxy:prod"}]}}}}`},
			wantApplied: []Applied{{Name: "o", Generation: 3}}},
		{name: "drop removes the manifest for the cluster",
			overrides:   []fleetv1alpha1.WorkOverride{override("o", 0, drop(env("prod"), anyConfigMap))},
			want:        []string{deployRaw},
			wantApplied: []Applied{{Name: "o", Generation: 3}}},
		{name: "a later rule of an override wins on the same path",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0,
				rule(env("prod"), anyConfigMap, patch("replace", "/data/a", `"first"`)),
				rule(names("cluster1"), anyConfigMap, patch("replace", "/data/a", `"second"`)))},
			want:        []string{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"web","name":"conf"},"data":{"a":"second"}}`, deployRaw},
			wantApplied: []Applied{{Name: "o", Generation: 3}}},
		{name: "overrides apply by priority, the lowest first, then by name",
			overrides: []fleetv1alpha1.WorkOverride{
				override("a-high", 10, rule(env("prod"), anyConfigMap, patch("replace", "/data/a", `"a-high"`))),
				override("c-low", 0, rule(env("prod"), anyConfigMap, patch("replace", "/data/a", `"c-low"`))),
				override("b-low", 0, rule(env("prod"), anyConfigMap, patch("replace", "/data/a", `"b-low"`))),
			},
			want:        []string{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"web","name":"conf"},"data":{"a":"a-high"}}`, deployRaw},
			wantApplied: []Applied{{Name: "b-low", Generation: 3}, {Name: "c-low", Generation: 3}, {Name: "a-high", Generation: 3}}},
		{name: "a selector must match in every field it sets",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0,
				drop(fleetv1alpha1.ClusterSelector{ClusterNames: []string{"cluster1"}, LabelSelector: env("staging").LabelSelector}, anyConfigMap))},
			want: []string{cmRaw, deployRaw}},
		{name: "decision groups by name and by index",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0,
				rule(fleetv1alpha1.ClusterSelector{DecisionGroups: []string{"all/canary"}}, anyConfigMap, patch("add", "/data/b", `"canary"`)),
				rule(fleetv1alpha1.ClusterSelector{DecisionGroups: []string{"eu/2"}}, anyConfigMap, patch("add", "/data/c", `"eu"`)),
				rule(fleetv1alpha1.ClusterSelector{DecisionGroups: []string{"all/0x", "eu/canary"}}, anyConfigMap, patch("add", "/data/d", `"no"`)))},
			want:        []string{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"web","name":"conf"},"data":{"a":"1","b":"canary","c":"eu"}}`, deployRaw},
			wantApplied: []Applied{{Name: "o", Generation: 3}}},
		{name: "manifests are named by group, kind, namespace and name",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0,
				drop(names("cluster1"), fleetv1alpha1.ManifestSelector{Group: "apps", Kind: "ConfigMap"}),
				drop(names("cluster1"), fleetv1alpha1.ManifestSelector{Kind: "ConfigMap", Namespace: "other"}),
				drop(names("cluster1"), fleetv1alpha1.ManifestSelector{Group: "*", Kind: "Deployment", Namespace: "web", Name: "web"}))},
			want:        []string{cmRaw},
			wantApplied: []Applied{{Name: "o", Generation: 3}}},
		{name: "a rule names the template's manifest even after a patch renamed it",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0,
				rule(names("cluster1"), anyConfigMap, patch("replace", "/metadata/name", `"conf-${cluster.name}"`)),
				rule(names("cluster1"), fleetv1alpha1.ManifestSelector{Name: "conf"}, patch("add", "/data/b", `"2"`)))},
			want:        []string{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"web","name":"conf-cluster1"},"data":{"a":"1","b":"2"}}`, deployRaw},
			wantApplied: []Applied{{Name: "o", Generation: 3}}},
		{name: "replace of a missing path fails the cluster, precisely",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0,
				rule(names("cluster1"), anyConfigMap, patch("add", "/data/b", `"2"`)),
				rule(env("prod"), anyDeployment, patch("add", "/spec/replicas", `3`), patch("replace", "/spec/nosuch/x", `"v"`)))},
			wantErr: &Error{Cluster: "cluster1", Override: "o", Rule: 1, Patch: 1, Op: "replace", Path: "/spec/nosuch/x", Manifest: "Deployment.apps web/web"}},
		{name: "remove of a missing path fails (RFC 6902)",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0, rule(names("cluster1"), anyConfigMap, patch("remove", "/data/nosuch", "")))},
			wantErr:   &Error{Cluster: "cluster1", Override: "o", Rule: 0, Patch: 0, Op: "remove", Path: "/data/nosuch", Manifest: "ConfigMap web/conf"}},
		{name: "add under a missing parent fails (RFC 6902)",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0, rule(names("cluster1"), anyConfigMap, patch("add", "/spec/x/y", `1`)))},
			wantErr:   &Error{Cluster: "cluster1", Override: "o", Rule: 0, Patch: 0, Op: "add", Path: "/spec/x/y", Manifest: "ConfigMap web/conf"}},
		{name: "a negative index fails (RFC 6902)",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0, rule(names("cluster1"), anyDeployment, patch("remove", "/spec/template/spec/containers/-1", "")))},
			wantErr:   &Error{Cluster: "cluster1", Override: "o", Rule: 0, Patch: 0, Op: "remove", Path: "/spec/template/spec/containers/-1", Manifest: "Deployment.apps web/web"}},
		{name: "a missing label fails the cluster",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0, rule(names("cluster1"), anyConfigMap, patch("add", "/data/tier", `"${cluster.labels['tier']}"`)))},
			wantErr:   &Error{Cluster: "cluster1", Override: "o", Rule: 0, Patch: 0, Op: "add", Path: "/data/tier", Manifest: "ConfigMap web/conf"}},
		{name: "a label selector that cannot be read fails the cluster",
			overrides: []fleetv1alpha1.WorkOverride{override("o", 0, drop(fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "Near"}}}}, anyConfigMap))},
			wantErr: &Error{Cluster: "cluster1", Override: "o", Rule: 0, Patch: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmpl := template()
			before := tmpl.DeepCopy()
			got, applied, err := Render(tmpl, tc.overrides, facts)
			assert.Equal(t, before, &tmpl, "the template is not changed")
			if tc.wantErr != nil {
				var rerr *Error
				require.True(t, errors.As(err, &rerr), "%v", err)
				reason := rerr.Reason
				rerr.Reason = ""
				assert.Equal(t, tc.wantErr, rerr)
				assert.NotEmpty(t, reason)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantApplied, applied)
			require.Len(t, got.Workload.Manifests, len(tc.want))
			for i, m := range got.Workload.Manifests {
				assert.JSONEq(t, tc.want[i], string(m.Raw), "manifest %d", i)
			}
			assert.Equal(t, tmpl.DeleteOption, got.DeleteOption, "patches change manifests only")
			assert.Equal(t, tmpl.ManifestConfigs, got.ManifestConfigs, "patches change manifests only")
			assert.Equal(t, tmpl.Executor, got.Executor, "patches change manifests only")
		})
	}
}

// An error names the cluster, override, rule, patch, path and reason.
func TestErrorMessage(t *testing.T) {
	o := override("regions", 0, rule(names("cluster1"), anyConfigMap, patch("add", "/data/tier", `"${cluster.labels['tier']}"`)))
	_, _, err := Render(template(), []fleetv1alpha1.WorkOverride{o}, ClusterFacts{Name: "cluster1"})
	assert.EqualError(t, err, `cluster cluster1: override regions, rule 0, patch 0 (add /data/tier) on ConfigMap web/conf: `+
		`the cluster has no label "tier" (${cluster.labels['tier']})`)
}

// A manifest no rule changes keeps its bytes, so that its work does not
// change for a rule elsewhere.
func TestUntouchedManifestKeepsItsBytes(t *testing.T) {
	tmpl := template()
	spaced := `{ "apiVersion": "v1", "kind": "Secret", "metadata": {"namespace": "web", "name": "s"} }`
	tmpl.Workload.Manifests = append(tmpl.Workload.Manifests, workv1.Manifest{})
	tmpl.Workload.Manifests[2].Raw = []byte(spaced)
	o := override("o", 0, rule(names("cluster1"), anyConfigMap, patch("add", "/data/b", `"2"`)))
	got, _, err := Render(tmpl, []fleetv1alpha1.WorkOverride{o}, ClusterFacts{Name: "cluster1"})
	require.NoError(t, err)
	assert.Equal(t, spaced, string(got.Workload.Manifests[2].Raw))
	assert.Equal(t, deployRaw, string(got.Workload.Manifests[1].Raw))
}

// The revision input holds the template and every override's spec, in the
// order they apply: without overrides, its hash is the template's, as before
// overrides; any change to an override is a new revision; values are
// canonical; and the input gives the overrides back for Render.
func TestInput(t *testing.T) {
	hash := func(o []fleetv1alpha1.WorkOverride) string {
		h, err := revision.Hash(Input(template(), o))
		require.NoError(t, err)
		return h
	}
	plain, err := revision.Hash(revision.Input{ManifestWorkTemplate: template()})
	require.NoError(t, err)

	v1 := override("o", 0, rule(env("prod"), anyDeployment, patch("replace", "/spec/replicas", `5`)))
	v2 := override("o", 0, rule(env("prod"), anyDeployment, patch("replace", "/spec/replicas", `6`)))
	other := override("a", 1, rule(env("staging"), anyConfigMap, patch("add", "/data/b", `"2"`)))
	spaced := override("o", 0, rule(env("prod"), anyConfigMap, patch("add", "/data", `{"b": "2", "a": "1"}`)))
	sorted := override("o", 0, rule(env("prod"), anyConfigMap, patch("add", "/data", `{"a":"1","b":"2"}`)))

	assert.Equal(t, plain, hash(nil), "no override: the hash of today's revisions")
	assert.NotEqual(t, plain, hash([]fleetv1alpha1.WorkOverride{v1}))
	assert.NotEqual(t, hash([]fleetv1alpha1.WorkOverride{v1}), hash([]fleetv1alpha1.WorkOverride{v2}), "a change to an override: a new revision")
	assert.Equal(t, hash([]fleetv1alpha1.WorkOverride{v1, other}), hash([]fleetv1alpha1.WorkOverride{other, v1}), "in the order they apply")
	assert.Equal(t, hash([]fleetv1alpha1.WorkOverride{spaced}), hash([]fleetv1alpha1.WorkOverride{sorted}), "values are canonical")

	in := Input(template(), []fleetv1alpha1.WorkOverride{v1, other})
	assert.Equal(t, []string{"o", "a"}, []string{in.Overrides[0].Name, in.Overrides[1].Name}, "priority 0 applies before 1")
	back := Overrides(in, "web", []fleetv1alpha1.WorkOverride{v2, other})
	require.Len(t, back, 2)
	assert.Equal(t, v1.Spec, back[0].Spec)
	assert.Equal(t, v1.Generation, back[0].Generation, "o changed since: the generation recorded")
	assert.Equal(t, other.Generation, back[1].Generation)
	assert.Equal(t, "o:2,a:3", AppliedAnnotation([]Applied{{"o", 2}, {"a", 3}}))
	regenerated := v1
	regenerated.Generation = 7
	assert.Equal(t, hash([]fleetv1alpha1.WorkOverride{v1}), hash([]fleetv1alpha1.WorkOverride{regenerated}), "generations are not hashed")
}
