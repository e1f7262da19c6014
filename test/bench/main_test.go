//go:build linux

// Package bench measures a work agent end to end (issue 7): cold apply, idle,
// drift repair, status feedback, deletion and the agent's own footprint, on a
// kwok hub and one managed cluster. It runs only under `make bench`
// (WORK_BENCH=1), because it takes minutes and wants a quiet machine.
//
// The agent is a real process started from a command template, so the same
// measurements can be taken of other agents side by side (BENCH_AGENTS).
// Linux only: the footprint is read from /proc.
package bench

import (
	"os"
	"testing"

	"github.com/manifestwork/work/test/framework"
)

// envEnable gates the package; without it every test skips and no cluster is created.
const envEnable = "WORK_BENCH"

// clusterName is the one managed cluster of the bench.
const clusterName = "cluster1"

// env is the hub and cluster1, shared by every agent measured in a run.
var env *framework.E2E

// suite creates the clusters only when the bench is enabled, so that a plain
// `go test ./...` does not start kwok for tests that would all skip.
type suite struct{}

func (suite) Setup() error {
	if !enabled() {
		return nil
	}
	env = framework.NewE2E(framework.E2EOptions{ManagedClusters: []string{clusterName}, Nodes: 2})
	return env.Start()
}

func (suite) Teardown(failed bool) {
	if env != nil {
		env.Stop(failed)
	}
}

func enabled() bool { return os.Getenv(envEnable) == "1" }

func TestMain(m *testing.M) {
	framework.Main(m, suite{})
}

// managedCluster is cluster1, the only managed cluster of the bench.
func managedCluster(e *framework.E2E) *framework.Cluster { return e.Managed[0] }

// setup skips t unless the bench is enabled and the clusters are up.
func setup(t *testing.T) *framework.E2E {
	t.Helper()
	if !enabled() {
		t.Skip("the bench runs only under `make bench` (" + envEnable + "=1)")
	}
	framework.SkipWithoutTestbed(t)
	return env
}
