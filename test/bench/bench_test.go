//go:build linux

package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/manifestwork/work/test/framework"
)

// agentStopTimeout bounds SIGTERM before the agent is killed.
const agentStopTimeout = 30 * time.Second

// TestBench measures each agent of BENCH_AGENTS in turn on the same
// clusters, cleaned between agents, prints the table and writes it with the
// JSON under BENCH_OUT (default _output/bench).
func TestBench(t *testing.T) {
	e := setup(t)
	p := paramsFromEnv(t)
	out := outDir(t, p)
	ctx := t.Context()
	r := &report{
		Started: time.Now(), Works: p.Works, Manifests: p.Manifests, Objects: p.Works * p.Manifests,
		QPS: p.QPS, Idle: p.Idle.String(),
		Machine: thisMachine(),
	}
	h, err := newHarness(ctx, e, p)
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	r.Agents = eachAgent(t, p.Agents, func(spec agentSpec) (agentResult, []string) {
		res := h.measure(ctx, t, e, spec, out)
		return res, res.Errors
	}, func() error { return h.reset(ctx) })
	r.Machine.LoadAfter = loadAvg()
	r.buildTable()
	path, err := r.write(out)
	if err != nil {
		t.Error(err)
	}
	fmt.Printf("\n%s\nbench: written %s (and .txt)\n", r.text(), path)
}

// eachAgent measures every agent in turn with measure, which returns its
// result and errors, and cleans the clusters with reset after each. Errors
// fail t; a failed cleanup ends it.
func eachAgent[T any](t *testing.T, agents []agentSpec, measure func(agentSpec) (T, []string), reset func() error) []T {
	var results []T
	for _, spec := range agents {
		res, errs := measure(spec)
		results = append(results, res)
		for _, msg := range errs {
			t.Errorf("%s: %s", spec.Name, msg)
		}
		if err := reset(); err != nil {
			t.Fatalf("cleaning up after %s: %v", spec.Name, err)
		}
	}
	return results
}

