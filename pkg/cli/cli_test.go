package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned/fake"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/fixture"
)

// update rewrites the golden files of testdata/ from what the commands
// print: go test ./pkg/cli -update (or UPDATE_GOLDEN=1).
var update = flag.Bool("update", os.Getenv("UPDATE_GOLDEN") == "1", "rewrite the golden files in testdata/")

// now is the clock of the tests; every fixture was created an hour before.
var now = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./pkg/cli -update to write it")
	assert.Equal(t, string(want), got, "%s differs; go test ./pkg/cli -update rewrites it", path)
}

func template(data string) workv1.ManifestWorkSpec {
	return fixture.NewWork("x", "x").WithManifest(fixture.ConfigMap("default", "web-config", map[string]string{"v": data})).Build().Spec
}

func cond(t string, status metav1.ConditionStatus, reason, message string) metav1.Condition {
	return metav1.Condition{Type: t, Status: status, Reason: reason, Message: message, ObservedGeneration: 1,
		LastTransitionTime: metav1.NewTime(now.Add(-time.Minute))}
}

// replicaSet is the replica set fleet/web, with template v2, paused or not,
// with conditions.
func replicaSet(paused bool, summary workv1alpha1.ManifestWorkReplicaSetSummary, conds ...metav1.Condition) *workv1alpha1.ManifestWorkReplicaSet {
	rs := &workv1alpha1.ManifestWorkReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "fleet", Name: "web", CreationTimestamp: metav1.NewTime(now.Add(-time.Hour))},
		Spec: workv1alpha1.ManifestWorkReplicaSetSpec{
			ManifestWorkTemplate: template("v2"),
			PlacementRefs:        []workv1alpha1.LocalPlacementReference{{Name: "web"}},
		},
		Status: workv1alpha1.ManifestWorkReplicaSetStatus{Conditions: conds, Summary: summary,
			PlacementsSummary: []workv1alpha1.PlacementSummary{{Name: "web", AvailableDecisionGroups: "1 (3 / 3 clusters applied)", Summary: summary}}},
	}
	if paused {
		rs.Annotations = map[string]string{replicaset.PausedAnnotation: "true"}
	}
	return rs
}

// work is the replica set's work on cluster, from template data, with the
// revision hash label when hash is set.
func work(cluster, data, hash string, conds ...metav1.Condition) *workv1.ManifestWork {
	w := fixture.NewWork(cluster, "web").WithManifest(fixture.ConfigMap("default", "web-config", map[string]string{"v": data})).
		WithGeneration(1).WithCondition(conds...).Build()
	w.Labels = map[string]string{workv1alpha1.ReplicaSetLabel: "fleet.web", workv1alpha1.PlacementNameLabel: "web"}
	if hash != "" {
		w.Labels[revision.HashLabel] = hash
	}
	w.CreationTimestamp = metav1.NewTime(now.Add(-time.Hour))
	return w
}

// succeeded are the conditions of a work our agent has rolled out.
func succeeded() []metav1.Condition {
	return []metav1.Condition{
		cond(workv1.WorkApplied, metav1.ConditionTrue, workv1.WorkAppliedReasonComplete, workv1.WorkAppliedMessageComplete),
		cond(workv1.WorkAvailable, metav1.ConditionTrue, workv1.WorkAvailableReasonAvailable, workv1.WorkAvailableMessageAvailable),
		cond(workv1.WorkProgressing, metav1.ConditionFalse, workv1.WorkProgressingReasonCompleted, "Every manifest is applied and healthy"),
		cond(workv1.WorkDegraded, metav1.ConditionFalse, workv1.WorkDegradedReasonAsExpected, ""),
		cond(workv1.WorkHealthy, metav1.ConditionTrue, workv1.HealthyReasonHealthy, "1 of 1 manifests are healthy"),
		cond(workv1.WorkInSync, metav1.ConditionTrue, "InSync", "Every manifest is in sync"),
	}
}

// degraded are the conditions of a work whose Deployment failed.
func degraded() []metav1.Condition {
	return []metav1.Condition{
		cond(workv1.WorkApplied, metav1.ConditionTrue, workv1.WorkAppliedReasonComplete, workv1.WorkAppliedMessageComplete),
		cond(workv1.WorkAvailable, metav1.ConditionTrue, workv1.WorkAvailableReasonAvailable, workv1.WorkAvailableMessageAvailable),
		cond(workv1.WorkProgressing, metav1.ConditionTrue, workv1.WorkProgressingReasonRollingOut, "1 of 1 manifests are not healthy yet"),
		cond(workv1.WorkDegraded, metav1.ConditionTrue, workv1.WorkDegradedReasonManifestsDegraded,
			"1 of 1 manifests are degraded: Deployment.apps default/web is Degraded (ProgressDeadlineExceeded: ReplicaSet \"web-5d4\" has timed out progressing.)\nsecond line"),
		cond(workv1.WorkHealthy, metav1.ConditionFalse, workv1.HealthyReasonDegraded, "Deployment.apps default/web is Degraded"),
		cond(workv1.WorkInSync, metav1.ConditionFalse, "Drifted", "ConfigMap default/web-config: data.v differs"),
	}
}

