package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/cli"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// overrideName is the WorkOverride of TestFleetOverrides.
const overrideName = "fleet-web-values"

// overrideLabels are the labels of the clusters' namespaces on the hub (the
// hub of the e2e tests serves no ManagedCluster): two production clusters
// and one staging cluster, each with its replicas and region.
var overrideLabels = map[string]map[string]string{
	"cluster1": {"env": "prod", "replicas": "5", "region": "eu-west"},
	"cluster2": {"env": "staging", "replicas": "1", "region": "us-east"},
	"cluster3": {"env": "prod", "replicas": "3", "region": "ap-south"},
}

// A replica set over cluster1 (prod), cluster2 (staging) and cluster3
// (prod), Progressive with maxConcurrency 1, maxFailures 1 and a
// progressDeadline of 30s, and a WorkOverride that gives each cluster its
// own values (from the labels of its namespace on the hub):
//
//  1. each cluster's ConfigMap carries its name, its region and its env
//     label; the Deployment of a prod cluster has the replicas of its label,
//     a number ("5" is 5); the works name the override; `work fleet render`
//     prints the three works (golden file) and `work fleet diff` finds
//     nothing to change (exit 0);
//  2. a change of the override for prod, previewed by `work fleet diff -f`
//     (exit 1, golden file), then applied, reaches cluster1 and cluster3,
//     one at a time (never two clusters on the new spec while one is not
//     done), and never writes cluster2's work;
//  3. a rule that replaces a missing path for cluster2 fails cluster2 only:
//     its work stays as it was (never written), while a change made with it
//     reaches cluster1 and cluster3 (cluster2 counts as failed, within
//     maxFailures, and holds its slot no longer than its progressDeadline);
//     the replica set's OverridesRendered, the override's status and
//     `work fleet render` name the cluster and the rule; removing the rule
//     rolls the change out to cluster2 too, and the override's status names
//     no cluster any more;
//  4. a rule that drops a manifest for staging deletes its object on
//     cluster2, and only there.
func TestFleetOverrides(t *testing.T) {
	e := setup(t)
	startFleetClusters(t, e)
	startFleetHub(t, e)
	writeFleetPlacement(t, e)
	for cluster, labels := range overrideLabels {
		labelHubNamespace(t, e, cluster, labels)
	}
	work := func(args ...string) framework.Result {
		return runFleetCLI(t, e, e.WorkBinary, time.Minute, args...)
	}
	events := watchFleetWorks(t, e)

	// 1. Each cluster's own values.
	createOverride(t, e, overrideRules())
	createFleetReplicaSetWith(t, e, nil, overridesTemplate(), workv1alpha1.RolloutStrategy{
		Type: workv1alpha1.Progressive, Progressive: &workv1alpha1.RolloutProgressive{
			MaxConcurrency: intstr.FromInt32(1),
			RolloutConfig:  workv1alpha1.RolloutConfig{MaxFailures: intstr.FromInt32(1), ProgressDeadline: "30s"},
		}})
	st := waitFleetRolledOut(t, e, "the works with their values")
	assertFleetCondition(t, st, replicaset.ConditionOverridesRendered, metav1.ConditionTrue, replicaset.ReasonRendered)
	for _, cluster := range fleetClusters {
		want := overrideLabels[cluster]
		waitClusterConfigMap(t, e, cluster, "the values of "+cluster, func(cm *corev1.ConfigMap) error {
			got := []string{cm.Data["cluster"], cm.Data["region"], cm.Labels["env"]}
			if exp := []string{cluster, want["region"], want["env"]}; !slices.Equal(got, exp) {
				return fmt.Errorf("data.cluster, data.region, labels.env %q, want %q", got, exp)
			}
			return nil
		})
		replicas := int32(1) // the template's: no rule for staging
		if want["env"] == "prod" {
			replicas = map[string]int32{"5": 5, "3": 3}[want["replicas"]]
		}
		d, err := e.Cluster(cluster).Kube.AppsV1().Deployments(fleetAppNamespace).Get(t.Context(), "web", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, replicas, *d.Spec.Replicas, "%s's Deployment has the replicas of its label", cluster)
		w, err := getWork(t.Context(), cluster, fleetName)
		require.NoError(t, err)
		assert.Equal(t, overrideName+":1", w.Annotations[render.OverridesAnnotation], "%s's work names the override", cluster)
		assert.Contains(t, string(w.Spec.Workload.Manifests[1].Raw), `"replicas":`+fmt.Sprint(replicas), "the work holds a number")
	}
	o := getOverride(t, e)
	assertOverrideRendered(t, o)

	res := work("fleet", "render", fleetName)
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	checkGolden(t, "fleetoverrides-render.yaml", res.Stdout)
	res = work("fleet", "diff", fleetName)
	assert.Equal(t, cli.ExitOK, res.ExitCode, "nothing pending: %+v", res)
	assert.Empty(t, res.Stdout)
	// The CLI's own view agrees: every cluster has its rendered work.
	res = work("fleet", "wait", fleetName, "--for", "rolled-out", "--timeout", "30s")
	assert.Equal(t, cli.ExitOK, res.ExitCode, "work fleet wait with overrides: %+v", res)
	res = work("fleet", "status", fleetName, "-o", "json")
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	var view cli.StatusView
	require.NoError(t, json.Unmarshal([]byte(res.Stdout), &view))
	require.Len(t, view.Clusters, len(fleetClusters))
	for _, row := range view.Clusters {
		assert.True(t, row.Updated, "work fleet status: %s has its rendered work", row.Cluster)
	}

	// 2. A change for prod: previewed, then rolled out one cluster at a time.
	before := workSnapshots(t, fleetClusters)
	changed := append(overrideRules(), tierRule())
	res = work("fleet", "diff", fleetName, "-f", overrideFile(t, changed))
	assert.Equal(t, cli.ExitFailed, res.ExitCode, "a pending change: %+v", res)
	checkGolden(t, "fleetoverrides-diff.txt", res.Stdout)
	assert.Contains(t, res.Stderr, "cluster1, cluster3")
	seen := len(events.list())
	updateOverride(t, e, func(o *fleetv1alpha1.WorkOverride) { o.Spec.Rules = changed })
	waitOverrideWorks(t, e, "the change on cluster1 and cluster3", func(works map[string]*workv1.ManifestWork) error {
		if !hasTier(works["cluster1"].Spec) || !hasTier(works["cluster3"].Spec) {
			return fmt.Errorf("cluster1 or cluster3 without the change")
		}
		return nil
	})
	st = waitFleetRolledOut(t, e, "the change for prod")
	assertFleetCondition(t, st, replicaset.ConditionOverridesRendered, metav1.ConditionTrue, replicaset.ReasonRendered)
	after := workSnapshots(t, fleetClusters)
	for _, cluster := range []string{"cluster1", "cluster3"} {
		assert.True(t, hasTier(after[cluster].Spec), "%s has the change", cluster)
		assert.NotEqual(t, before[cluster].Labels[revision.HashLabel], after[cluster].Labels[revision.HashLabel], "%s is on a new revision", cluster)
	}
	assert.Equal(t, before["cluster2"].Generation, after["cluster2"].Generation, "cluster2's work is never written")
	assert.Equal(t, before["cluster2"].Labels, after["cluster2"].Labels, "cluster2's work keeps its labels, its revision hash among them")
	assert.NoError(t, oneAtATime(events.list()[seen:], hasTier))
	assert.Empty(t, hubWritesTo(events.list()[seen:], "cluster2", before["cluster2"]), "cluster2's work is never written")

	// 3. A missing path for cluster2 fails cluster2 only.
	before = workSnapshots(t, fleetClusters)
	bad := append(slices.Clone(changed), fleetv1alpha1.WorkOverrideRule{
		Clusters:  fleetv1alpha1.ClusterSelector{ClusterNames: []string{"cluster2"}},
		Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap", Name: "web-config"}},
		Patches:   []fleetv1alpha1.Patch{{Op: fleetv1alpha1.PatchReplace, Path: "/data/missing", Value: jsonValue("x")}},
	})
	bad[1].Patches = append(slices.Clone(bad[1].Patches), fleetv1alpha1.Patch{Op: fleetv1alpha1.PatchAdd, Path: "/data/version", Value: jsonValue("3")})
	seen = len(events.list())
	updateOverride(t, e, func(o *fleetv1alpha1.WorkOverride) { o.Spec.Rules = bad })
	for _, cluster := range []string{"cluster1", "cluster3"} {
		waitClusterConfigMap(t, e, cluster, "version 3 on "+cluster+", cluster2 past its progressDeadline", func(cm *corev1.ConfigMap) error {
			if cm.Data["version"] != "3" {
				return fmt.Errorf("data %v", cm.Data)
			}
			return nil
		})
	}
	st = waitFleetStatus(t, e, "OverridesRendered names cluster2", func(st workv1alpha1.ManifestWorkReplicaSetStatus) error {
		c := apimeta.FindStatusCondition(st.Conditions, replicaset.ConditionOverridesRendered)
		if c == nil || c.Status != metav1.ConditionFalse {
			return fmt.Errorf("OverridesRendered %+v", c)
		}
		return nil
	})
	rendered := apimeta.FindStatusCondition(st.Conditions, replicaset.ConditionOverridesRendered)
	assert.Equal(t, replicaset.ReasonRenderFailed, rendered.Reason)
	for _, part := range []string{"cluster2", "override " + overrideName + ", rule 3", "replace /data/missing", "ConfigMap " + fleetAppNamespace + "/web-config"} {
		assert.Contains(t, rendered.Message, part)
	}
	assert.NotContains(t, rendered.Message, "cluster1")
	assert.NotContains(t, rendered.Message, "cluster3")
	o = waitOverrideStatus(t, e, "cluster2 failed", func(st fleetv1alpha1.WorkOverrideStatus) error {
		if st.FailedClusterCount != 1 || len(st.FailedClusters) != 1 {
			return fmt.Errorf("status %+v", st)
		}
		return nil
	})
	assert.Equal(t, []any{"cluster2", int32(3)}, []any{o.Status.FailedClusters[0].Cluster, o.Status.FailedClusters[0].Rule})
	assert.Contains(t, o.Status.FailedClusters[0].Reason, "/data/missing")
	if c := apimeta.FindStatusCondition(o.Status.Conditions, fleetv1alpha1.ConditionRendered); assert.NotNil(t, c) {
		assert.Equal(t, []any{metav1.ConditionFalse, fleetv1alpha1.ReasonRenderFailed}, []any{c.Status, c.Reason}, c.Message)
	}
	res = work("fleet", "wait", fleetName, "--for", "rolled-out", "--timeout", "30s")
	assert.Equal(t, cli.ExitFailed, res.ExitCode, "work fleet wait cannot complete: %+v", res)
	assert.Contains(t, res.Stdout+res.Stderr, "cluster2")
	w, err := getWork(t.Context(), "cluster2", fleetName)
	require.NoError(t, err)
	assert.Equal(t, before["cluster2"].Spec, w.Spec, "cluster2's work is left as it was")
	assert.Equal(t, before["cluster2"].Generation, w.Generation, "cluster2's work is left as it was")
	assert.Empty(t, hubWritesTo(events.list()[seen:], "cluster2", before["cluster2"]), "cluster2's work is never written")
	res = work("fleet", "render", fleetName)
	assert.Equal(t, cli.ExitFailed, res.ExitCode, "%+v", res)
	assert.Contains(t, res.Stderr, "cluster cluster2: override "+overrideName+", rule 3, patch 0 (replace /data/missing)")

	// Without the bad rule, the change reaches cluster2 too.
	updateOverride(t, e, func(o *fleetv1alpha1.WorkOverride) { o.Spec.Rules = bad[:len(bad)-1] })
	waitOverrideWorks(t, e, "version 3 in cluster2's work", func(works map[string]*workv1.ManifestWork) error {
		if !strings.Contains(string(works["cluster2"].Spec.Workload.Manifests[2].Raw), `"version":"3"`) {
			return fmt.Errorf("cluster2's ConfigMap %s", works["cluster2"].Spec.Workload.Manifests[2].Raw)
		}
		return nil
	})
	st = waitFleetRolledOut(t, e, "without the bad rule")
	assertFleetCondition(t, st, replicaset.ConditionOverridesRendered, metav1.ConditionTrue, replicaset.ReasonRendered)
	waitClusterConfigMap(t, e, "cluster2", "version 3 on cluster2", func(cm *corev1.ConfigMap) error {
		if cm.Data["version"] != "3" {
			return fmt.Errorf("data %v", cm.Data)
		}
		return nil
	})
	assertOverrideRendered(t, waitOverrideStatus(t, e, "no cluster failed", func(st fleetv1alpha1.WorkOverrideStatus) error {
		if st.FailedClusterCount != 0 {
			return fmt.Errorf("status %+v", st)
		}
		return nil
	}))

	// 4. Dropped for staging: the debug ConfigMap goes from cluster2.
	dropped := append(slices.Clone(bad[:len(bad)-1]), fleetv1alpha1.WorkOverrideRule{
		Clusters:  fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "staging"}}},
		Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap", Name: "debug"}},
		Drop:      true,
	})
	updateOverride(t, e, func(o *fleetv1alpha1.WorkOverride) { o.Spec.Rules = dropped })
	waitOverrideWorks(t, e, "cluster2's work without the debug ConfigMap", func(works map[string]*workv1.ManifestWork) error {
		if n := len(works["cluster2"].Spec.Workload.Manifests); n != 3 {
			return fmt.Errorf("cluster2's work has %d manifests", n)
		}
		return nil
	})
	waitFleetRolledOut(t, e, "the debug ConfigMap dropped for staging")
	framework.Eventually(t, 2*convergeTimeout, func() error {
		_, err := e.Cluster("cluster2").Kube.CoreV1().ConfigMaps(fleetAppNamespace).Get(t.Context(), "debug", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("the debug ConfigMap is on cluster2: %v", err)
	}, "the dropped ConfigMap is deleted on cluster2")
	for _, cluster := range []string{"cluster1", "cluster3"} {
		_, err := e.Cluster(cluster).Kube.CoreV1().ConfigMaps(fleetAppNamespace).Get(t.Context(), "debug", metav1.GetOptions{})
		assert.NoError(t, err, "%s keeps the debug ConfigMap", cluster)
	}
	w, err = getWork(t.Context(), "cluster2", fleetName)
	require.NoError(t, err)
	assert.Len(t, w.Spec.Workload.Manifests, 3, "cluster2's work has no debug ConfigMap")
	require.False(t, events.endedEarly(), "the watch of the works ended early")
}

