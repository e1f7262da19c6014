package e2e

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/test/framework"
)

// TestDocsCloudEventsPage runs the walkthrough of
// docs/deliver-over-cloudevents.md as a user runs it: every ```sh block, in
// the order written, in bash (-euo pipefail), in a folder laid out as a
// checkout is. The walkthrough makes its own kwok cluster and starts its
// own broker, source and agent as local processes; the page ends by
// stopping them and deleting the cluster, and the test checks that nothing
// is left running.
//
// The first block, which builds `work` and `hack/cesource` and finds the
// test bed and the broker, is not run: the test hands over the same things,
// the run's work binary and cesource built from this checkout as
// _output/bin/work and _output/bin/cesource, and $bin and $broker from
// WORK_TESTBED_BIN and WORK_MQTT_BROKER.
func TestDocsCloudEventsPage(t *testing.T) {
	const page = "docs/deliver-over-cloudevents.md"
	e := setup(t)
	broker := framework.MQTTBrokerBinary(t)
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(filepath.Join(dir, "manifests"), os.DirFS(framework.RepoPath("manifests"))))
	binDir := linkBuiltWork(t, dir, e.WorkBinary)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(binDir, "cesource"), "./hack/cesource")
	build.Dir = framework.RepoPath()
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build ./hack/cesource: %s", out)

	home := t.TempDir()
	r := &docsRun{t: t, e: e, page: page, dir: dir, state: filepath.Join(home, "state.sh")}
	r.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C"}
	require.NoError(t, os.WriteFile(r.state, []byte("export bin="+strconv.Quote(e.Bin)+"\nexport broker="+strconv.Quote(broker)+"\n"), 0o600))

	// What the page started, by the pid files it writes: stopped here if a
	// block fails before the page's own clean-up.
	state := filepath.Join(dir, "_output", "cloudevents")
	started := map[int]string{}
	t.Cleanup(func() { stopWalkthrough(t, e.Bin, state, started) })

	ran := 0
	for _, b := range docBlocks(t, page) {
		if b.skip != "" {
			t.Logf("%s:%d: not run: %s", page, b.line, b.skip)
			continue
		}
		r.run(b)
		ran++
		files, _ := filepath.Glob(filepath.Join(state, "*.pid"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			require.NoError(t, err, "%s holds a process id", f)
			started[pid] = filepath.Base(f)
		}
	}
	t.Logf("%s: %d blocks run", page, ran)

	require.NoDirExists(t, state, "the page's clean-up removes its folder")
	require.Len(t, started, 6, "the page starts a broker twice, a source and an agent over MQTT, and both again over gRPC")
	// The page's kill asks them to stop; the agent then shuts down cleanly,
	// which takes a moment.
	for pid, what := range started {
		require.Eventually(t, func() bool { return exited(pid) }, 30*time.Second, 100*time.Millisecond,
			"process %d (%s) is stopped by the page's clean-up", pid, what)
	}
}

// exited tells whether the process is gone: no such process, or a zombie
// that its new parent has not reaped yet.
func exited(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
	}
	// The state follows the command, which is in parentheses.
	_, rest, _ := strings.Cut(string(stat), ") ")
	return strings.HasPrefix(rest, "Z")
}

// stopWalkthrough stops what the page started and left running, and
// deletes its kwok cluster if the page did not.
func stopWalkthrough(t *testing.T, bin, state string, started map[int]string) {
	for pid, what := range started {
		if !exited(pid) {
			t.Logf("stopping %s (process %d), left by the page", what, pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	if _, err := os.Stat(filepath.Join(state, "kwok")); err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	del := exec.CommandContext(ctx, filepath.Join(bin, "kwokctl"), "delete", "cluster", "--name", "ce-cluster1")
	del.Env = append(os.Environ(), "KWOK_WORKDIR="+filepath.Join(state, "kwok"), "HOME="+filepath.Join(state, "home"))
	if out, err := del.CombinedOutput(); err != nil {
		t.Logf("kwokctl delete cluster ce-cluster1: %v: %s", err, out)
	}
}