func completeSummary() workv1alpha1.ManifestWorkReplicaSetSummary {
	return workv1alpha1.ManifestWorkReplicaSetSummary{Total: 3, DesiredTotal: 3, Updated: 3, Applied: 3, Available: 3}
}

func rolledOut() []metav1.Condition {
	return []metav1.Condition{
		cond(workv1alpha1.ConditionPlacementVerified, metav1.ConditionTrue, workv1alpha1.ReasonAsExpected, ""),
		cond(workv1alpha1.ConditionPlacementRolledOut, metav1.ConditionTrue, workv1alpha1.ReasonComplete, ""),
		cond(workv1alpha1.ConditionManifestworkApplied, metav1.ConditionTrue, workv1alpha1.ReasonAsExpected, ""),
		cond(replicaset.ConditionFleetHealthy, metav1.ConditionTrue, replicaset.ReasonAllHealthy, "3 of 3 clusters healthy"),
		cond(replicaset.ConditionFleetInSync, metav1.ConditionTrue, replicaset.ReasonInSync, "0 of 3 clusters drifted"),
	}
}

// stoppedFleet is a rollout stopped on cluster2: cluster1 has the current
// template (v2, revision label set), cluster2 too and is degraded,
// cluster3 still has v1 and no revision label.
func stoppedFleet() []runtime.Object {
	summary := workv1alpha1.ManifestWorkReplicaSetSummary{Total: 2, DesiredTotal: 3, Updated: 2, Applied: 2, Available: 2, Progressing: 1, Degraded: 1}
	rs := replicaSet(false, summary,
		cond(workv1alpha1.ConditionPlacementVerified, metav1.ConditionTrue, workv1alpha1.ReasonAsExpected, ""),
		cond(workv1alpha1.ConditionPlacementRolledOut, metav1.ConditionFalse, workv1alpha1.ReasonProgressing, "Stopped by failures: see the condition RolloutStopped"),
		cond(workv1alpha1.ConditionManifestworkApplied, metav1.ConditionFalse, workv1alpha1.ReasonNotAsExpected, ""),
		cond(replicaset.ConditionFleetHealthy, metav1.ConditionFalse, replicaset.ReasonClustersDegraded, "2 of 3 clusters healthy; degraded: cluster2"),
		cond(replicaset.ConditionFleetInSync, metav1.ConditionFalse, replicaset.ReasonDrifted, "1 of 3 clusters drifted: cluster2"),
		cond(replicaset.ConditionRolloutStopped, metav1.ConditionTrue, replicaset.ReasonMaxFailuresReached,
			"Rollout stopped on placement web: more clusters failed than maxFailures allows: cluster2\ncluster2: Degraded=True ManifestsDegraded: ..."),
	)
	return []runtime.Object{rs,
		work("cluster1", "v2", "5f7c9d", succeeded()...),
		work("cluster2", "v2", "5f7c9d", degraded()...),
		work("cluster3", "v1", "", succeeded()...),
		fixture.NewWork("cluster3", "other").WithManifest(fixture.Namespace("other")).Build(),
	}
}

// options are the options of a command on a fake hub with objs: the
// ControllerRevisions in the client of Kubernetes' API (o.Kube), the rest in
// that of ours.
func options(objs ...runtime.Object) (*Options, *fake.Clientset, *bytes.Buffer) {
	var ours, kube []runtime.Object
	for _, obj := range objs {
		if _, ok := obj.(*appsv1.ControllerRevision); ok {
			kube = append(kube, obj)
		} else {
			ours = append(ours, obj)
		}
	}
	client := fake.NewSimpleClientset(ours...)
	var out bytes.Buffer
	return &Options{Client: client, Kube: kubefake.NewSimpleClientset(kube...), Namespace: "fleet", Out: &out,
		Now: func() time.Time { return now }}, client, &out
}

