//go:build linux

package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/intstr"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
	"github.com/manifestwork/work/test/framework"
)

// An aborted rollout and a long history (issue 38), with our hub controller
// alone (OCM's has neither), on the rollout's clusters and simulated agents:
//
//  1. abort: a replica set with on-failure Abort rolls revision 1 out with
//     Progressive maxConcurrency 25% and maxFailures 0; revision 2 then
//     fails on every tenth cluster (Progressing and Degraded), so the first
//     of them that reports stops it; measured is the time from that report
//     to every cluster revision 2 reached back on revision 1's spec and
//     revision hash, and the controller's hub writes over the whole phase;
//  2. history: ten more templates, each rolled out to every cluster
//     (strategy All, to keep the run short), leave the history at its
//     default limit of ten revisions; measured are the controller's memory
//     and its requests over a quiet window (BENCH_IDLE), which must be none.

const (
	// abortConcurrency is revision 2's maxConcurrency: the clusters it reaches.
	abortConcurrency = "25%"
	// abortEvery: every abortEvery-th cluster fails revision 2.
	abortEvery = 10
	// historyChanges are the templates rolled out after the abort.
	historyChanges = 10
)

// abortReport is the JSON of TestRolloutAbort, written under BENCH_OUT.
type abortReport struct {
	Started    time.Time          `json:"started"`
	Clusters   int                `json:"clusters"`
	Delays     string             `json:"simulatedDelays"`
	Idle       string             `json:"idle"`
	Machine    machine            `json:"machine"`
	Background map[string]float64 `json:"hubBackgroundPerSecond"`
	Command    string             `json:"command"`
	Log        string             `json:"log"`
	Abort      *abortPhase        `json:"abort,omitempty"`
	History    *historyPhase      `json:"history,omitempty"`
	Errors     []string           `json:"errors,omitempty"`
	Table      []row              `json:"table"`
}

// abortPhase is revision 2's failure and the way back.
type abortPhase struct {
	Failing []string `json:"failing"` // the clusters that fail revision 2
	Reached []string `json:"reached"` // the clusters whose work held revision 2
	// Seconds is from the first failure's report to every reached cluster
	// back on revision 1; ChangeSeconds from the template change to the same.
	Seconds       float64        `json:"seconds"`
	ChangeSeconds float64        `json:"changeSeconds"`
	CPUSeconds    float64        `json:"controllerCpuSeconds"`
	Hub           map[string]int `json:"hubRequests"` // the controller's, template change to back
	Aborted       string         `json:"rolloutAborted"`
	RSSAfter      float64        `json:"rssMBAfterRevision1"` // before revision 2
	hub           counts
}

// historyPhase is the ten templates after the abort and the quiet window.
type historyPhase struct {
	Rollouts  []float64    `json:"rolloutSeconds"`
	Revisions int          `json:"controllerRevisions"` // kept after the last
	Idle      *idleResult  `json:"idle,omitempty"`
	Process   *procStats   `json:"process,omitempty"` // after the quiet window
	Last      rolloutPhase `json:"last"`
}

// TestRolloutAbort measures an abort and a full history with our hub
// controller (the BENCH_ROLLOUT_CONTROLLERS entry named "ours", else the
// default), prints the table and writes it with the JSON under BENCH_OUT
// as rollout-abort-<time>.
func TestRolloutAbort(t *testing.T) {
	started, machine := time.Now(), thisMachine()
	e, p, out, h := rolloutSetup(t)
	r := &abortReport{
		Started: started, Clusters: p.Rollout.Clusters, Idle: p.Idle.String(),
		Delays: rolloutDelays(), Machine: machine, Background: rates(h.hub.background),
	}
	r.Command, r.Log, r.Errors = h.runOurs(t, e, p, filepath.Join(out, "rollout-abort.log"), func(command, log string) error {
		r.Command, r.Log = command, log
		return h.measureAbort(t.Context(), t, r)
	}, h.reset)
	r.Machine.LoadAfter = loadAvg()
	r.Table = tableOf(r.rows(), []abortReport{*r})
	publishReport(t, out, "rollout-abort-"+r.Started.Format("20060102-150405"), r, r.text(), r.Errors)
}