// overridesTemplate is the replica set's template: the app's namespace, its
// Deployment (1 replica), its ConfigMap and a debug ConfigMap.
func overridesTemplate() workv1.ManifestWorkSpec {
	return fixture.NewWork("x", "x").WithManifest(
		fixture.Namespace(fleetAppNamespace),
		fleetDeployment(nil),
		fixture.ConfigMap(fleetAppNamespace, "web-config", map[string]string{"greeting": "hello"}),
		fixture.ConfigMap(fleetAppNamespace, "debug", map[string]string{"level": "trace"}),
	).Build().Spec
}

// overrideRules are the rules of the override at first: prod clusters get
// the replicas of their label; every cluster's ConfigMap its name, region
// and env.
func overrideRules() []fleetv1alpha1.WorkOverrideRule {
	return []fleetv1alpha1.WorkOverrideRule{{
		Clusters:  fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}},
		Manifests: []fleetv1alpha1.ManifestSelector{{Group: "apps", Kind: "Deployment", Name: "web"}},
		Patches:   []fleetv1alpha1.Patch{{Op: fleetv1alpha1.PatchReplace, Path: "/spec/replicas", Value: jsonValue("${cluster.labels['replicas']}")}},
	}, {
		Clusters: fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
			Key: "env", Operator: metav1.LabelSelectorOpIn, Values: []string{"prod", "staging"},
		}}}},
		Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap", Name: "web-config"}},
		Patches: []fleetv1alpha1.Patch{
			{Op: fleetv1alpha1.PatchAdd, Path: "/data/cluster", Value: jsonValue("${cluster.name}")},
			{Op: fleetv1alpha1.PatchAdd, Path: "/data/region", Value: jsonValue("${cluster.labels['region']}")},
			{Op: fleetv1alpha1.PatchAdd, Path: "/metadata/labels", Value: jsonValue(map[string]string{"env": "${cluster.labels['env']}"})},
		},
	}}
}

