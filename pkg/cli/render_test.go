package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/test/fixture"
)

// secret is the template's Secret, with password as its data.
func secret(password string) *corev1.Secret {
	return &corev1.Secret{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-secret"},
		Data:       map[string][]byte{"password": []byte(password)},
		StringData: map[string]string{"token": "t0ken"},
	}
}

// renderTemplate is the template of the previews: a Deployment, two
// ConfigMaps and a Secret.
func renderTemplate(password string) workv1.ManifestWorkSpec {
	return fixture.NewWork("x", "x").WithManifest(
		fixture.Deployment("default", "web", 1),
		fixture.ConfigMap("default", "web-config", map[string]string{"v": "v2"}),
		secret(password),
		fixture.ConfigMap("default", "debug", map[string]string{"level": "trace"}),
	).Build().Spec
}

func override(name string, generation int64, priority int32, rules ...fleetv1alpha1.WorkOverrideRule) *fleetv1alpha1.WorkOverride {
	return &fleetv1alpha1.WorkOverride{
		TypeMeta:   metav1.TypeMeta{APIVersion: fleetv1alpha1.SchemeGroupVersion.String(), Kind: "WorkOverride"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "fleet", Name: name, Generation: generation},
		Spec:       fleetv1alpha1.WorkOverrideSpec{ReplicaSet: "web", Priority: priority, Rules: rules},
	}
}

func patch(op fleetv1alpha1.PatchOp, path, value string) fleetv1alpha1.Patch {
	p := fleetv1alpha1.Patch{Op: op, Path: path}
	if value != "" {
		p.Value = &apiextensionsv1.JSON{Raw: []byte(value)}
	}
	return p
}

func decision(placement string, index int, group string, clusters ...string) *clusterv1beta1.PlacementDecision {
	pd := &clusterv1beta1.PlacementDecision{ObjectMeta: metav1.ObjectMeta{
		Namespace: "fleet", Name: placement + "-decision-" + string(rune('1'+index)),
		Labels: map[string]string{clusterv1beta1.PlacementLabel: placement, clusterv1beta1.DecisionGroupIndexLabel: string(rune('0' + index))},
	}}
	if group != "" {
		pd.Labels[clusterv1beta1.DecisionGroupNameLabel] = group
	}
	for _, c := range clusters {
		pd.Status.Decisions = append(pd.Status.Decisions, clusterv1beta1.ClusterDecision{ClusterName: c})
	}
	return pd
}

func managedCluster(name string, labels map[string]string, claims ...string) *unstructured.Unstructured {
	mc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster",
		"metadata": map[string]any{"name": name},
	}}
	mc.SetLabels(labels)
	var list []any
	for i := 0; i+1 < len(claims); i += 2 {
		list = append(list, map[string]any{"name": claims[i], "value": claims[i+1]})
	}
	if list != nil {
		mc.Object["status"] = map[string]any{"clusterClaims": list}
	}
	return mc
}

// storedWork is the replica set's work on cluster with spec.
func storedWork(cluster string, spec workv1.ManifestWorkSpec) *workv1.ManifestWork {
	w := fixture.NewWork(cluster, "web").Build()
	w.Spec = spec
	w.Labels = map[string]string{workv1alpha1.ReplicaSetLabel: "fleet.web", workv1alpha1.PlacementNameLabel: "web"}
	w.CreationTimestamp = metav1.NewTime(now.Add(-time.Hour))
	return w
}

