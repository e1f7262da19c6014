package replicaset

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/fixture"
)

// clusterNamespace is a cluster's namespace on the hub, with its labels.
func clusterNamespace(name string, labels map[string]string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
}

// workOverride is an override of the replica set, generation 1.
func workOverride(name string, priority int32, rules ...fleetv1alpha1.WorkOverrideRule) *fleetv1alpha1.WorkOverride {
	return &fleetv1alpha1.WorkOverride{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + name), Generation: 1},
		Spec:       fleetv1alpha1.WorkOverrideSpec{ReplicaSet: rsName, Priority: priority, Rules: rules},
	}
}

// setData is a rule that sets data keys of the ConfigMap web for the
// clusters selected, to values that may hold variables.
func setData(clusters fleetv1alpha1.ClusterSelector, kv ...string) fleetv1alpha1.WorkOverrideRule {
	r := fleetv1alpha1.WorkOverrideRule{Clusters: clusters, Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap", Name: "web"}}}
	for i := 0; i+1 < len(kv); i += 2 {
		value, _ := json.Marshal(kv[i+1])
		r.Patches = append(r.Patches, fleetv1alpha1.Patch{Op: fleetv1alpha1.PatchAdd, Path: "/data/" + kv[i], Value: &apiextensionsv1.JSON{Raw: value}})
	}
	return r
}

func byNames(clusters ...string) fleetv1alpha1.ClusterSelector {
	return fleetv1alpha1.ClusterSelector{ClusterNames: clusters}
}

func withLabel(key string) fleetv1alpha1.ClusterSelector {
	return fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
		{Key: key, Operator: metav1.LabelSelectorOpExists}}}}
}

// environments are the namespaces of c1 (prod, eu), c2 (staging, no
// region) and c3 (prod, us).
func environments(h *harness) {
	h.t.Helper()
	for _, n := range []*corev1.Namespace{
		clusterNamespace("c1", map[string]string{"env": "prod", "region": "eu"}),
		clusterNamespace("c2", map[string]string{"env": "staging"}),
		clusterNamespace("c3", map[string]string{"env": "prod", "region": "us"}),
	} {
		_, err := h.core.CoreV1().Namespaces().Create(h.t.Context(), n, metav1.CreateOptions{})
		require.NoError(h.t, err)
	}
	h.refresh()
}

// data is the data of the ConfigMap web in the cluster's work, and the
// work's overrides annotation.
func (h *harness) data(cluster string) (map[string]string, string) {
	h.t.Helper()
	w := h.work(cluster, rsName)
	for _, m := range w.Spec.Workload.Manifests {
		var cm corev1.ConfigMap
		require.NoError(h.t, json.Unmarshal(m.Raw, &cm))
		if cm.Name == "web" {
			return cm.Data, w.Annotations[render.OverridesAnnotation]
		}
	}
	return nil, w.Annotations[render.OverridesAnnotation]
}

func (h *harness) override(name string) *fleetv1alpha1.WorkOverride {
	h.t.Helper()
	o, err := h.client.FleetV1alpha1().WorkOverrides(ns).Get(h.t.Context(), name, metav1.GetOptions{})
	require.NoError(h.t, err)
	return o
}

// workWrites are the writes of works among writes.
func workWrites(writes []string) []string {
	var out []string
	for _, w := range writes {
		if strings.Contains(w, " manifestworks ") {
			out = append(out, w)
		}
	}
	return out
}