// tierAnnotation is what tierRule adds to the pod template of prod's
// Deployments.
const tierAnnotation = "e2e.manifestwork.io/tier"

// tierRule changes the Deployment of prod clusters: its pods roll.
func tierRule() fleetv1alpha1.WorkOverrideRule {
	return fleetv1alpha1.WorkOverrideRule{
		Clusters:  fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}},
		Manifests: []fleetv1alpha1.ManifestSelector{{Group: "apps", Kind: "Deployment", Name: "web"}},
		Patches: []fleetv1alpha1.Patch{{Op: fleetv1alpha1.PatchAdd, Path: "/spec/template/metadata/annotations",
			Value: jsonValue(map[string]string{tierAnnotation: "gold-${cluster.name}"})}},
	}
}

// hasTier tells whether a work's Deployment has tierRule's change.
func hasTier(spec workv1.ManifestWorkSpec) bool {
	for _, m := range spec.Workload.Manifests {
		var d appsv1.Deployment
		if json.Unmarshal(m.Raw, &d) == nil && d.Kind == "Deployment" {
			return d.Spec.Template.Annotations[tierAnnotation] != ""
		}
	}
	return false
}

func jsonValue(v any) *apiextensionsv1.JSON {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return &apiextensionsv1.JSON{Raw: raw}
}