// overriddenFleet is a replica set fleet/web on four clusters, in the
// decision groups web/canary (cluster1) and web/1 (the others), with two
// overrides: web-environments sets the replicas of prod clusters from
// their label replicas (cluster3 has none: it fails) and writes the name
// and region claim of cluster1 and cluster2 into the ConfigMap;
// debug-off drops the debug ConfigMap outside the canary. cluster4 has no
// ManagedCluster: its namespace's labels are its facts. cluster1's work has
// the template with an older password, cluster2's what the hub would
// write, cluster4 none.
func overriddenFleet() (objs []runtime.Object, clusters []runtime.Object, kube []runtime.Object) {
	rs := replicaSet(false, workv1alpha1.ManifestWorkReplicaSetSummary{})
	rs.Spec.ManifestWorkTemplate = renderTemplate("s3cret")
	rs.Labels = map[string]string{"app": "web"}
	environments := override("web-environments", 3, 0,
		fleetv1alpha1.WorkOverrideRule{
			Clusters:  fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}},
			Manifests: []fleetv1alpha1.ManifestSelector{{Group: "apps", Kind: "Deployment", Name: "web"}},
			Patches:   []fleetv1alpha1.Patch{patch(fleetv1alpha1.PatchReplace, "/spec/replicas", `"${cluster.labels['replicas']}"`)},
		},
		fleetv1alpha1.WorkOverrideRule{
			Clusters:  fleetv1alpha1.ClusterSelector{ClusterNames: []string{"cluster1", "cluster2"}},
			Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap", Name: "web-config"}},
			Patches: []fleetv1alpha1.Patch{
				patch(fleetv1alpha1.PatchAdd, "/data/cluster", `"${cluster.name}"`),
				patch(fleetv1alpha1.PatchAdd, "/data/region", `"${cluster.claims['region']}"`),
			},
		})
	debugOff := override("debug-off", 1, 0, fleetv1alpha1.WorkOverrideRule{
		Clusters:  fleetv1alpha1.ClusterSelector{DecisionGroups: []string{"web/1"}},
		Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap", Name: "debug"}},
		Drop:      true,
	})
	other := override("other", 1, 0, fleetv1alpha1.WorkOverrideRule{
		Clusters:  fleetv1alpha1.ClusterSelector{ClusterNames: []string{"cluster1"}},
		Manifests: []fleetv1alpha1.ManifestSelector{{}},
		Drop:      true,
	})
	other.Spec.ReplicaSet = "api"

	cluster2 := fixture.NewWork("x", "x").WithManifest(
		fixture.Deployment("default", "web", 1),
		fixture.ConfigMap("default", "web-config", map[string]string{"v": "v2", "cluster": "cluster2", "region": "us-east"}),
		secret("s3cret"),
	).Build().Spec
	objs = []runtime.Object{rs, environments, debugOff, other,
		decision("web", 0, "canary", "cluster1"), decision("web", 1, "", "cluster2", "cluster3", "cluster4"),
		storedWork("cluster1", renderTemplate("0ld")), storedWork("cluster2", cluster2),
	}
	clusters = []runtime.Object{
		managedCluster("cluster1", map[string]string{"env": "prod", "replicas": "5"}, "region", "eu-west"),
		managedCluster("cluster2", map[string]string{"env": "staging"}, "region", "us-east"),
		managedCluster("cluster3", map[string]string{"env": "prod"}),
	}
	kube = []runtime.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "cluster4", Labels: map[string]string{"env": "staging"}}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "cluster1", Labels: map[string]string{"env": "prod", "replicas": "7"}}},
	}
	return objs, clusters, kube
}

// previewHub is a fake hub of the fleet; served says whether it serves
// OCM's ManagedCluster.
type previewHub struct {
	opts    *Options
	work    *fake.Clientset
	kube    *kubefake.Clientset
	dynamic *dynamicfake.FakeDynamicClient
	out     *bytes.Buffer
	errOut  *bytes.Buffer
}

func newPreviewHub(served bool) *previewHub {
	objs, clusters, kube := overriddenFleet()
	h := &previewHub{work: fake.NewSimpleClientset(objs...), kube: kubefake.NewSimpleClientset(kube...),
		dynamic: dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
			map[schema.GroupVersionResource]string{render.ManagedClusterResource: "ManagedClusterList"}, clusters...),
		out: &bytes.Buffer{}, errOut: &bytes.Buffer{}}
	if !served {
		h.dynamic.PrependReactor("list", "managedclusters", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: render.ManagedClusterResource.Group, Resource: "managedclusters"}, "")
		})
	}
	h.opts = &Options{Client: h.work, Kube: h.kube, Dynamic: h.dynamic, Namespace: "fleet", Out: h.out, ErrOut: h.errOut,
		Now: func() time.Time { return now }}
	return h
}

// writes are the actions of every client of the hub that are not get or
// list.
func (h *previewHub) writes() []string {
	var out []string
	for _, actions := range [][]clienttesting.Action{h.work.Actions(), h.kube.Actions(), h.dynamic.Actions()} {
		for _, a := range actions {
			if a.GetVerb() != "get" && a.GetVerb() != "list" {
				out = append(out, a.GetVerb()+" "+a.GetResource().Resource)
			}
		}
	}
	return out
}