// Each cluster's work is the template with the rules that select it, in
// the overrides' order, with its own values; the work names the overrides
// that made it; both statuses say all rendered; nothing changed, nothing is
// written.
func TestOverridesGiveEachClusterItsValues(t *testing.T) {
	h := newHarness(t, revisionSet("1", nil), placement(plName, 3, 1), decision(plName, 0, "c1", "c2", "c3"),
		workOverride("mirror", 1, setData(byNames("c3"), "image", "mirror.${cluster.labels['region']}/web")),
		workOverride("envs", 0, setData(withLabel("env"), "env", "${cluster.labels['env']}", "cluster", "${cluster.name}", "image", "web")))
	environments(h)

	h.sync()
	for cluster, want := range map[string]map[string]string{
		"c1": {"version": "1", "env": "prod", "cluster": "c1", "image": "web"},
		"c2": {"version": "1", "env": "staging", "cluster": "c2", "image": "web"},
		"c3": {"version": "1", "env": "prod", "cluster": "c3", "image": "mirror.us/web"},
	} {
		data, applied := h.data(cluster)
		assert.Equal(t, want, data, cluster)
		if cluster == "c3" {
			assert.Equal(t, "envs:1,mirror:1", applied, "in the order they apply: the higher priority last")
		} else {
			assert.Equal(t, "envs:1", applied, cluster)
		}
	}
	assert.Equal(t, "True/"+ReasonRendered, conditionReason(h.replicaSet(), ConditionOverridesRendered))
	for _, name := range []string{"envs", "mirror"} {
		o := h.override(name)
		assert.True(t, apimeta.IsStatusConditionTrue(o.Status.Conditions, fleetv1alpha1.ConditionRendered), name)
		assert.Zero(t, o.Status.FailedClusterCount)
	}

	writes, _ := h.sync()
	assert.Empty(t, writes, "nothing changed: no request")

	c2 := clusterNamespace("c2", map[string]string{"env": "qa"})
	_, err := h.core.CoreV1().Namespaces().Update(t.Context(), c2, metav1.UpdateOptions{})
	require.NoError(t, err)
	h.refresh()
	writes, _ = h.sync()
	assert.Equal(t, []string{"patch manifestworks c2/" + rsName}, workWrites(writes), "c2 relabelled: its work only")
	data, _ := h.data("c2")
	assert.Equal(t, "qa", data["env"])
}

// A replica set without overrides has no OverridesRendered, and its works
// no overrides annotation.
func TestNoOverrideNoCondition(t *testing.T) {
	h := newHarness(t, revisionSet("1", nil), placement(plName, 1, 1), decision(plName, 0, "c1"))
	h.sync()
	assert.NotContains(t, conditionTypes(h.replicaSet()), ConditionOverridesRendered)
	_, applied := h.data("c1")
	assert.Empty(t, applied)
}

// A change to an override is a new revision, and writes the works it
// changes only: the others keep their spec and their older hash label.
// Removing the last override takes its values and the annotation away.
func TestOverrideChangeWritesOnlyTheClustersItChanges(t *testing.T) {
	kube := kubefake.NewClientset()
	mirror := workOverride("mirror", 1, setData(byNames("c3"), "image", "mirror/web"))
	h := newHarnessWith(t, kube, revisionSet("1", nil), placement(plName, 3, 1), decision(plName, 0, "c1", "c2", "c3"),
		workOverride("envs", 0, setData(withLabel("env"), "env", "${cluster.labels['env']}")), mirror)
	environments(h)
	h.sync()
	before := h.work("c1", rsName).Labels[revision.HashLabel]

	mirror = h.override("mirror")
	mirror.Spec.Rules[0] = setData(byNames("c3"), "image", "mirror2/web")
	h.put(mirror)
	writes, _ := h.sync()
	assert.Equal(t, []string{"patch manifestworks c3/" + rsName}, workWrites(writes))
	assert.Contains(t, ct.Writes(h.kube.Actions()), "create controllerrevisions "+ns+"/"+revision.Name(rsName, h.work("c3", rsName).Labels[revision.HashLabel]))
	data, applied := h.data("c3")
	assert.Equal(t, "mirror2/web", data["image"])
	assert.Equal(t, "envs:1,mirror:2", applied)
	assert.Equal(t, before, h.work("c1", rsName).Labels[revision.HashLabel], "c1 renders the same: not written")
	assert.NotEqual(t, before, h.work("c3", rsName).Labels[revision.HashLabel])
	assert.Contains(t, conditionMessage(h.replicaSet(), ConditionRevisionsRecorded), "Revision 2 ")

	require.NoError(t, h.client.FleetV1alpha1().WorkOverrides(ns).Delete(t.Context(), "mirror", metav1.DeleteOptions{}))
	require.NoError(t, h.client.FleetV1alpha1().WorkOverrides(ns).Delete(t.Context(), "envs", metav1.DeleteOptions{}))
	h.refresh()
	h.sync()
	for _, cluster := range []string{"c1", "c2", "c3"} {
		data, applied := h.data(cluster)
		assert.Equal(t, map[string]string{"version": "1"}, data, cluster)
		assert.Empty(t, applied, cluster)
		assert.Equal(t, hashOf(t, "1"), h.work(cluster, rsName).Labels[revision.HashLabel], "the template's own revision")
	}
	assert.NotContains(t, conditionTypes(h.replicaSet()), ConditionOverridesRendered)
}

