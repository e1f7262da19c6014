package cli

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/fixture"
)

// renderedSpecs are the works the hub renders for the clusters of
// overriddenFleet, written out by hand, cluster3 with 2 replicas (the label
// its ManagedCluster lacks in overriddenFleet).
func renderedSpecs() map[string]workv1.ManifestWorkSpec {
	spec := func(objs ...runtime.Object) workv1.ManifestWorkSpec {
		return fixture.NewWork("x", "x").WithManifest(objs...).Build().Spec
	}
	return map[string]workv1.ManifestWorkSpec{
		"cluster1": spec(fixture.Deployment("default", "web", 5),
			fixture.ConfigMap("default", "web-config", map[string]string{"v": "v2", "cluster": "cluster1", "region": "eu-west"}),
			secret("s3cret"), fixture.ConfigMap("default", "debug", map[string]string{"level": "trace"})),
		"cluster2": spec(fixture.Deployment("default", "web", 1),
			fixture.ConfigMap("default", "web-config", map[string]string{"v": "v2", "cluster": "cluster2", "region": "us-east"}),
			secret("s3cret")),
		"cluster3": spec(fixture.Deployment("default", "web", 2), fixture.ConfigMap("default", "web-config", map[string]string{"v": "v2"}), secret("s3cret")),
		"cluster4": spec(fixture.Deployment("default", "web", 1), fixture.ConfigMap("default", "web-config", map[string]string{"v": "v2"}), secret("s3cret")),
	}
}

// succeededWork is the replica set's work on cluster with spec, which our
// agent has rolled out.
func succeededWork(cluster string, spec workv1.ManifestWorkSpec) *workv1.ManifestWork {
	w := storedWork(cluster, spec)
	w.Generation, w.Status.Conditions = 1, succeeded()
	return w
}

// Status compares each work with what the hub renders for its cluster
// when WorkOverrides name the replica set: cluster2's work, which differs
// from the template, is updated; cluster1's (the template, an old
// password) is not; cluster3's cannot be rendered, is not updated, and
// says why.
func TestStatusWithOverrides(t *testing.T) {
	h := newPreviewHub(true)
	require.NoError(t, h.work.Tracker().Add(succeededWork("cluster3", renderTemplate("s3cret"))))
	require.NoError(t, Status(context.Background(), h.opts, OutputOptions{Output: OutputJSON}, "web"))
	var view StatusView
	require.NoError(t, json.Unmarshal(h.out.Bytes(), &view))
	updated, messages := map[string]bool{}, map[string]string{}
	for _, r := range view.Clusters {
		updated[r.Cluster], messages[r.Cluster] = r.Updated, r.Message
	}
	assert.Equal(t, map[string]bool{"cluster1": false, "cluster2": true, "cluster3": false}, updated)
	assert.Equal(t, `NotRendered: the cluster has no label "replicas" (${cluster.labels['replicas']}) (override web-e …`,
		messages["cluster3"])
	assert.Empty(t, h.writes())
}

// Without WorkOverrides, status reads the replica set, its works and its
// (no) overrides: no decisions, no clusters.
func TestStatusWithoutOverridesReadsNoMore(t *testing.T) {
	o, client, _ := options(stoppedFleet()...)
	_ = Status(context.Background(), o, OutputOptions{}, "web")
	var reads []string
	for _, a := range client.Actions() {
		reads = append(reads, a.GetVerb()+" "+a.GetResource().Resource)
	}
	assert.Equal(t, []string{"get manifestworkreplicasets", "list manifestworks", "list workoverrides"}, reads)
	assert.Empty(t, o.Kube.(interface{ Actions() []clienttesting.Action }).Actions())
}