// reportCell is the value and "met" of the first row of r's table whose
// metric starts with metric; t fails when there is none.
func reportCell[T any](t *testing.T, rows []rowOf[T], r T, metric string) (string, string) {
	t.Helper()
	for _, rw := range tableOf(rows, []T{r}) {
		if strings.HasPrefix(rw.Metric, metric) {
			return rw.Values[0], rw.Met[0]
		}
	}
	t.Fatalf("no row %q", metric)
	return "", ""
}

// runOurs runs measure with our hub controller's command (ourController)
// and log, then cleans up with reset; it returns the command, the log and
// what went wrong: measure's error, the simulated agents' failed reports,
// and the clean-up's error.
func (h *rolloutHarness) runOurs(t *testing.T, e *framework.E2E, p params, log string, measure func(command, log string) error,
	reset func(context.Context) error) (command, logPath string, errs []string) {
	t.Helper()
	spec, err := ourController(p)
	if err != nil {
		t.Fatal(err)
	}
	if command, err = spec.render(rolloutVars{HubKubeconfig: e.Hub.WorkKubeconfig, AdminKubeconfig: e.Hub.Kubeconfig,
		WorkBinary: e.WorkBinary}); err != nil {
		t.Fatal(err)
	}
	if err := measure(command, log); err != nil {
		errs = append(errs, fmt.Sprintf("%v (controller log: %s)", err, log))
	}
	for _, f := range h.agents.takeFailures() {
		errs = append(errs, "a simulated agent's report: "+f)
	}
	if err := reset(t.Context()); err != nil {
		errs = append(errs, "cleaning up: "+err.Error())
	}
	return command, log, errs
}

// publishReport writes the report v and its text under out as name (JSON
// and .txt), prints the text, and fails t with each error.
func publishReport(t *testing.T, out, name string, v any, text string, errs []string) {
	t.Helper()
	path, err := writeReport(out, name, v, text)
	if err != nil {
		t.Error(err)
	}
	fmt.Printf("\n%s\nbench: written %s (and .txt)\n", text, path)
	for _, msg := range errs {
		t.Error(msg)
	}
}

// ourController is the BENCH_ROLLOUT_CONTROLLERS entry named "ours", else
// our default command.
func ourController(p params) (agentSpec, error) {
	for _, c := range p.Rollout.Controllers {
		if c.Name == "ours" {
			return c, nil
		}
	}
	specs, err := parseCommands("ours", ourRolloutController)
	if err != nil {
		return agentSpec{}, err
	}
	return specs[0], nil
}

// measureAbort runs both phases with one controller process.
func (h *rolloutHarness) measureAbort(ctx context.Context, t *testing.T, r *abortReport) (err error) {
	_ = os.Remove(r.Log)
	proc, err := startAgentProcess(r.Command, r.Log)
	if err != nil {
		return err
	}
	defer func() {
		if serr := proc.stop(agentStopTimeout); serr != nil && err == nil {
			err = serr
		}
	}()
	exited := proc.exited()
	progressive := workv1alpha1.RolloutStrategy{Type: workv1alpha1.Progressive, Progressive: &workv1alpha1.RolloutProgressive{
		MaxConcurrency: intstr.FromString(abortConcurrency),
		RolloutConfig:  workv1alpha1.RolloutConfig{MaxFailures: intstr.FromInt32(0)},
	}}
	slots := slotsOf(progressive, len(h.clusters))
	t.Log("abort: revision 1 → rolled out and stable")
	if _, err := h.timeRollout(ctx, exited, proc.pid(), "1", slots, func() error {
		return h.createReplicaSet(ctx, progressive, map[string]string{replicaset.OnFailureAnnotation: replicaset.OnFailureAbort})
	}); err != nil {
		return fmt.Errorf("revision 1: %w", err)
	}
	stable, err := revision.Hash(revision.Input{ManifestWorkTemplate: rolloutTemplate("1")})
	if err != nil {
		return err
	}
	if err := waitFor(ctx, h.params.Timeout, exited, func() bool {
		_, rs := h.rolledOut()
		return rs != nil && rs.Annotations[replicaset.StableRevisionAnnotation] == stable
	}, h.poke); err != nil {
		return fmt.Errorf("revision 1 never became the stable revision: %w", err)
	}
	if r.Abort, err = h.abortPhase(ctx, t, proc, exited, stable); err != nil {
		return fmt.Errorf("abort: %w", err)
	}
	if r.History, err = h.historyPhase(ctx, t, proc, exited); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return h.deleteReplicaSet(ctx, exited)
}