// writeFile writes a file for -f.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// Render prints each selected cluster's work as the hub would write it,
// by cluster, its Secrets masked; a cluster that fails is named on stderr
// and the command exits 1 after printing the others. Diff shows what
// would change: cluster2's work is as rendered already. Both only read.
func TestRenderDiff(t *testing.T) {
	for _, tt := range []struct {
		golden, stderr string
		run            func(context.Context, *Options, RenderOptions, string) error
		ro             RenderOptions
		code           int
	}{
		{"render.yaml", "render-stderr.txt", Render, RenderOptions{}, ExitFailed},
		{"diff.txt", "diff-stderr.txt", Diff, RenderOptions{}, ExitFailed},
		{"render-cluster2.yaml", "", Render, RenderOptions{Clusters: []string{"cluster2"}}, ExitOK},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			h := newPreviewHub(true)
			err := tt.run(context.Background(), h.opts, tt.ro, "web")
			assert.Equal(t, tt.code, ExitCode(err, -1), "%v", err)
			golden(t, tt.golden, h.out.String())
			if tt.stderr != "" {
				golden(t, tt.stderr, h.errOut.String()+"error: "+err.Error()+"\n")
			} else {
				assert.Empty(t, h.errOut.String())
			}
			assert.Empty(t, h.writes(), "render and diff only read the hub")
			assert.NotContains(t, h.out.String(), "czNjcmV0", "base64 of the password")
			assert.NotContains(t, h.out.String(), "t0ken")
			assert.NotContains(t, h.out.String(), "MGxk", "base64 of the old password")
		})
	}
}

// Diff exits 0 and prints nothing when no work would change.
func TestDiffNothing(t *testing.T) {
	h := newPreviewHub(true)
	require.NoError(t, Diff(context.Background(), h.opts, RenderOptions{Clusters: []string{"cluster2"}}, "web"))
	assert.Empty(t, h.out.String())
	assert.Empty(t, h.errOut.String())
}

// A replica set whose placements select no cluster previews nothing, and
// says so.
func TestRenderNoCluster(t *testing.T) {
	for _, run := range []func(context.Context, *Options, RenderOptions, string) error{Render, Diff} {
		h := newPreviewHub(true)
		require.NoError(t, h.work.Tracker().Delete(clusterv1beta1.SchemeGroupVersion.WithResource("placementdecisions"), "fleet", "web-decision-1"))
		require.NoError(t, h.work.Tracker().Delete(clusterv1beta1.SchemeGroupVersion.WithResource("placementdecisions"), "fleet", "web-decision-2"))
		require.NoError(t, run(context.Background(), h.opts, RenderOptions{}, "web"))
		assert.Empty(t, h.out.String())
		assert.Equal(t, "No cluster: the placements of manifestworkreplicaset fleet/web select none.\n", h.errOut.String())
	}
}

// -f previews objects not applied yet: an override of a file replaces the
// stored one of its name (generation 0), a new one joins them, a replica
// set of a file replaces the stored template. Objects of other
// namespaces are left out.
func TestRenderFiles(t *testing.T) {
	overrides := writeFile(t, "overrides.yaml", `
# web-environments, with the replicas of prod clusters fixed
apiVersion: fleet.manifestwork.io/v1alpha1
kind: WorkOverride
metadata: {name: web-environments}
spec:
  replicaSet: web
  rules:
  - clusters: {labelSelector: {matchLabels: {env: prod}}}
    manifests: [{group: apps, kind: Deployment, name: web}]
    patches: [{op: replace, path: /spec/replicas, value: 3}]
---
# as kubectl get -o yaml prints it
apiVersion: v1
kind: List
items:
- apiVersion: fleet.manifestwork.io/v1alpha1
  kind: WorkOverride
  metadata: {name: mirror, namespace: fleet}
  spec:
    replicaSet: web
    priority: 10
    rules:
    - clusters: {clusterNames: [cluster1]}
      manifests: [{kind: Deployment}]
      patches:
      - {op: replace, path: /spec/template/spec/containers/0/image, value: "mirror-${cluster.claims['region']}.example.com/web:1"}
---
apiVersion: fleet.manifestwork.io/v1alpha1
kind: WorkOverride
metadata: {name: elsewhere, namespace: other}
spec:
  replicaSet: web
  rules:
  - clusters: {clusterNames: [cluster1]}
    manifests: [{}]
    drop: true
`)
	replicaSet := writeFile(t, "web.yaml", `
apiVersion: work.open-cluster-management.io/v1alpha1
kind: ManifestWorkReplicaSet
metadata: {name: web, namespace: fleet}
spec:
  placementRefs: [{name: web}]
  manifestWorkTemplate:
    workload:
      manifests:
      - {apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: default},
         spec: {replicas: 1, template: {spec: {containers: [{name: main, image: web:1}]}}}}
      - {apiVersion: v1, kind: ConfigMap, metadata: {name: debug, namespace: default}}
`)
	h := newPreviewHub(true)
	require.NoError(t, Render(context.Background(), h.opts, RenderOptions{Clusters: []string{"cluster1"}, Files: []string{overrides, replicaSet}}, "web"))
	golden(t, "render-files.yaml", h.out.String())
	assert.Empty(t, h.writes())
}