// With WorkOverrides, wait judges each work against its cluster's render,
// and a cluster whose render fails ends it with exit 1: the rollout cannot
// complete. It reads the decisions and clusters only once the rollout
// says it is done or that a cluster fails to render.
func TestJudgeWithOverrides(t *testing.T) {
	specs := renderedSpecs()
	works := func(except string, spec workv1.ManifestWorkSpec) []*workv1.ManifestWork {
		var out []*workv1.ManifestWork
		for _, c := range []string{"cluster1", "cluster2", "cluster3", "cluster4"} {
			s := specs[c]
			if c == except {
				s = spec
			}
			out = append(out, succeededWork(c, s))
		}
		return out
	}
	summary := workv1alpha1.ManifestWorkReplicaSetSummary{Total: 4, DesiredTotal: 4, Updated: 4, Applied: 4, Available: 4}
	notRendered := cond(replicaset.ConditionOverridesRendered, metav1.ConditionFalse, replicaset.ReasonRenderFailed, "1 cluster(s) fail to render")
	renderFails := "manifestworkreplicaset fleet/web: 1 of 4 clusters fail to render, and the hub keeps their works as they are: cluster3: the rollout cannot complete"
	for _, tt := range []struct {
		name     string
		replicas bool // cluster3 has the label replicas: its render succeeds
		conds    []metav1.Condition
		works    []*workv1.ManifestWork
		pending  string
		err      string
		reads    bool
	}{
		{"rolled out", true, rolledOut(), works("", workv1.ManifestWorkSpec{}), "", "", true},
		{"a work with the template", true, rolledOut(), works("cluster1", renderTemplate("s3cret")),
			"the work of cluster1 does not have its rendered spec yet", "", true},
		{"a render fails", false, rolledOut(), works("", workv1.ManifestWorkSpec{}), "", renderFails, true},
		{"a render fails, not rolled out", false, []metav1.Condition{notRendered}, nil, "", renderFails, true},
		{"a render failed, fixed since", true, []metav1.Condition{notRendered}, nil, "PlacementRolledOut is not True yet", "", true},
		{"rolling out", false, nil, nil, "PlacementRolledOut is not True yet", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newPreviewHub(true)
			if tt.replicas {
				mc := managedCluster("cluster3", map[string]string{"env": "prod", "replicas": "2"})
				require.NoError(t, h.dynamic.Tracker().Update(render.ManagedClusterResource, mc, ""))
			}
			rs := replicaSet(false, summary, tt.conds...)
			rs.Spec.ManifestWorkTemplate = renderTemplate("s3cret")
			pending, err := judge(rs, tt.works, ForHealthy, currentOf(context.Background(), hub{work: h.work, kube: h.kube, dynamic: h.dynamic, namespace: "fleet"}))
			if tt.err != "" {
				assert.Equal(t, ExitFailed, ExitCode(err, -1), "%v", err)
				assert.EqualError(t, err, tt.err)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.pending, pending)
			read := false
			for _, a := range h.work.Actions() {
				read = read || a.GetResource().Resource == "placementdecisions" || a.GetResource().Resource == "workoverrides"
			}
			assert.Equal(t, tt.reads, read, "reads overrides and decisions")
		})
	}
}

// Wait returns once the works have what the hub renders for their
// clusters.
func TestWaitWithOverrides(t *testing.T) {
	h := newPreviewHub(true)
	require.NoError(t, h.dynamic.Tracker().Update(render.ManagedClusterResource,
		managedCluster("cluster3", map[string]string{"env": "prod", "replicas": "2"}), ""))
	rs := replicaSet(false, workv1alpha1.ManifestWorkReplicaSetSummary{Total: 4, DesiredTotal: 4, Updated: 4, Applied: 4, Available: 4}, rolledOut()...)
	rs.Spec.ManifestWorkTemplate = renderTemplate("s3cret")
	require.NoError(t, h.work.Tracker().Update(workv1alpha1.SchemeGroupVersion.WithResource("manifestworkreplicasets"), rs, "fleet"))
	for cluster, spec := range renderedSpecs() {
		w := succeededWork(cluster, spec)
		if _, err := h.work.Tracker().Get(workv1.SchemeGroupVersion.WithResource("manifestworks"), cluster, "web"); err == nil {
			require.NoError(t, h.work.Tracker().Update(workv1.SchemeGroupVersion.WithResource("manifestworks"), w, cluster))
		} else {
			require.NoError(t, h.work.Tracker().Add(w))
		}
	}
	require.NoError(t, Wait(context.Background(), h.opts, WaitOptions{For: ForHealthy, Timeout: 30 * time.Second}, "web"))
	assert.Equal(t, "manifestworkreplicaset/web is healthy\n", h.out.String())
	for _, w := range h.writes() {
		assert.Regexp(t, "^watch ", w, "wait only reads")
	}
}