// abortPhase changes the template to revision 2, which every abortEvery-th
// cluster fails, and waits until the clusters it reached are back on
// revision 1 (stable is its hash) and the replica set says RolloutAborted.
func (h *rolloutHarness) abortPhase(ctx context.Context, t *testing.T, proc *agentProcess, exited <-chan struct{},
	stable string) (*abortPhase, error) {
	res := &abortPhase{}
	for i, c := range h.clusters {
		if i%abortEvery == abortEvery/2 {
			res.Failing = append(res.Failing, c)
		}
	}
	if stats, err := readProcStats(proc.pid()); err == nil {
		res.RSSAfter = stats.RSSMB
	}
	h.agents.fail("2", res.Failing)
	start, err := h.hub.mark(ctx)
	if err != nil {
		return nil, err
	}
	cpuBefore, err := cpuSeconds(proc.pid())
	if err != nil {
		return nil, err
	}
	t.Log("abort: revision 2 → failed and back on revision 1")
	began := time.Now()
	if err := h.patchTemplate(ctx, "2", nil); err != nil {
		return nil, err
	}
	err = waitFor(ctx, h.params.Timeout, exited, func() bool { return h.backOn(stable) }, h.poke)
	done := time.Now()
	if err != nil {
		return nil, fmt.Errorf("%d clusters reached by revision 2 (%d failing), not all back on revision 1: %w",
			len(h.agents.reached("2")), len(res.Failing), err)
	}
	res.Seconds = done.Sub(h.agents.failedAt()).Seconds()
	res.ChangeSeconds = done.Sub(began).Seconds()
	res.Reached = h.agents.reached("2")
	cpuAfter, err := cpuSeconds(proc.pid())
	if err != nil {
		return nil, err
	}
	res.CPUSeconds = cpuAfter - cpuBefore
	if res.hub, _, err = h.hub.since(ctx, start); err != nil {
		return nil, err
	}
	res.Hub = res.hub.byKey()
	if _, rs := h.rolledOut(); rs != nil {
		if c := apimeta.FindStatusCondition(rs.Status.Conditions, replicaset.ConditionRolloutAborted); c != nil {
			res.Aborted = fmt.Sprintf("%s %s: %s", c.Status, c.Reason, c.Message)
		}
	}
	t.Logf("abort: %d clusters reached, back %.2f s after the first failure", len(res.Reached), res.Seconds)
	return res, nil
}

// backOn reports whether a failure was written, the replica set says
// RolloutAborted, and every cluster revision 2 reached has its work back on
// revision 1's spec and the hash stable.
func (h *rolloutHarness) backOn(stable string) bool {
	reached := h.agents.reached("2")
	_, rs := h.rolledOut()
	if h.agents.failedAt().IsZero() || len(reached) == 0 || rs == nil ||
		!apimeta.IsStatusConditionTrue(rs.Status.Conditions, replicaset.ConditionRolloutAborted) {
		return false
	}
	for _, c := range reached {
		obj, ok, _ := h.works.GetStore().GetByKey(c + "/" + rolloutName)
		if !ok {
			return false
		}
		w := obj.(*workv1.ManifestWork)
		if templateRevision(w) != "1" || revision.OfWork(w) != stable {
			return false
		}
	}
	return true
}