// On a hub that does not serve WorkOverrides (OCM's alone), the works are
// the template's.
func TestRenderWithoutOverrides(t *testing.T) {
	h := newPreviewHub(true)
	h.work.PrependReactor("list", "workoverrides", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewNotFound(fleetv1alpha1.Resource("workoverrides"), "")
	})
	require.NoError(t, Render(context.Background(), h.opts, RenderOptions{Clusters: []string{"cluster3"}}, "web"))
	assert.Contains(t, h.out.String(), "replicas: 1")
	assert.NotContains(t, h.out.String(), render.OverridesAnnotation)
}

// On a hub without OCM's ManagedCluster, a cluster's facts are its
// namespace's labels: cluster1's namespace says 7 replicas.
func TestRenderWithoutManagedClusters(t *testing.T) {
	h := newPreviewHub(false)
	err := Render(context.Background(), h.opts, RenderOptions{Clusters: []string{"cluster1", "cluster4"}}, "web")
	assert.Equal(t, ExitFailed, ExitCode(err, -1), "cluster1 has no claim region: %v", err)
	assert.Equal(t, "cluster cluster1: override web-environments, rule 1, patch 1 (add /data/region) on ConfigMap default/web-config: "+
		"the cluster has no claim \"region\" (${cluster.claims['region']})\n", h.errOut.String())
	assert.Contains(t, h.out.String(), "namespace: cluster4")
	assert.Empty(t, h.writes())

	h = newPreviewHub(false)
	h.opts.Client.(*fake.Clientset).Tracker().Delete(fleetv1alpha1.SchemeGroupVersion.WithResource("workoverrides"), "fleet", "web-environments")
	require.NoError(t, Render(context.Background(), h.opts, RenderOptions{Clusters: []string{"cluster1"}}, "web"))
	assert.NotContains(t, h.out.String(), "replicas: 7", "no override: the template's replicas")
}

// Render and diff fail before printing, with exit code 2, when they cannot
// look: no such replica set, a cluster no placement selects, a file of
// another kind, ManagedClusters that may not be read.
func TestRenderFails(t *testing.T) {
	placement := writeFile(t, "placement.yaml", "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata: {name: web}\n")
	for _, tt := range []struct {
		name, replicaSet string
		ro               RenderOptions
		forbidden        bool
		err              string
	}{
		{"no such replica set", "api", RenderOptions{}, false, `manifestworkreplicasets.work.open-cluster-management.io "api" not found`},
		{"a cluster not selected", "web", RenderOptions{Clusters: []string{"cluster9"}}, false,
			"no placement of manifestworkreplicaset fleet/web selects cluster cluster9 (they select: cluster1, cluster2, cluster3, cluster4)"},
		{"a file of another kind", "web", RenderOptions{Files: []string{placement}}, false,
			placement + ", document 1: cluster.open-cluster-management.io/v1beta1 Placement is neither a " +
				"work.open-cluster-management.io/v1alpha1, Kind=ManifestWorkReplicaSet nor a fleet.manifestwork.io/v1alpha1, Kind=WorkOverride: render and diff take only those"},
		{"managed clusters forbidden", "web", RenderOptions{}, true,
			`the labels and claims of the clusters (OCM's managedclusters): managedclusters.cluster.open-cluster-management.io is forbidden: assert.AnError general error for testing`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, run := range []func(context.Context, *Options, RenderOptions, string) error{Render, Diff} {
				h := newPreviewHub(true)
				if tt.forbidden {
					h.dynamic.PrependReactor("list", "managedclusters", func(clienttesting.Action) (bool, runtime.Object, error) {
						return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: render.ManagedClusterResource.Group, Resource: "managedclusters"}, "",
							assert.AnError)
					})
				}
				err := run(context.Background(), h.opts, tt.ro, tt.replicaSet)
				assert.Equal(t, ExitUsage, ExitCode(err, -1), "%v", err)
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.Empty(t, h.out.String())
				assert.Empty(t, h.writes())
			}
		})
	}
}