// labelHubNamespace sets labels on a cluster's namespace on the hub, and
// removes them when t ends.
func labelHubNamespace(t *testing.T, e *framework.E2E, cluster string, labels map[string]string) {
	t.Helper()
	patch := func(ctx context.Context, labels map[string]any) error {
		data, err := json.Marshal(map[string]any{"metadata": map[string]any{"labels": labels}})
		if err == nil {
			_, err = e.Hub.Kube.CoreV1().Namespaces().Patch(ctx, cluster, types.MergePatchType, data, metav1.PatchOptions{})
		}
		return err
	}
	set, unset := map[string]any{}, map[string]any{}
	for k, v := range labels {
		set[k], unset[k] = v, nil
	}
	require.NoError(t, patch(t.Context(), set), "label the namespace %s on the hub", cluster)
	t.Cleanup(func() {
		if err := patch(context.Background(), unset); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("unlabel the namespace %s on the hub: %v", cluster, err)
		}
	})
}

// createOverride creates the override of the replica set with rules, and
// deletes it when t ends.
func createOverride(t *testing.T, e *framework.E2E, rules []fleetv1alpha1.WorkOverrideRule) {
	t.Helper()
	overrides := e.Hub.Work.FleetV1alpha1().WorkOverrides(fleetNamespace)
	_, err := overrides.Create(t.Context(), &fleetv1alpha1.WorkOverride{
		ObjectMeta: metav1.ObjectMeta{Namespace: fleetNamespace, Name: overrideName},
		Spec:       fleetv1alpha1.WorkOverrideSpec{ReplicaSet: fleetName, Rules: rules},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		if err := overrides.Delete(context.Background(), overrideName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete the override: %v", err)
		}
	})
}