// A rule that cannot render for a cluster (a missing label) fails that
// cluster only: its work is left as it was, it counts as failed toward
// maxFailures, and both the replica set and the override say which cluster,
// rule and patch, and why; once said, nothing more is written.
func TestMissingLabelFailsOnlyItsCluster(t *testing.T) {
	for _, tc := range []struct {
		name        string
		maxFailures int32
		written     []string
		stopped     bool
	}{
		{name: "within maxFailures the others roll out", maxFailures: 1, written: []string{"c1", "c3"}},
		{name: "beyond maxFailures the rollout stops", maxFailures: 0, stopped: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := revisionSet("1", nil)
			rs.Spec.PlacementRefs[0].RolloutStrategy = progressive(intstr.FromInt32(3), workv1alpha1.RolloutConfig{MaxFailures: intstr.FromInt32(tc.maxFailures)})
			h := newHarness(t, rs, placement(plName, 3, 1), decision(plName, 0, "c1", "c2", "c3"),
				labelled(succeeded(work("c1", rsName, "1"))), labelled(succeeded(work("c2", rsName, "1"))), labelled(succeeded(work("c3", rsName, "1"))),
				workOverride("regions", 0, setData(byNames("c1", "c2", "c3"), "region", "${cluster.labels['region']}")))
			environments(h)
			c2 := h.work("c2", rsName)

			writes, _ := h.sync()
			var want []string
			for _, cluster := range tc.written {
				want = append(want, "patch manifestworks "+cluster+"/"+rsName)
			}
			assert.ElementsMatch(t, want, workWrites(writes))
			assert.Equal(t, c2.Spec, h.work("c2", rsName).Spec, "c2's work is left as it was")
			assert.Empty(t, h.work("c2", rsName).Annotations[render.OverridesAnnotation])

			rs = h.replicaSet()
			assert.Equal(t, "False/"+ReasonRenderFailed, conditionReason(rs, ConditionOverridesRendered))
			msg := conditionMessage(rs, ConditionOverridesRendered)
			assert.Contains(t, msg, `c2: override regions, rule 0, patch 0 (add /data/region) on ConfigMap default/web:`)
			assert.Contains(t, msg, "region")
			assert.NotContains(t, msg, "c1:")
			if tc.stopped {
				assert.Equal(t, "True/"+ReasonMaxFailuresReached, conditionReason(rs, ConditionRolloutStopped))
				assert.Contains(t, conditionMessage(rs, ConditionRolloutStopped), "c2")
				assert.Contains(t, conditionMessage(rs, ConditionRolloutStopped), "cannot be rendered")
			} else {
				assert.NotContains(t, conditionTypes(rs), ConditionRolloutStopped)
			}

			o := h.override("regions")
			assert.Equal(t, int32(1), o.Status.FailedClusterCount)
			require.Len(t, o.Status.FailedClusters, 1)
			assert.Equal(t, "c2", o.Status.FailedClusters[0].Cluster)
			assert.Equal(t, int32(0), o.Status.FailedClusters[0].Rule)
			assert.Contains(t, o.Status.FailedClusters[0].Reason, "patch 0 (add /data/region)")
			c := apimeta.FindStatusCondition(o.Status.Conditions, fleetv1alpha1.ConditionRendered)
			require.NotNil(t, c)
			assert.Equal(t, metav1.ConditionFalse, c.Status)
			assert.Equal(t, ReasonRenderFailed, c.Reason)

			writes, _ = h.sync()
			assert.Empty(t, writes, "said once: no second write")
		})
	}
}

