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
	"github.com/manifestwork/work/test/framework"
)

// Every `work fleet` command against a real hub with three clusters and
// their agents, run as `work fleet ...` and as the kubectl plugin
// kubectl-work: a healthy rollout (wait 0, status, get works), a paused one
// whose new template waits (pause, wait 3, resume), a rollout stopped by a
// cluster past its progressDeadline (wait 1, status 1), and usage and
// connection errors (2).
func TestFleetCLI(t *testing.T) {
	e := setup(t)
	startFleet(t, e)
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
		assert.Regexp(t, c+`\s+True\s+False\s+False\s+True\s+True\s+\d+[sm]\n`, res.Stdout, "the row of %s: applied, done, healthy, in sync", c)
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
	assert.Regexp(t, `cluster1\s+True\s+True\s+`, res.Stdout, "cluster1 applied and progressing")

	// Usage and connection errors: 2.
	for _, args := range [][]string{
		{"fleet", "status"},
		{"fleet", "status", "no-such-replicaset"},
		{"fleet", "wait", fleetName, "--for", "ready"},
		{"fleet", "get", "works", "--kubeconfig", filepath.Join(t.TempDir(), "missing")},
	} {
		res := kubectlWork(time.Minute, args...)
		assert.Equal(t, cli.ExitUsage, res.ExitCode, "%v: %+v", args, res)
	}
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