func getOverride(t *testing.T, e *framework.E2E) *fleetv1alpha1.WorkOverride {
	t.Helper()
	o, err := e.Hub.Work.FleetV1alpha1().WorkOverrides(fleetNamespace).Get(t.Context(), overrideName, metav1.GetOptions{})
	require.NoError(t, err)
	return o
}

// updateOverride changes the override, retrying on conflicts with the
// hub's status writes.
func updateOverride(t *testing.T, e *framework.E2E, mutate func(*fleetv1alpha1.WorkOverride)) {
	t.Helper()
	overrides := e.Hub.Work.FleetV1alpha1().WorkOverrides(fleetNamespace)
	framework.Eventually(t, convergeTimeout, func() error {
		o, err := overrides.Get(t.Context(), overrideName, metav1.GetOptions{})
		if err != nil {
			return err
		}
		mutate(o)
		_, err = overrides.Update(t.Context(), o, metav1.UpdateOptions{})
		return err
	}, "update the override")
}

// waitOverrideStatus waits until check accepts the override's status for
// its generation, and returns the override.
func waitOverrideStatus(t *testing.T, e *framework.E2E, what string, check func(fleetv1alpha1.WorkOverrideStatus) error) *fleetv1alpha1.WorkOverride {
	t.Helper()
	var o *fleetv1alpha1.WorkOverride
	framework.Eventually(t, 2*convergeTimeout, func() error {
		var err error
		if o, err = e.Hub.Work.FleetV1alpha1().WorkOverrides(fleetNamespace).Get(t.Context(), overrideName, metav1.GetOptions{}); err != nil {
			return err
		}
		if c := apimeta.FindStatusCondition(o.Status.Conditions, fleetv1alpha1.ConditionRendered); c == nil || c.ObservedGeneration != o.Generation {
			return fmt.Errorf("Rendered %+v, for generation %d", c, o.Generation)
		}
		return check(o.Status)
	}, "override status: %s", what)
	return o
}