// A rule that drops a manifest takes it out of the works of the clusters
// it selects only.
func TestDroppedManifest(t *testing.T) {
	rs := revisionSet("1", nil)
	rs.Spec.ManifestWorkTemplate = fixture.NewWork("x", "x").
		WithManifest(fixture.ConfigMap("default", "web", map[string]string{"version": "1"})).
		WithManifest(fixture.ConfigMap("default", "debug", nil)).Build().Spec
	drop := workOverride("nodebug", 0, fleetv1alpha1.WorkOverrideRule{Clusters: withLabel("env"),
		Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap", Name: "debug"}}, Drop: true})
	drop.Spec.Rules[0].Clusters.LabelSelector.MatchExpressions[0] = metav1.LabelSelectorRequirement{Key: "env", Operator: metav1.LabelSelectorOpIn, Values: []string{"prod"}}
	h := newHarness(t, rs, placement(plName, 2, 1), decision(plName, 0, "c1", "c2"), drop)
	environments(h)
	h.sync()
	assert.Len(t, h.work("c1", rsName).Spec.Workload.Manifests, 1, "prod: debug dropped")
	assert.Len(t, h.work("c2", rsName).Spec.Workload.Manifests, 2, "staging keeps it")
	assert.Equal(t, "nodebug:1", h.work("c1", rsName).Annotations[render.OverridesAnnotation])
}

// renderedWork is the replica set's work on cluster as the template of
// version v with the overrides renders it for labels, labelled with hash.
func renderedWork(t *testing.T, cluster, v string, labels map[string]string, hash string, overrides ...fleetv1alpha1.WorkOverride) *workv1.ManifestWork {
	t.Helper()
	w := labelled(work(cluster, rsName, v))
	spec, _, err := render.Render(template(v), overrides, render.ClusterFacts{Name: cluster, Labels: labels})
	require.NoError(t, err)
	w.Spec = spec
	w.Labels[revision.HashLabel] = hash
	w.Annotations = map[string]string{render.OverridesAnnotation: "envs:1"}
	return w
}

// With on-failure Abort, the clusters go back to the stable revision's
// template with the stable revision's overrides, rendered for each: not to
// the bare template, not to the overrides as they are now.
func TestAbortRendersTheStableRevisionsOverrides(t *testing.T) {
	envs := workOverride("envs", 0, setData(withLabel("env"), "env", "${cluster.labels['env']}"))
	stable, err := revision.Hash(render.Input(template("1"), []fleetv1alpha1.WorkOverride{*envs}))
	require.NoError(t, err)
	labels := map[string]map[string]string{"c1": {"env": "prod", "region": "eu"}, "c2": {"env": "staging"}, "c3": {"env": "prod", "region": "us"}}
	kube := kubefake.NewClientset()
	h := newHarnessWith(t, kube, abortSet("1", none, abortAnnotations(OnFailureAbort)), placement(plName, 3, 1),
		decision(plName, 0, "c1", "c2", "c3"), envs,
		succeeded(renderedWork(t, "c1", "1", labels["c1"], stable, *envs)), succeeded(renderedWork(t, "c2", "1", labels["c2"], stable, *envs)),
		succeeded(renderedWork(t, "c3", "1", labels["c3"], stable, *envs)))
	environments(h)
	writes, _ := h.sync()
	assert.Empty(t, workWrites(writes))
	require.Equal(t, stable, h.replicaSet().Annotations[StableRevisionAnnotation], "complete: the revision with envs is stable")

	envs = h.override("envs")
	envs.Spec.Rules[0] = setData(withLabel("env"), "env", "${cluster.labels['env']}-v2")
	h.put(envs)
	h.sync()
	data, _ := h.data("c1")
	require.Equal(t, "prod-v2", data["env"], "two at a time: c1 and c2 get the new override")
	data, _ = h.data("c3")
	require.Equal(t, "prod", data["env"])

	failed := degradedWork("c1")
	current := h.work("c1", rsName)
	failed.Spec, failed.Labels, failed.Annotations, failed.Generation = current.Spec, current.Labels, current.Annotations, current.Generation
	for i := range failed.Status.Conditions {
		failed.Status.Conditions[i].ObservedGeneration = failed.Generation
	}
	h.put(failed)
	h.sync()
	assert.Equal(t, "True/"+ReasonAborted, conditionReason(h.replicaSet(), ConditionRolloutAborted))
	for cluster, env := range map[string]string{"c1": "prod", "c2": "staging", "c3": "prod"} {
		data, applied := h.data(cluster)
		assert.Equal(t, env, data["env"], "%s back to the stable revision's override", cluster)
		assert.Equal(t, "envs:1", applied, cluster)
		assert.Equal(t, stable, h.work(cluster, rsName).Labels[revision.HashLabel], cluster)
	}
}

// A cluster's facts are its ManagedCluster's labels and claims when the
// hub has one, else its namespace's labels.
func TestFactsFromManagedClusterElseNamespace(t *testing.T) {
	h := newHarness(t)
	environments(h)
	mcs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	mc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster",
		"metadata": map[string]any{"name": "c1", "labels": map[string]any{"env": "canary"}},
		"status":   map[string]any{"clusterClaims": []any{map[string]any{"name": "region.open-cluster-management.io", "value": "eu-west"}}},
	}}
	require.NoError(t, mcs.Add(mc))
	h.c.managedClusters = mcs

	f := h.c.factsOf("c1", nil)
	assert.Equal(t, map[string]string{"env": "canary"}, f.Labels, "the ManagedCluster's, not the namespace's")
	assert.Equal(t, "eu-west", f.Claims["region.open-cluster-management.io"])
	assert.Equal(t, map[string]string{"env": "staging"}, h.c.factsOf("c2", nil).Labels, "no ManagedCluster: its namespace")
	assert.Empty(t, h.c.factsOf("c9", nil).Labels)
}