func TestStatus(t *testing.T) {
	for _, tt := range []struct {
		golden, output string
		objs           []runtime.Object
		code           int
	}{
		{"status-stopped.txt", OutputTable, stoppedFleet(), ExitFailed},
		{"status-stopped-wide.txt", OutputWide, stoppedFleet(), ExitFailed},
		{"status-stopped.yaml", OutputYAML, stoppedFleet(), ExitFailed},
		{"status-stopped.json", OutputJSON, stoppedFleet(), ExitFailed},
		{"status-paused-no-works.txt", OutputTable, []runtime.Object{replicaSet(true, workv1alpha1.ManifestWorkReplicaSetSummary{})}, ExitOK},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			o, _, out := options(tt.objs...)
			err := Status(context.Background(), o, OutputOptions{Output: tt.output}, "web")
			assert.Equal(t, tt.code, ExitCode(err, -1), "a stopped rollout exits 1: %v", err)
			golden(t, tt.golden, out.String())
		})
	}
}

func TestGetWorks(t *testing.T) {
	for _, tt := range []struct {
		golden string
		wo     WorksOptions
		name   string
	}{
		{"works.txt", WorksOptions{}, ""},
		{"works-cluster2-wide.txt", WorksOptions{Cluster: "cluster2", OutputOptions: OutputOptions{Output: OutputWide}}, ""},
		{"works-named.yaml", WorksOptions{OutputOptions: OutputOptions{Output: OutputYAML}}, "other"},
		{"works-none.txt", WorksOptions{Cluster: "cluster9"}, ""},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			o, _, out := options(stoppedFleet()...)
			require.NoError(t, GetWorks(context.Background(), o, tt.wo, tt.name))
			golden(t, tt.golden, out.String())
		})
	}
}

// Pause and resume set and remove the annotation once; again, they write
// nothing.
func TestPauseResume(t *testing.T) {
	o, client, out := options(replicaSet(false, completeSummary()))
	ctx := context.Background()
	annotation := func() (string, bool) {
		rs, err := client.WorkV1alpha1().ManifestWorkReplicaSets("fleet").Get(ctx, "web", metav1.GetOptions{})
		require.NoError(t, err)
		v, ok := rs.Annotations[replicaset.PausedAnnotation]
		return v, ok
	}
	patches := func() int {
		n := 0
		for _, a := range client.Actions() {
			if a.GetVerb() == "patch" {
				n++
			}
		}
		return n
	}
	require.NoError(t, Pause(ctx, o, "web", true))
	v, ok := annotation()
	assert.True(t, ok)
	assert.Equal(t, "true", v)
	require.NoError(t, Pause(ctx, o, "web", true))
	assert.Equal(t, 1, patches(), "pausing a paused replica set writes nothing")

	require.NoError(t, Pause(ctx, o, "web", false))
	_, ok = annotation()
	assert.False(t, ok, "resume removes the annotation")
	require.NoError(t, Pause(ctx, o, "web", false))
	assert.Equal(t, 2, patches(), "resuming a running replica set writes nothing")
	golden(t, "pause-resume.txt", out.String())

	err := Pause(ctx, o, "missing", true)
	assert.Equal(t, ExitUsage, ExitCode(err, -1), "a replica set that does not exist: %v", err)
}

func TestJudge(t *testing.T) {
	stopped := stoppedFleet()
	unhealthy := succeeded()
	unhealthy[4] = cond(workv1.WorkHealthy, metav1.ConditionFalse, workv1.HealthyReasonProgressing, "Deployment.apps default/web is Progressing")
	for _, tt := range []struct {
		name    string
		rs      *workv1alpha1.ManifestWorkReplicaSet
		works   []*workv1.ManifestWork
		forWhat string
		pending string
		code    int
	}{
		{"rolled out", replicaSet(false, completeSummary(), rolledOut()...),
			[]*workv1.ManifestWork{work("c1", "v2", "", succeeded()...), work("c2", "v2", "", succeeded()...), work("c3", "v2", "", succeeded()...)},
			ForHealthy, "", ExitOK},
		{"stopped", stopped[0].(*workv1alpha1.ManifestWorkReplicaSet), nil, ForRolledOut, "", ExitFailed},
		{"aborted", replicaSet(false, completeSummary(), append(rolledOut(),
			cond(replicaset.ConditionRolloutAborted, metav1.ConditionTrue, "Aborted", "revision 2 failed on c2"))...), nil, ForRolledOut, "", ExitFailed},
		{"aborted for the template before an undo", staleAbort(), nil, ForRolledOut, "PlacementRolledOut is not True yet", ExitOK},
		{"status not complete", replicaSet(false, completeSummary()), nil, ForRolledOut, "PlacementRolledOut is not True yet", ExitOK},
		{"a work on the old template, the status not written yet", replicaSet(false, completeSummary(), rolledOut()...),
			[]*workv1.ManifestWork{work("c1", "v1", "", succeeded()...)}, ForRolledOut, "the work of c1 does not have the current template yet", ExitOK},
		{"a work progressing", replicaSet(false, completeSummary(), rolledOut()...),
			[]*workv1.ManifestWork{work("c1", "v2", "", degraded()...)}, ForRolledOut, "the work of c1 is Failed", ExitOK},
		{"too few works", replicaSet(false, completeSummary(), rolledOut()...),
			[]*workv1.ManifestWork{work("c1", "v2", "", succeeded()...)}, ForRolledOut, "1 of 3 selected clusters have succeeded", ExitOK},
		{"rolled out, not healthy", replicaSet(false, completeSummary(), rolledOut()...),
			[]*workv1.ManifestWork{work("c1", "v2", "", unhealthy...)}, ForHealthy,
			"the work of c1 is not Healthy: Healthy: Deployment.apps default/web is Progressing", ExitOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pending, err := judge(tt.rs, tt.works, tt.forWhat, currentOf(context.Background(), hub{work: fake.NewSimpleClientset(), namespace: "fleet"}))
			assert.Equal(t, tt.code, ExitCode(err, -1), "%v", err)
			assert.Equal(t, tt.pending, pending)
		})
	}
}