func assertOverrideRendered(t *testing.T, o *fleetv1alpha1.WorkOverride) {
	t.Helper()
	c := apimeta.FindStatusCondition(o.Status.Conditions, fleetv1alpha1.ConditionRendered)
	if assert.NotNil(t, c, "the override's Rendered") {
		assert.Equal(t, metav1.ConditionTrue, c.Status, c.Message)
	}
	assert.Empty(t, o.Status.FailedClusters)
	assert.Zero(t, o.Status.FailedClusterCount)
}

// waitClusterConfigMap waits until check accepts the app's ConfigMap on
// cluster.
func waitClusterConfigMap(t *testing.T, e *framework.E2E, cluster, what string, check func(*corev1.ConfigMap) error) {
	t.Helper()
	framework.Eventually(t, 2*convergeTimeout, func() error {
		cm, err := e.Cluster(cluster).Kube.CoreV1().ConfigMaps(fleetAppNamespace).Get(t.Context(), "web-config", metav1.GetOptions{})
		if err != nil {
			return err
		}
		return check(cm)
	}, "%s", what)
}

// waitOverrideWorks waits until check accepts the replica set's works on
// the fleet's clusters; its error says, too, what the replica set and the
// override report.
func waitOverrideWorks(t *testing.T, e *framework.E2E, what string, check func(map[string]*workv1.ManifestWork) error) {
	t.Helper()
	framework.Eventually(t, 3*convergeTimeout, func() error {
		works := map[string]*workv1.ManifestWork{}
		for _, c := range fleetClusters {
			w, err := getWork(t.Context(), c, fleetName)
			if err != nil {
				return err
			}
			works[c] = w
		}
		err := check(works)
		if err == nil {
			return nil
		}
		rs, rerr := e.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(fleetNamespace).Get(t.Context(), fleetName, metav1.GetOptions{})
		o, oerr := e.Hub.Work.FleetV1alpha1().WorkOverrides(fleetNamespace).Get(t.Context(), overrideName, metav1.GetOptions{})
		if rerr != nil || oerr != nil {
			return errors.Join(err, rerr, oerr)
		}
		return fmt.Errorf("%w; the replica set's conditions %+v; the override (generation %d) status %+v", err, rs.Status.Conditions, o.Generation, o.Status)
	}, "%s", what)
}

