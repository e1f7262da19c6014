package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/cli"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/framework"
)

// Every `work fleet` command against a real hub with three clusters and
// their agents, run as `work fleet ...` and as the kubectl plugin
// kubectl-work: a healthy rollout (wait 0, status, get works), a paused one
// whose new template waits (pause, wait 3, resume), a rollout stopped by a
// cluster past its progressDeadline (wait 1, status 1), and usage and
// connection errors (2); then history and undo bring the first template
// back (checkFleetUndo); then an approval gate on group 1 {cluster2,
// cluster3} holds until `work fleet approve` (checkFleetGate).
func TestFleetCLI(t *testing.T) {
	e := setup(t)
	startFleetClusters(t, e)
	hub := startFleetHub(t, e)
	// Two decision groups: {cluster1} and {cluster2, cluster3}; Progressive
	// rolls them out as one until a gate parts them.
	writeFleetPlacementGroups(t, e, fleetClusters[:1], fleetClusters[1:])
	createFleetReplicaSet(t, e, fleetTemplate(fleetDeployment(nil)),
		workv1alpha1.RolloutConfig{ProgressDeadline: "10s", MaxFailures: intstr.FromInt32(0)})
	plugin := filepath.Join(t.TempDir(), "kubectl-work")
	require.NoError(t, os.Symlink(e.WorkBinary, plugin))
	work := func(timeout time.Duration, args ...string) framework.Result {
		return runFleetCLI(t, e, e.WorkBinary, timeout, args...)
	}
	kubectlWork := func(timeout time.Duration, args ...string) framework.Result {
		return runFleetCLI(t, e, plugin, timeout, args...)
	}

	// Rolled out and healthy: wait exits 0.
	res := work(4*time.Minute, "fleet", "wait", fleetName, "--for", "healthy", "--timeout", "3m")
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Equal(t, "manifestworkreplicaset/"+fleetName+" is healthy\n", res.Stdout)

	res = work(time.Minute, "fleet", "status", fleetName)
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Contains(t, res.Stdout, "Clusters:    3 selected, 3 updated, 3 applied, 3 available, 0 progressing, 0 degraded")
	assert.Regexp(t, `PlacementRolledOut\s+True\s+Complete`, res.Stdout)
	for _, c := range fleetClusters {
		assert.Regexp(t, c+`\s+[0-9a-f]{10}\s+True\s+False\s+False\s+True\s+True\s+\d+[sm]\n`, res.Stdout, "the row of %s: its revision, applied, done, healthy, in sync", c)
	}

	res = kubectlWork(time.Minute, "fleet", "status", fleetName, "-o", "json")
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	var view cli.StatusView
	require.NoError(t, json.Unmarshal([]byte(res.Stdout), &view))
	require.Len(t, view.Clusters, 3)
	for i, row := range view.Clusters {
		assert.Equal(t, fleetClusters[i], row.Cluster)
		assert.True(t, row.Updated, "%s has the current template", row.Cluster)
		assert.Equal(t, metav1.ConditionTrue, row.Healthy, row.Cluster)
	}

	res = work(time.Minute, "fleet", "get", "works", "--cluster", "cluster2")
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Regexp(t, `NAME\s+CLUSTER\s+NUMBER OF MANIFESTS\s+APPLIED\s+AVAILABLE\s+PROGRESSING\s+DEGRADED\s+HEALTHY\s+INSYNC\s+AGE\n`, res.Stdout)
	assert.Regexp(t, fleetName+`\s+cluster2\s+2\s+True\s+True\s+False\s+False\s+True\s+True\s+`, res.Stdout)
	res = kubectlWork(time.Minute, "fleet", "get", "works", "-o", "wide")
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Regexp(t, fleetName+`\s+cluster3\s+.*`+fleetNamespace+"."+fleetName, res.Stdout)

	// Paused, a new template reaches no cluster: wait times out (3).
	res = work(time.Minute, "fleet", "pause", fleetName)
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Equal(t, "manifestworkreplicaset/"+fleetName+" paused\n", res.Stdout)
	res = kubectlWork(time.Minute, "fleet", "pause", fleetName)
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Equal(t, "manifestworkreplicaset/"+fleetName+" already paused\n", res.Stdout)
	rs, err := e.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(fleetNamespace).Get(t.Context(), fleetName, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "true", rs.Annotations[replicaset.PausedAnnotation])
	updateFleetReplicaSet(t, e, func(rs *workv1alpha1.ManifestWorkReplicaSet) {
		rs.Spec.ManifestWorkTemplate = fleetTemplate(fleetDeployment(map[string]string{fleetNodeLabel: "true"}))
	})
	res = work(time.Minute, "fleet", "wait", fleetName, "--for", "rolled-out", "--timeout", "5s")
	assert.Equal(t, cli.ExitTimedOut, res.ExitCode, "%+v", res)
	assert.Contains(t, res.Stderr, "timed out after 5s")
	res = work(time.Minute, "fleet", "status", fleetName, "-o", "wide")
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Contains(t, res.Stdout, "Paused:      yes")
	assert.Regexp(t, `cluster1\s+.*\s+no\n`, res.Stdout, "cluster1 keeps the old template while paused")

	// Resumed, the template goes to cluster1, whose nodes cannot run it;
	// past its progressDeadline the rollout stops: wait and status exit 1.
	res = kubectlWork(time.Minute, "fleet", "resume", fleetName)
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Equal(t, "manifestworkreplicaset/"+fleetName+" resumed\n", res.Stdout)
	res = work(4*time.Minute, "fleet", "wait", fleetName, "--for", "rolled-out", "--timeout", "3m")
	assert.Equal(t, cli.ExitFailed, res.ExitCode, "%+v", res)
	assert.Contains(t, res.Stderr, "RolloutStopped ProgressDeadlineExceeded")
	res = work(time.Minute, "fleet", "status", fleetName)
	assert.Equal(t, cli.ExitFailed, res.ExitCode, "%+v", res)
	assert.Regexp(t, `RolloutStopped\s+True\s+ProgressDeadlineExceeded`, res.Stdout)
	assert.Regexp(t, `cluster1\s+[0-9a-f]{10}\s+True\s+True\s+`, res.Stdout, "cluster1 applied and progressing")

	checkFleetUndo(t, e, work)
	checkFleetGate(t, e, hub, work)

	// Usage and connection errors: 2.
	for _, args := range [][]string{
		{"fleet", "status"},
		{"fleet", "status", "no-such-replicaset"},
		{"fleet", "wait", fleetName, "--for", "ready"},
		{"fleet", "get", "works", "--kubeconfig", filepath.Join(t.TempDir(), "missing")},
		{"fleet", "history", "no-such-replicaset"},
		{"fleet", "undo", fleetName, "--to-revision", "-1"},
	} {
		res := kubectlWork(time.Minute, args...)
		assert.Equal(t, cli.ExitUsage, res.ExitCode, "%v: %+v", args, res)
	}
}

