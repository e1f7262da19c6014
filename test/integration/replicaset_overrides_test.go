package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/util/retry"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// ocmClusterCRDDir is the folder of OCM's ManagedCluster CRD in its
// published api module (open-cluster-management.io/api, the version go.mod
// requires), from the module cache; `go list` downloads the module when a
// clean clone's cache lacks it.
func ocmClusterCRDDir(t *testing.T) string {
	t.Helper()
	root, err := framework.RepoRoot()
	require.NoError(t, err)
	cmd := exec.CommandContext(t.Context(), "go", "list", "-mod=mod", "-m", "-f", "{{.Dir}}", "open-cluster-management.io/api")
	cmd.Dir = root
	out, err := cmd.Output()
	require.NoError(t, err, "go list open-cluster-management.io/api: %s", out)
	return filepath.Join(strings.TrimSpace(string(out)), "cluster", "v1")
}

// overridesSet is a replica set of one ConfigMap rolled out to every
// cluster at once.
func overridesSet(name string) *workv1alpha1.ManifestWorkReplicaSet {
	return &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: rsNamespace, Name: name},
		Spec: workv1alpha1.ManifestWorkReplicaSetSpec{
			ManifestWorkTemplate: fixture.NewWork("x", "x").WithManifest(
				fixture.ConfigMap("default", name, map[string]string{"app": name})).Build().Spec,
			PlacementRefs: []workv1alpha1.LocalPlacementReference{{Name: rsPlacement,
				RolloutStrategy: workv1alpha1.RolloutStrategy{Type: workv1alpha1.All}}},
		},
	}
}

// dataOverride sets data keys of the replica set's ConfigMap for the
// clusters selected.
func dataOverride(name, replicaSet string, clusters fleetv1alpha1.ClusterSelector, kv ...string) *fleetv1alpha1.WorkOverride {
	rule := fleetv1alpha1.WorkOverrideRule{Clusters: clusters, Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap"}}}
	for i := 0; i+1 < len(kv); i += 2 {
		value, _ := json.Marshal(kv[i+1])
		rule.Patches = append(rule.Patches, fleetv1alpha1.Patch{Op: fleetv1alpha1.PatchAdd, Path: "/data/" + kv[i], Value: &apiextensionsv1.JSON{Raw: value}})
	}
	return &fleetv1alpha1.WorkOverride{ObjectMeta: metav1.ObjectMeta{Namespace: rsNamespace, Name: name},
		Spec: fleetv1alpha1.WorkOverrideSpec{ReplicaSet: replicaSet, Rules: []fleetv1alpha1.WorkOverrideRule{rule}}}
}

var everyEnv = fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{
	MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: metav1.LabelSelectorOpExists}}}}

// overridesCase runs one replica set with overrides on a hub whose clusters'
// labels (env) and claims (region) were set by setFacts, and checks what a
// user sees: each cluster's ConfigMap with its own values and the work
// naming the override; a bad rule failing only its cluster, said on the
// replica set and the override; a label changed on a cluster rolling out
// there.
func overridesCase(t *testing.T, s *framework.APIServer, name, region string, setFacts func(cluster, env string)) {
	ctx := t.Context()
	envs := map[string]string{rsClusters[0]: "prod", rsClusters[1]: "staging", rsClusters[2]: "prod"}
	for cluster, env := range envs {
		setFacts(cluster, env)
	}
	runReadyHub(t, s)
	installReplicaSetCRDs(t, s)
	writePlacement(t, s, rsClusters...)

	overrides := s.Work.FleetV1alpha1().WorkOverrides(rsNamespace)
	kv := []string{"env", "${cluster.labels['env']}", "cluster", "${cluster.name}"}
	if region != "" {
		kv = append(kv, "region", "${cluster.claims['region.open-cluster-management.io']}")
	}
	for _, o := range []*fleetv1alpha1.WorkOverride{
		dataOverride(name+"-envs", name, everyEnv, kv...),
		// c2 has no label "tier": its work fails to render, the others not.
		dataOverride(name+"-tiers", name, fleetv1alpha1.ClusterSelector{ClusterNames: rsClusters[1:2]}, "tier", "${cluster.labels['tier']}"),
	} {
		_, err := overrides.Create(ctx, o, metav1.CreateOptions{})
		require.NoError(t, err)
		t.Cleanup(func() { _ = overrides.Delete(context.Background(), o.Name, metav1.DeleteOptions{}) })
	}
	// The overrides are there first: c2 never gets a work.
	sets := s.Work.WorkV1alpha1().ManifestWorkReplicaSets(rsNamespace)
	_, err := sets.Create(ctx, overridesSet(name), metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sets.Delete(context.Background(), name, metav1.DeleteOptions{}) })

	data := func(cluster string) (map[string]string, string, error) {
		w, err := s.Work.WorkV1().ManifestWorks(cluster).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, "", err
		}
		var cm corev1.ConfigMap
		if err := json.Unmarshal(w.Spec.Workload.Manifests[0].Raw, &cm); err != nil {
			return nil, "", err
		}
		return cm.Data, w.Annotations[render.OverridesAnnotation], nil
	}
	want := func(cluster string) map[string]string {
		m := map[string]string{"app": name, "env": envs[cluster], "cluster": cluster}
		if region != "" {
			m["region"] = region
		}
		return m
	}
	framework.Eventually(t, convergeTimeout, func() error {
		for _, cluster := range []string{rsClusters[0], rsClusters[2]} {
			got, applied, err := data(cluster)
			if err != nil {
				return err
			}
			if fmt.Sprint(got) != fmt.Sprint(want(cluster)) || applied != name+"-envs:1" {
				return fmt.Errorf("%s: data %v, overrides %q", cluster, got, applied)
			}
		}
		return nil
	}, "each cluster's work carries its own values and names its override")

	framework.Eventually(t, convergeTimeout, func() error {
		if _, err := s.Work.WorkV1().ManifestWorks(rsClusters[1]).Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("the work of %s, which fails to render, is there (%v)", rsClusters[1], err)
		}
		rs, err := sets.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		c := apimeta.FindStatusCondition(rs.Status.Conditions, replicaset.ConditionOverridesRendered)
		if c == nil || c.Reason != replicaset.ReasonRenderFailed ||
			!strings.Contains(c.Message, rsClusters[1]+": override "+name+"-tiers, rule 0, patch 0 (add /data/tier)") ||
			strings.Contains(c.Message, rsClusters[0]) {
			return fmt.Errorf("OverridesRendered %+v", c)
		}
		o, err := overrides.Get(ctx, name+"-tiers", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if o.Status.FailedClusterCount != 1 || len(o.Status.FailedClusters) != 1 || o.Status.FailedClusters[0].Cluster != rsClusters[1] ||
			!apimeta.IsStatusConditionFalse(o.Status.Conditions, fleetv1alpha1.ConditionRendered) {
			return fmt.Errorf("override status %+v", o.Status)
		}
		return nil
	}, "the cluster that fails to render gets no work, and the replica set and the override name it")

	envs[rsClusters[0]] = "canary"
	setFacts(rsClusters[0], "canary")
	framework.Eventually(t, convergeTimeout, func() error {
		got, _, err := data(rsClusters[0])
		if err != nil {
			return err
		}
		if fmt.Sprint(got) != fmt.Sprint(want(rsClusters[0])) {
			return fmt.Errorf("%s: data %v", rsClusters[0], got)
		}
		return nil
	}, "a cluster relabelled gets its new value")
}