// History lists a work under the current revision when it has what that
// revision renders for its cluster, whatever revision its label names:
// web-environments, added in revision 2, leaves cluster4's work (still
// labelled with revision 1) as it was, so cluster4 runs revision 2;
// cluster1's work, the template with an old password, runs revision 1 as
// its label says; cluster2's was written for revision 2.
func TestHistoryWithOverrides(t *testing.T) {
	h := newPreviewHub(true)
	ctx := context.Background()
	rsResource := workv1alpha1.SchemeGroupVersion.WithResource("manifestworkreplicasets")
	obj, err := h.work.Tracker().Get(rsResource, "fleet", "web")
	require.NoError(t, err)
	rs := obj.(*workv1alpha1.ManifestWorkReplicaSet)
	rs.UID = rsUID
	require.NoError(t, h.work.Tracker().Update(rsResource, rs, "fleet"))
	all, err := h.opts.Client.FleetV1alpha1().WorkOverrides("fleet").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	var debugOff, both []fleetv1alpha1.WorkOverride
	for _, o := range all.Items {
		if o.Name == "debug-off" {
			debugOff = append(debugOff, o)
		}
		if o.Spec.ReplicaSet == "web" {
			both = append(both, o)
		}
	}
	rev := func(n int64, overrides []fleetv1alpha1.WorkOverride) (*appsv1.ControllerRevision, string) {
		in := render.Input(rs.Spec.ManifestWorkTemplate, overrides)
		raw, err := revision.Canonical(in)
		require.NoError(t, err)
		hash, err := revision.Hash(in)
		require.NoError(t, err)
		cr := revisionOf(t, "v2", n, time.Duration(3-n)*time.Hour, "")
		cr.Name, cr.Labels[revision.HashLabel], cr.Data.Raw = revision.Name("web", hash), hash, raw
		return cr, hash
	}
	rev1, hash1 := rev(1, debugOff)
	rev2, hash2 := rev(2, both)
	require.NoError(t, h.kube.Tracker().Add(rev1))
	require.NoError(t, h.kube.Tracker().Add(rev2))
	worksResource := workv1.SchemeGroupVersion.WithResource("manifestworks")
	for cluster, hash := range map[string]string{"cluster1": hash1, "cluster2": hash2} {
		obj, err := h.work.Tracker().Get(worksResource, cluster, "web")
		require.NoError(t, err)
		w := obj.(*workv1.ManifestWork)
		w.Labels[revision.HashLabel] = hash
		require.NoError(t, h.work.Tracker().Update(worksResource, w, cluster))
	}
	cluster4 := storedWork("cluster4", renderedSpecs()["cluster4"])
	cluster4.Labels[revision.HashLabel] = hash1
	require.NoError(t, h.work.Tracker().Add(cluster4))

	require.NoError(t, History(ctx, h.opts, HistoryOptions{OutputOptions: OutputOptions{Output: OutputJSON}}, "web"))
	var view HistoryView
	require.NoError(t, json.Unmarshal(h.out.Bytes(), &view))
	require.Len(t, view.Revisions, 2)
	assert.Equal(t, []any{int64(2), true, []string{"cluster2", "cluster4"}},
		[]any{view.Revisions[0].Revision, view.Revisions[0].Current, view.Revisions[0].Clusters})
	assert.Equal(t, []any{int64(1), false, []string{"cluster1"}},
		[]any{view.Revisions[1].Revision, view.Revisions[1].Current, view.Revisions[1].Clusters})
	assert.Empty(t, h.writes())
}