// measure runs the phases for one agent. A failed phase ends the agent's
// measurement (later phases need its state), but the footprint is still read.
func (h *harness) measure(ctx context.Context, t *testing.T, e *framework.E2E, spec agentSpec, out string) (res agentResult) {
	res = agentResult{Name: spec.Name, Log: filepath.Join(out, spec.Name+"-agent.log")}
	fail := func(err error) agentResult {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	command, err := spec.render(agentVars{
		HubKubeconfig: e.Hub.Kubeconfig, Kubeconfig: managedCluster(e).Kubeconfig,
		ClusterName: clusterName, WorkBinary: e.WorkBinary,
	})
	if err != nil {
		return fail(err)
	}
	res.Command = command
	// The clusters' own traffic on the counted resources, without agent.
	t.Logf("%s: measuring the clusters' background for %s", spec.Name, h.params.Baseline)
	if err := h.measureBackground(ctx, h.params.Baseline); err != nil {
		return fail(err)
	}
	res.Background = map[string]map[string]float64{"hub": rates(h.hub.background), "managed": rates(h.spoke.background)}
	_ = os.Remove(res.Log)
	agent, err := startAgentProcess(command, res.Log)
	if err != nil {
		return fail(err)
	}
	defer func() {
		if err := agent.stop(agentStopTimeout); err != nil {
			res.Errors = append(res.Errors, err.Error())
		}
	}()
	exited := agent.exited()
	// retire records the footprint of the running process before a phase
	// stops it (see agentResult.BeforeRestart).
	retire := func() error {
		stats, err := readProcStats(agent.pid())
		if err != nil {
			return err
		}
		stats = stats.over(res.BeforeRestart)
		res.BeforeRestart = &stats
		return nil
	}
	// replaceWith starts the process that replaces the running one, with
	// command, once that one has stopped.
	replaceWith := func(command string) func() (<-chan struct{}, error) {
		return func() (<-chan struct{}, error) {
			next, err := startAgentProcess(command, res.Log)
			if err != nil {
				return nil, err
			}
			agent, exited = next, next.exited()
			return exited, nil
		}
	}
	phases := []struct {
		name string
		run  func() error
	}{
		{"warm-up", func() error { return h.warmup(ctx, exited) }},
		{"cold apply", func() (err error) {
			if res.Cold, err = h.cold(ctx, exited, agent.pid()); err != nil {
				return err
			}
			// The footprint with everything applied, apart from the peak
			// of the whole run (which deletion may set).
			stats, err := readProcStats(agent.pid())
			res.AfterCold = &stats
			return err
		}},
		{"idle", func() (err error) { res.Idle, err = h.idle(ctx, exited, h.params.Idle); return err }},
		{"drift repair", func() (err error) { res.Drift, err = h.drift(ctx, exited); return err }},
		{"feedback", func() (err error) {
			if res.Feedback, err = h.feedback(ctx, exited); err != nil {
				return err
			}
			return h.removeFeedbackWorks(ctx, exited)
		}},
		{"restart", func() (err error) {
			if err := retire(); err != nil {
				return err
			}
			res.Restart, err = h.restart(ctx, agent.kill, replaceWith(command))
			return err
		}},
		{"takeover", func() (err error) {
			// As deployed: with a lease. The first such process takes the
			// free lease at once; the next takes it over when that one
			// stops (SIGTERM) and gives it up, as in a rolling update.
			elected := withLeaderElection(command)
			if err := retire(); err != nil {
				return err
			}
			if err := agent.kill(); err != nil {
				return err
			}
			if _, err := replaceWith(elected)(); err != nil {
				return err
			}
			if _, err := h.waitQuiet(ctx, exited); err != nil {
				return fmt.Errorf("the first process with a lease: %w", err)
			}
			if err := retire(); err != nil {
				return err
			}
			res.Takeover, err = h.restart(ctx, func() error { return agent.stop(agentStopTimeout) }, replaceWith(elected))
			return err
		}},
		{"health", func() (err error) { res.Health, err = h.health(ctx, exited, agent.pid()); return err }},
		{"delete all", func() (err error) { res.Delete, err = h.deleteAll(ctx, exited); return err }},
	}
	for _, phase := range phases {
		began := time.Now()
		t.Logf("%s: %s", spec.Name, phase.name)
		if err := phase.run(); err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: %v (agent log: %s)", phase.name, err, res.Log))
			break
		}
		t.Logf("%s: %s done in %s", spec.Name, phase.name, time.Since(began).Round(time.Millisecond))
	}
	// With -v=6 the agent logs every request it sends: counted for the analysis.
	hosts := map[string]string{framework.HostOf(e.Hub.Config.Host): "hub", framework.HostOf(managedCluster(e).Config.Host): "managed"}
	if logged, err := framework.ScanRequestLog(res.Log, hosts, time.Time{}, time.Time{}); err == nil && len(logged) > 0 {
		res.LoggedRequests = logged
		if res.Cold != nil {
			res.LoggedColdRequests, _ = framework.ScanRequestLog(res.Log, hosts, res.Cold.began, res.Cold.ended)
		}
	}
	// Read just before stopping: VmHWM and the CPU time of the whole life,
	// over every process when the agent was restarted.
	if stats, err := readProcStats(agent.pid()); err != nil {
		res.Errors = append(res.Errors, "process stats: "+err.Error())
	} else {
		stats = stats.over(res.BeforeRestart)
		res.Process = &stats
	}
	return res
}

// outDir is BENCH_OUT (default _output/bench), relative to the repository,
// not to this package where go test runs; it is created.
func outDir(t *testing.T, p params) string {
	t.Helper()
	out := p.Out
	if out == "" {
		out = filepath.Join("_output", "bench")
	}
	if !filepath.IsAbs(out) {
		root, err := framework.RepoRoot()
		if err != nil {
			t.Fatal(err)
		}
		out = filepath.Join(root, out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}

func rates(m map[reqKey]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range m {
		out[k.String()] = v
	}
	return out
}

func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

func memTotalMB() int { return meminfoMB("MemTotal") }

// meminfoMB reads a field of /proc/meminfo in MB, or 0.
func meminfoMB(field string) int {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.Atoi(strings.Fields(rest)[0])
			return kb / 1024
		}
	}
	return 0
}