// Without OCM's ManagedCluster, a cluster's labels are its namespace's.
func TestReplicaSetOverridesFromNamespaceLabels(t *testing.T) {
	s, ctx := setup(t)
	require.NoError(t, s.EnsureNamespaces(ctx, append([]string{rsNamespace}, rsClusters...)...))
	overridesCase(t, s, "ovns", "", func(cluster, env string) {
		require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
			n, err := s.Kube.CoreV1().Namespaces().Get(ctx, cluster, metav1.GetOptions{})
			if err != nil {
				return err
			}
			metav1.SetMetaDataLabel(&n.ObjectMeta, "env", env)
			_, err = s.Kube.CoreV1().Namespaces().Update(ctx, n, metav1.UpdateOptions{})
			return err
		}))
	})
}

// With OCM's ManagedCluster (its CRD from OCM's published api module), a
// cluster's labels and claims are its ManagedCluster's, not its
// namespace's.
func TestReplicaSetOverridesFromManagedClusters(t *testing.T) {
	s, ctx := setup(t)
	require.NoError(t, s.EnsureNamespaces(ctx, append([]string{rsNamespace}, rsClusters...)...))
	s.InstallCRDsForTest(t, ocmClusterCRDDir(t))
	clusters := s.Dynamic.Resource(render.ManagedClusterResource)
	for _, cluster := range rsClusters {
		mc := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster",
			"metadata": map[string]any{"name": cluster, "labels": map[string]any{"env": "none"}},
			"spec":     map[string]any{"hubAcceptsClient": true},
		}}
		_, err := clusters.Create(ctx, mc, metav1.CreateOptions{})
		require.NoError(t, err)
		t.Cleanup(func() { _ = clusters.Delete(context.Background(), cluster, metav1.DeleteOptions{}) })
		// The namespace says otherwise: the ManagedCluster wins.
		n, err := s.Kube.CoreV1().Namespaces().Get(ctx, cluster, metav1.GetOptions{})
		require.NoError(t, err)
		metav1.SetMetaDataLabel(&n.ObjectMeta, "env", "from-namespace")
		_, err = s.Kube.CoreV1().Namespaces().Update(ctx, n, metav1.UpdateOptions{})
		require.NoError(t, err)
	}
	overridesCase(t, s, "ovmc", "eu-west", func(cluster, env string) {
		require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
			mc, err := clusters.Get(ctx, cluster, metav1.GetOptions{})
			if err != nil {
				return err
			}
			labels := mc.GetLabels()
			labels["env"] = env
			mc.SetLabels(labels)
			if mc, err = clusters.Update(ctx, mc, metav1.UpdateOptions{}); err != nil {
				return err
			}
			mc.Object["status"] = map[string]any{"clusterClaims": []any{
				map[string]any{"name": "region.open-cluster-management.io", "value": "eu-west"}}}
			_, err = clusters.UpdateStatus(ctx, mc, metav1.UpdateOptions{})
			return err
		}))
	})
}