// workSnapshots reads the replica set's works of clusters from the hub.
func workSnapshots(t *testing.T, clusters []string) map[string]*workv1.ManifestWork {
	t.Helper()
	out := map[string]*workv1.ManifestWork{}
	for _, c := range clusters {
		w, err := getWork(t.Context(), c, fleetName)
		require.NoError(t, err)
		out[c] = w
	}
	return out
}

// overrideFile writes the override with rules to a YAML file, as a pull
// request would hold it, and returns its path.
func overrideFile(t *testing.T, rules []fleetv1alpha1.WorkOverrideRule) string {
	t.Helper()
	data, err := yaml.Marshal(&fleetv1alpha1.WorkOverride{
		TypeMeta:   metav1.TypeMeta{APIVersion: fleetv1alpha1.SchemeGroupVersion.String(), Kind: "WorkOverride"},
		ObjectMeta: metav1.ObjectMeta{Namespace: fleetNamespace, Name: overrideName},
		Spec:       fleetv1alpha1.WorkOverrideSpec{ReplicaSet: fleetName, Rules: rules},
	})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "override.yaml")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// revisionHashLine is the revision hash in render's output, which changes
// with any change of the template or of the rules.
var revisionHashLine = regexp.MustCompile(`(` + regexp.QuoteMeta(revision.HashLabel) + `: )"?[0-9a-f]{10}"?`)

// checkGolden compares what a command printed, its revision hashes made
// <hash>, with test/e2e/testdata/name; UPDATE_GOLDEN=1 rewrites the file.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	got = revisionHashLine.ReplaceAllString(got, "${1}<hash>")
	path := filepath.Join("testdata", name)
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "the golden file (UPDATE_GOLDEN=1 writes it)")
	assert.Equal(t, string(want), got, "%s (UPDATE_GOLDEN=1 rewrites it)", path)
}

// oneAtATime fails when, at any event, two clusters had the new spec (isNew)
// and had not rolled it out yet: maxConcurrency 1 lets one roll at a time.
func oneAtATime(events []fleetEvent, isNew func(workv1.ManifestWorkSpec) bool) error {
	onNew, done := map[string]bool{}, map[string]bool{}
	for i, ev := range events {
		onNew[ev.cluster] = isNew(ev.spec)
		done[ev.cluster] = onNew[ev.cluster] && (done[ev.cluster] || ev.rolledOut)
		var rolling []string
		for c, yes := range onNew {
			if yes && !done[c] {
				rolling = append(rolling, c)
			}
		}
		if len(rolling) > 1 {
			slices.Sort(rolling)
			return fmt.Errorf("event %d: clusters %v roll the new spec at once: %v", i, rolling, events[:i+1])
		}
	}
	if !slices.Contains(slices.Collect(maps.Values(onNew)), true) {
		return fmt.Errorf("no cluster ever had the new spec: %v", events)
	}
	return nil
}

// hubWritesTo are the events of cluster's work whose spec, labels, annotations
// or generation differ from before's: writes of the hub, not of its agent.
func hubWritesTo(events []fleetEvent, cluster string, before *workv1.ManifestWork) []fleetEvent {
	var out []fleetEvent
	for _, ev := range events {
		w := ev.work
		if ev.cluster == cluster && (!equality.Semantic.DeepEqual(w.Spec, before.Spec) || w.Generation != before.Generation ||
			!maps.Equal(w.Labels, before.Labels) || !maps.Equal(w.Annotations, before.Annotations)) {
			out = append(out, ev)
		}
	}
	return out
}