// staleAbort is a replica set whose spec an undo has just changed
// (generation 3) while its status still says the rollout of generation 2
// aborted and rolled out.
func staleAbort() *workv1alpha1.ManifestWorkReplicaSet {
	conds := append(rolledOut(), cond(replicaset.ConditionRolloutAborted, metav1.ConditionTrue, "Aborted", "revision 2 failed on c2"))
	for i := range conds {
		conds[i].ObservedGeneration = 2
	}
	rs := replicaSet(false, completeSummary(), conds...)
	rs.Generation = 3
	return rs
}

// Wait watches: it returns once a change makes the rollout complete, 1 on
// a stopped rollout, 3 past its timeout.
func TestWait(t *testing.T) {
	ctx := context.Background()
	t.Run("rolled out after a change", func(t *testing.T) {
		rs := replicaSet(false, completeSummary(), rolledOut()...)
		o, client, out := options(rs, work("c1", "v2", "", succeeded()...), work("c2", "v2", "", succeeded()...), work("c3", "v2", "", degraded()...))
		done := make(chan error, 1)
		go func() { done <- Wait(ctx, o, WaitOptions{For: ForHealthy, Timeout: 30 * time.Second}, "web") }()
		_, err := client.WorkV1().ManifestWorks("c3").Update(ctx, work("c3", "v2", "", succeeded()...), metav1.UpdateOptions{})
		require.NoError(t, err)
		require.NoError(t, <-done)
		assert.Equal(t, "manifestworkreplicaset/web is healthy\n", out.String())
	})
	t.Run("stopped", func(t *testing.T) {
		o, _, _ := options(stoppedFleet()...)
		err := Wait(ctx, o, WaitOptions{For: ForRolledOut, Timeout: 30 * time.Second}, "web")
		assert.Equal(t, ExitFailed, ExitCode(err, -1))
		assert.EqualError(t, err, "manifestworkreplicaset fleet/web: RolloutStopped MaxFailuresReached: "+
			"Rollout stopped on placement web: more clusters failed than maxFailures allows: cluster2")
	})
	t.Run("timed out", func(t *testing.T) {
		o, _, _ := options(replicaSet(false, completeSummary()))
		err := Wait(ctx, o, WaitOptions{For: ForRolledOut, Timeout: time.Second}, "web")
		assert.Equal(t, ExitTimedOut, ExitCode(err, -1))
		// What it still waits for, once the watches have synced (which a
		// loaded machine may not do within the second).
		assert.Regexp(t, `^timed out after 1s waiting for manifestworkreplicaset fleet/web to be rolled-out: `+
			`(PlacementRolledOut is not True yet|the watches have not synced)$`, err.Error())
	})
	t.Run("no such replica set", func(t *testing.T) {
		o, _, _ := options()
		err := Wait(ctx, o, WaitOptions{For: ForRolledOut, Timeout: 30 * time.Second}, "web")
		assert.Equal(t, ExitUsage, ExitCode(err, -1))
	})
}

func TestValidate(t *testing.T) {
	assert.Equal(t, ExitUsage, ExitCode((&OutputOptions{Output: "table"}).Validate(), -1))
	assert.NoError(t, (&OutputOptions{Output: "wide"}).Validate())
	err := (&WaitOptions{For: "ready"}).Validate()
	assert.Equal(t, ExitUsage, ExitCode(err, -1))
	assert.EqualError(t, err, `--for "ready": want rolled-out or healthy; --timeout must be positive, got 0s`)
	assert.NoError(t, NewWaitOptions().Validate())
}