// An override queues the replica set it names, and the one it named
// before, tombstone or not; a cluster's labels or claims changing queues
// the replica sets with overrides, a status heartbeat nothing.
func TestOverrideAndFactsTriggers(t *testing.T) {
	h := newHarness(t, workOverride("o", 0, setData(byNames("c1"), "k", "v")))
	o := h.override("o")
	assert.Equal(t, []string{rsKey}, h.c.replicaSetsOfOverride(o))
	moved := o.DeepCopy()
	moved.Spec.ReplicaSet = "other"
	assert.Equal(t, []string{ns + "/other", rsKey}, h.c.replicaSetsOfOverride(moved), "the one it left too")
	assert.Equal(t, []string{ns + "/other"}, h.c.replicaSetsOfOverride(moved))

	queue := workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter())
	defer queue.ShutDown()
	handler := h.c.factsHandler(queue)
	before := clusterNamespace("c1", map[string]string{"env": "prod"})
	heartbeat := before.DeepCopy()
	heartbeat.Status.Phase = corev1.NamespaceActive
	handler.OnUpdate(before, heartbeat)
	assert.Zero(t, queue.Len(), "labels unchanged: nothing queued")
	relabelled := before.DeepCopy()
	relabelled.Labels["env"] = "staging"
	handler.OnUpdate(before, relabelled)
	assert.Equal(t, 1, queue.Len())
	key, _ := queue.Get()
	assert.Equal(t, rsKey, key)
	queue.Done(key)
	handler.OnDelete(cache.DeletedFinalStateUnknown{Key: "c1", Obj: before})
	assert.Equal(t, 1, queue.Len())
}