// checkFleetUndo runs history and undo on the stopped rollout of
// TestFleetCLI: revision 2 (the template cluster1 cannot run) stopped on
// cluster1, cluster2 and cluster3 run revision 1. history shows both with
// their clusters; undo copies revision 1's template back, the works
// converge to it and its hash, wait exits 0, and history shows it as
// revision 3, as StatefulSets renumber; a revision not in the history
// exits 1.
func checkFleetUndo(t *testing.T, e *framework.E2E, work func(time.Duration, ...string) framework.Result) {
	t.Helper()
	first, second := fleetTemplate(fleetDeployment(nil)), fleetTemplate(fleetDeployment(map[string]string{fleetNodeLabel: "true"}))
	hash1, hash2 := templateHash(t, first), templateHash(t, second)
	history := func() []cli.RevisionRow {
		res := work(time.Minute, "fleet", "history", fleetName, "-o", "json")
		require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
		var view cli.HistoryView
		require.NoError(t, json.Unmarshal([]byte(res.Stdout), &view))
		return view.Revisions
	}
	revs := history()
	require.Len(t, revs, 2, "%+v", revs)
	assert.Equal(t, []any{int64(2), hash2, true, []string{"cluster1"}}, []any{revs[0].Revision, revs[0].Hash, revs[0].Current, revs[0].Clusters})
	assert.Equal(t, []any{int64(1), hash1, false, []string{"cluster2", "cluster3"}}, []any{revs[1].Revision, revs[1].Hash, revs[1].Current, revs[1].Clusters})
	res := work(time.Minute, "fleet", "history", fleetName, "-o", "wide")
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Regexp(t, `\n1\s+`+hash1+`\s+\d+[sm]\s+2\s+cluster2,cluster3\s+<none>\n`, res.Stdout)
	res = work(time.Minute, "fleet", "history", fleetName, "--revision", "1", "-o", "json")
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	var in revision.Input
	require.NoError(t, json.Unmarshal([]byte(res.Stdout), &in))
	got, err := revision.Hash(in)
	require.NoError(t, err)
	assert.Equal(t, hash1, got, "--revision 1 prints revision 1's template")

	res = work(time.Minute, "fleet", "undo", fleetName, "--to-revision", "99")
	assert.Equal(t, cli.ExitFailed, res.ExitCode, "%+v", res)
	assert.Contains(t, res.Stderr, "has no revision 99 (its revisions: 2, 1)")
	res = work(time.Minute, "fleet", "undo", fleetName)
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Equal(t, "manifestworkreplicaset/"+fleetName+" rolled back to revision 1\n", res.Stdout)
	rs, err := e.Hub.Work.WorkV1alpha1().ManifestWorkReplicaSets(fleetNamespace).Get(t.Context(), fleetName, metav1.GetOptions{})
	require.NoError(t, err)
	got, err = revision.Hash(revision.InputOf(rs))
	require.NoError(t, err)
	assert.Equal(t, hash1, got, "the replica set's template is revision 1's")
	assert.Equal(t, "work fleet undo "+fleetName+" --to-revision 1", rs.Annotations[cli.ChangeCauseAnnotation])

	waitFleetWorksOn(t, e, hash1, fleetClusters, "every work back on revision 1, spec and label")
	res = work(4*time.Minute, "fleet", "wait", fleetName, "--for", "healthy", "--timeout", "3m")
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)

	revs = history()
	require.Len(t, revs, 2, "%+v", revs)
	assert.Equal(t, []any{int64(3), hash1, true, []string{"cluster1", "cluster2", "cluster3"}, "work fleet undo " + fleetName + " --to-revision 1"},
		[]any{revs[0].Revision, revs[0].Hash, revs[0].Current, revs[0].Clusters, revs[0].ChangeCause}, "revision 1 is renumbered 3")
	assert.Equal(t, []any{int64(2), hash2, []string{}}, []any{revs[1].Revision, revs[1].Hash, revs[1].Clusters})
	res = work(time.Minute, "fleet", "undo", fleetName, "--to-revision", "3")
	require.Equal(t, cli.ExitOK, res.ExitCode, "%+v", res)
	assert.Equal(t, "manifestworkreplicaset/"+fleetName+" skipped rollback (current template already matches revision 3)\n", res.Stdout)
}

// runFleetCLI runs binary (work, or its symlink kubectl-work) with args and
// the hub's kubeconfig in $KUBECONFIG, in the fleet's namespace unless args
// name one; it returns what it printed and its exit code.
func runFleetCLI(t *testing.T, e *framework.E2E, binary string, timeout time.Duration, args ...string) framework.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append(args, "-n", fleetNamespace)...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+e.Hub.Kubeconfig)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s %v: %v", binary, args, err)
	}
	res := framework.Result{Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: cmd.ProcessState.ExitCode()}
	t.Logf("%s %v: exit %d\n%s%s", filepath.Base(binary), args, res.ExitCode, res.Stdout, res.Stderr)
	return res
}