// historyPhase rolls historyChanges templates out with strategy All, counts
// the ControllerRevisions the replica set owns (revision.List), and idles.
func (h *rolloutHarness) historyPhase(ctx context.Context, t *testing.T, proc *agentProcess, exited <-chan struct{}) (*historyPhase, error) {
	res := &historyPhase{}
	h.agents.fail("", nil)
	all := workv1alpha1.RolloutStrategy{Type: workv1alpha1.All, All: &workv1alpha1.RolloutAll{}}
	for i := range historyChanges {
		rev := fmt.Sprint(3 + i)
		var strategy *workv1alpha1.RolloutStrategy
		if i == 0 {
			strategy = &all
		}
		phase, err := h.timeRollout(ctx, exited, proc.pid(), rev, len(h.clusters), func() error {
			return h.patchTemplate(ctx, rev, strategy)
		})
		if err != nil {
			return res, fmt.Errorf("revision %s: %w", rev, err)
		}
		res.Rollouts = append(res.Rollouts, phase.Seconds)
		res.Last = *phase
		t.Logf("history: revision %s rolled out in %.2f s", rev, phase.Seconds)
	}
	_, rs := h.rolledOut()
	if rs == nil {
		return res, fmt.Errorf("the replica set is not in the informer's cache")
	}
	revs, err := revision.List(ctx, h.hub.kube.AppsV1(), rs)
	if err != nil {
		return res, err
	}
	res.Revisions = len(revs)
	t.Logf("history: idle %s", h.params.Idle)
	if res.Idle, err = h.idle(ctx, exited); err != nil {
		return res, err
	}
	if stats, err := readProcStats(proc.pid()); err == nil {
		res.Process = &stats
	}
	return res, nil
}

// abortReportRow makes the rows of one phase of the report (of reads it,
// nil when the phase did not run): the metric after prefix, "-" without
// the phase.
func abortReportRow[P any](prefix string, of func(*abortReport) *P) func(metric, target string, value func(*P) (string, string)) rowOf[abortReport] {
	return func(metric, target string, value func(*P) (string, string)) rowOf[abortReport] {
		return rowOf[abortReport]{metric: prefix + metric, target: target, value: func(r *abortReport) (string, string) {
			if p := of(r); p != nil {
				return value(p)
			}
			return "-", ""
		}}
	}
}

func (r *abortReport) rows() []rowOf[abortReport] {
	perCluster := func(n, of int) string {
		if of == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f", float64(n)/float64(of))
	}
	abortRow := abortReportRow("abort: ", func(r *abortReport) *abortPhase { return r.Abort })
	historyRow := abortReportRow("history: ", func(r *abortReport) *historyPhase { return r.History })
	return []rowOf[abortReport]{
		abortRow("clusters reached by revision 2 / failing in all", "", func(a *abortPhase) (string, string) {
			return fmt.Sprintf("%d / %d", len(a.Reached), len(a.Failing)), ""
		}),
		abortRow("first failure reported → every reached cluster back on revision 1 (spec and hash)", "", func(a *abortPhase) (string, string) {
			return sec(a.Seconds), ""
		}),
		abortRow("template change → every reached cluster back on revision 1", "", func(a *abortPhase) (string, string) {
			return sec(a.ChangeSeconds), ""
		}),
		abortRow("controller's hub writes, per reached cluster / per selected cluster", "2 / -", func(a *abortPhase) (string, string) {
			w := a.hub.writes()
			return fmt.Sprintf("%s / %s (%d)", perCluster(w, len(a.Reached)), perCluster(w, r.Clusters), w), ""
		}),
		abortRow("controller's hub requests by verb", "", func(a *abortPhase) (string, string) { return a.hub.byVerb(), "" }),
		abortRow("controller CPU", "", func(a *abortPhase) (string, string) { return fmt.Sprintf("%.2f s", a.CPUSeconds), "" }),
		abortRow("RolloutAborted (its start)", "", func(a *abortPhase) (string, string) {
			if len(a.Aborted) > 100 {
				return a.Aborted[:100] + "…", ""
			}
			return a.Aborted, ""
		}),
		historyRow(fmt.Sprintf("%d templates rolled out with All: each, p50 / p99 / max", historyChanges), "",
			func(h *historyPhase) (string, string) { return spreadCell(spreadOf(h.Rollouts)), "" }),
		historyRow("ControllerRevisions kept", fmt.Sprint(revision.DefaultHistoryLimit), func(h *historyPhase) (string, string) {
			return fmt.Sprint(h.Revisions), met(h.Revisions == revision.DefaultHistoryLimit)
		}),
		historyRow("controller RSS after revision 1 / after the history, and its peak", "", func(h *historyPhase) (string, string) {
			if h.Process == nil || r.Abort == nil {
				return "-", ""
			}
			return fmt.Sprintf("%.1f MB / %.1f MB (peak %.1f MB)", r.Abort.RSSAfter, h.Process.RSSMB, h.Process.PeakRSSMB), ""
		}),
		historyRow(fmt.Sprintf("idle %s after the history: controller's requests", r.Idle), "0", func(h *historyPhase) (string, string) {
			if h.Idle == nil {
				return "-", ""
			}
			n := h.Idle.hub.total()
			return fmt.Sprintf("%d (%s)", n, h.Idle.hub.byVerb()), met(n == 0)
		}),
		historyRow("last template: controller's hub writes per cluster", "", func(h *historyPhase) (string, string) {
			return perCluster(h.Last.hub.writes(), r.Clusters), ""
		}),
	}
}

// text renders the table, then the errors.
func (r *abortReport) text() string {
	header := fmt.Sprintf("rollout abort and history: one ManifestWorkReplicaSet (one ConfigMap) to %d clusters, "+
		"agents simulated (each reports %s after a new generation), revision 2 failing on every %dth cluster, "+
		"maxConcurrency %s, maxFailures 0, on-failure Abort; idle %s; %s",
		r.Clusters, r.Delays, abortEvery, abortConcurrency, r.Idle, r.Machine)
	return renderReport(header, r.Table, []abortReport{*r}, func(a *abortReport) (string, []string, string) {
		return "ours", a.Errors, fmt.Sprintf("command %s; log %s", a.Command, a.Log)
	})
}

// The table shows each phase's values, with their targets met or not, and
// "-" for a phase that did not run.
func TestAbortReportRows(t *testing.T) {
	cell := func(r *abortReport, metric string) (string, string) {
		t.Helper()
		return reportCell(t, r.rows(), *r, metric)
	}
	patch := reqKey{Verb: "PATCH", Resource: "manifestworks"}
	r := &abortReport{Clusters: 4, Idle: "1s",
		Abort: &abortPhase{Reached: []string{"a", "b"}, Failing: []string{"a"}, hub: counts{patch: 4}},
		History: &historyPhase{Revisions: revision.DefaultHistoryLimit, Idle: &idleResult{hub: counts{}},
			Process: &procStats{RSSMB: 30, PeakRSSMB: 31}}}
	r.Abort.RSSAfter = 20
	for _, tc := range []struct{ metric, value, met string }{
		{"abort: clusters reached by revision 2", "2 / 1", ""},
		{"abort: controller's hub writes", "2.00 / 1.00 (4)", ""},
		{"history: ControllerRevisions kept", "10", "yes"},
		{"history: controller RSS", "20.0 MB / 30.0 MB (peak 31.0 MB)", ""},
		{"history: idle 1s after the history", "0 (none)", "yes"},
	} {
		value, met := cell(r, tc.metric)
		assert.Equal(t, tc.value, value, tc.metric)
		assert.Equal(t, tc.met, met, tc.metric)
	}

	r.History.Revisions = revision.DefaultHistoryLimit + 1
	r.History.Idle.hub = counts{patch: 1}
	_, met := cell(r, "history: ControllerRevisions kept")
	assert.Equal(t, "NO", met, "more revisions than the limit")
	_, met = cell(r, "history: idle 1s after the history")
	assert.Equal(t, "NO", met, "a request while idle")

	empty := &abortReport{Clusters: 4, Idle: "1s"}
	for _, rw := range tableOf(empty.rows(), []abortReport{*empty}) {
		assert.Equal(t, "-", rw.Values[0], rw.Metric)
	}
	empty.Table = tableOf(empty.rows(), []abortReport{*empty})
	assert.Contains(t, empty.text(), "history: ControllerRevisions kept")
}
