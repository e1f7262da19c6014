//go:build linux

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
)

// Per-cluster values (issue 39), with our hub controller alone (OCM's has
// none), on the rollout's clusters and simulated agents: the clusters'
// namespaces carry a label shard=s00..s19, and one WorkOverride of
// overrideRuleCount rules, one per shard, writes each cluster's name and
// shard into its ConfigMap. With strategy All:
//
//  1. create: the replica set and its override, rolled out;
//  2. one rule: rule 0 changes the ConfigMap's revision for its shard: the
//     clusters of that shard (a twentieth) are written once each, the
//     others not at all;
//  3. every rule: each rule changes it for its shard: every cluster is
//     written once;
//
// then a quiet window (BENCH_IDLE), which must see no request. Measured per
// phase: the controller's CPU, its hub requests, and its writes of each
// cluster's work, counted from the works' watch events (a change of
// generation, labels or annotations: the simulated agents write status only).

const (
	// overrideRuleCount is the rules of the override, one per shard.
	overrideRuleCount = 20
	// overrideBenchName is the bench's WorkOverride.
	overrideBenchName = "fleet-config-values"
	// shardLabel is the clusters' namespace label the rules select by.
	shardLabel = "bench.manifestwork.io/shard"
)

// overridesReport is the JSON of TestRolloutOverrides, written under BENCH_OUT.
type overridesReport struct {
	Started    time.Time          `json:"started"`
	Clusters   int                `json:"clusters"`
	Rules      int                `json:"rules"`
	Delays     string             `json:"simulatedDelays"`
	Idle       string             `json:"idle"`
	Machine    machine            `json:"machine"`
	Background map[string]float64 `json:"hubBackgroundPerSecond"`
	Command    string             `json:"command"`
	Log        string             `json:"log"`
	Create     *overridePhase     `json:"create,omitempty"`
	OneRule    *overridePhase     `json:"oneRule,omitempty"`
	AllRules   *overridePhase     `json:"allRules,omitempty"`
	IdleResult *idleResult        `json:"idleAfter,omitempty"`
	Errors     []string           `json:"errors,omitempty"`
	Table      []row              `json:"table"`
}

// overridePhase is one change and its rollout.
type overridePhase struct {
	Touched    []string       `json:"touched"` // the clusters whose work must change
	Seconds    float64        `json:"seconds"`
	CPUSeconds float64        `json:"controllerCpuSeconds"`
	Hub        map[string]int `json:"hubRequests"`
	// WorkWrites are the controller's writes of each cluster's work, by
	// cluster, as the works' watch saw them.
	WorkWrites map[string]int `json:"workWrites"`
	hub        counts
}

// touchedWrites and untouchedWrites are the writes per work of the clusters
// the phase had to change and of the others: their mean and most.
func (p *overridePhase) writesOf(clusters []string, touched bool) (mean float64, most int, n int) {
	sum := 0
	for _, c := range clusters {
		if slices.Contains(p.Touched, c) != touched {
			continue
		}
		n++
		w := p.WorkWrites[c]
		sum += w
		most = max(most, w)
	}
	if n == 0 {
		return 0, 0, 0
	}
	return float64(sum) / float64(n), most, n
}

// TestRolloutOverrides measures per-cluster values with our hub controller
// (the BENCH_ROLLOUT_CONTROLLERS entry named "ours", else the default),
// prints the table and writes it with the JSON under BENCH_OUT as
// rollout-overrides-<time>.
func TestRolloutOverrides(t *testing.T) {
	started, machine := time.Now(), thisMachine()
	e, p, out, h := rolloutSetup(t)
	// The controller also reads namespaces and writes overrides' status.
	h.hub.resources = append(slices.Clone(rolloutResources), "namespaces", "workoverrides")
	r := &overridesReport{
		Started: started, Clusters: p.Rollout.Clusters, Rules: overrideRuleCount, Idle: p.Idle.String(),
		Delays: rolloutDelays(), Machine: machine, Background: rates(h.hub.background),
	}
	r.Command, r.Log, r.Errors = h.runOurs(t, e, p, filepath.Join(out, "rollout-overrides.log"), func(command, log string) error {
		r.Command, r.Log = command, log
		return h.measureOverrides(t.Context(), t, r)
	}, h.resetOverrides)
	r.Machine.LoadAfter = loadAvg()
	r.Table = tableOf(r.rows(), []overridesReport{*r})
	publishReport(t, out, "rollout-overrides-"+r.Started.Format("20060102-150405"), r, r.text(), r.Errors)
}

// shardOf is the shard of the i-th cluster.
func shardOf(i int) string { return fmt.Sprintf("s%02d", i%overrideRuleCount) }

// overrideBenchRules are the override's rules: rule k selects shard k and
// writes the cluster's name and shard, and, when revisions[k] is set, the
// ConfigMap's revision.
func overrideBenchRules(revisions map[int]string) []fleetv1alpha1.WorkOverrideRule {
	value := func(s string) *apiextensionsv1.JSON {
		raw, _ := json.Marshal(s)
		return &apiextensionsv1.JSON{Raw: raw}
	}
	var rules []fleetv1alpha1.WorkOverrideRule
	for k := range overrideRuleCount {
		rule := fleetv1alpha1.WorkOverrideRule{
			Clusters:  fleetv1alpha1.ClusterSelector{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{shardLabel: shardOf(k)}}},
			Manifests: []fleetv1alpha1.ManifestSelector{{Kind: "ConfigMap", Name: "fleet-config"}},
			Patches: []fleetv1alpha1.Patch{
				{Op: fleetv1alpha1.PatchAdd, Path: "/data/cluster", Value: value("${cluster.name}")},
				{Op: fleetv1alpha1.PatchAdd, Path: "/data/shard", Value: value("${cluster.labels['" + shardLabel + "']}")},
			},
		}
		if rev, ok := revisions[k]; ok {
			rule.Patches = append(rule.Patches, fleetv1alpha1.Patch{Op: fleetv1alpha1.PatchReplace, Path: "/data/revision", Value: value(rev)})
		}
		rules = append(rules, rule)
	}
	return rules
}

// workWrites counts the controller's writes of each work, from the works'
// watch: a new work, or a change of its generation, labels or annotations.
type workWrites struct {
	mu     sync.Mutex
	counts map[string]int // by cluster
}

func (w *workWrites) handler() cache.ResourceEventHandler {
	count := func(cluster string) {
		w.mu.Lock()
		w.counts[cluster]++
		w.mu.Unlock()
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if work, ok := obj.(*workv1.ManifestWork); ok {
				count(work.Namespace)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			old, ok1 := oldObj.(*workv1.ManifestWork)
			cur, ok2 := newObj.(*workv1.ManifestWork)
			if ok1 && ok2 && (old.Generation != cur.Generation || !maps.Equal(old.Labels, cur.Labels) || !maps.Equal(old.Annotations, cur.Annotations)) {
				count(cur.Namespace)
			}
		},
	}
}

// take returns the counts so far and starts again from none.
func (w *workWrites) take() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.counts
	w.counts = map[string]int{}
	return out
}

// measureOverrides runs the three phases and the quiet window with one
// controller process.
func (h *rolloutHarness) measureOverrides(ctx context.Context, t *testing.T, r *overridesReport) (err error) {
	writes := &workWrites{counts: map[string]int{}}
	if _, err := h.works.AddEventHandler(writes.handler()); err != nil {
		return err
	}
	if err := h.labelShards(ctx, true); err != nil {
		return err
	}
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
	all := workv1alpha1.RolloutStrategy{Type: workv1alpha1.All, All: &workv1alpha1.RolloutAll{}}
	overrides := h.work.FleetV1alpha1().WorkOverrides(rolloutNamespace)

	t.Log("overrides: create → rolled out")
	r.Create, err = h.overridePhase(ctx, proc.pid(), exited, writes, 1, "1", h.clusters, func() error {
		_, err := overrides.Create(ctx, &fleetv1alpha1.WorkOverride{
			ObjectMeta: metav1.ObjectMeta{Namespace: rolloutNamespace, Name: overrideBenchName},
			Spec:       fleetv1alpha1.WorkOverrideSpec{ReplicaSet: rolloutName, Rules: overrideBenchRules(nil)},
		}, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		return h.createReplicaSet(ctx, all, nil)
	})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	update := func(revisions map[int]string) func() error {
		return func() error {
			o, err := overrides.Get(ctx, overrideBenchName, metav1.GetOptions{})
			if err != nil {
				return err
			}
			o.Spec.Rules = overrideBenchRules(revisions)
			_, err = overrides.Update(ctx, o, metav1.UpdateOptions{})
			return err
		}
	}
	var shard0 []string
	for i, c := range h.clusters {
		if i%overrideRuleCount == 0 {
			shard0 = append(shard0, c)
		}
	}
	t.Logf("overrides: one rule changed → its %d clusters rolled out", len(shard0))
	if r.OneRule, err = h.overridePhase(ctx, proc.pid(), exited, writes, 2, "2", shard0, update(map[int]string{0: "2"})); err != nil {
		return fmt.Errorf("one rule: %w", err)
	}
	every := map[int]string{}
	for k := range overrideRuleCount {
		every[k] = "3"
	}
	t.Log("overrides: every rule changed → every cluster rolled out")
	if r.AllRules, err = h.overridePhase(ctx, proc.pid(), exited, writes, 3, "3", h.clusters, update(every)); err != nil {
		return fmt.Errorf("every rule: %w", err)
	}
	t.Logf("overrides: idle %s", h.params.Idle)
	if r.IdleResult, err = h.idle(ctx, exited); err != nil {
		return err
	}
	return h.deleteReplicaSet(ctx, exited)
}

// overridePhase opens a window, calls write, and waits until the clusters
// touched hold the ConfigMap's revision rev, reported for their generation,
// and the replica set says rolled out on its revision number.
func (h *rolloutHarness) overridePhase(ctx context.Context, pid int, exited <-chan struct{}, writes *workWrites,
	number int, rev string, touched []string, write func() error) (*overridePhase, error) {
	start, err := h.hub.mark(ctx)
	if err != nil {
		return nil, err
	}
	cpuBefore, err := cpuSeconds(pid)
	if err != nil {
		return nil, err
	}
	writes.take()
	began := time.Now()
	if err := write(); err != nil {
		return nil, err
	}
	err = waitFor(ctx, h.params.Timeout, exited, func() bool {
		return h.agents.reported(touched, rev) == len(touched) && h.rolledOutOn(number)
	}, h.poke)
	if err != nil {
		summary := "none"
		if _, rs := h.rolledOut(); rs != nil {
			summary = fmt.Sprintf("%+v, conditions %+v", rs.Status.Summary, rs.Status.Conditions)
		}
		return nil, fmt.Errorf("%d of %d clusters reported revision %s (replica set %s): %w",
			h.agents.reported(touched, rev), len(touched), rev, summary, err)
	}
	res := &overridePhase{Touched: touched, Seconds: time.Since(began).Seconds()}
	cpuAfter, err := cpuSeconds(pid)
	if err != nil {
		return nil, err
	}
	res.CPUSeconds = cpuAfter - cpuBefore
	if res.hub, _, err = h.hub.since(ctx, start); err != nil {
		return nil, err
	}
	res.Hub = res.hub.byKey()
	res.WorkWrites = writes.take()
	return res, nil
}

// rolledOutOn reports whether the replica set says rolled out, with
// revision number current and OverridesRendered True.
func (h *rolloutHarness) rolledOutOn(number int) bool {
	ok, rs := h.rolledOut()
	if !ok {
		return false
	}
	c := apimeta.FindStatusCondition(rs.Status.Conditions, replicaset.ConditionRevisionsRecorded)
	return c != nil && strings.HasPrefix(c.Message, fmt.Sprintf("Revision %d ", number)) &&
		apimeta.IsStatusConditionTrue(rs.Status.Conditions, replicaset.ConditionOverridesRendered)
}

// labelShards labels (or unlabels) the clusters' namespaces with their shard.
func (h *rolloutHarness) labelShards(ctx context.Context, set bool) error {
	for i, c := range h.clusters {
		var value any
		if set {
			value = shardOf(i)
		}
		patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"labels": map[string]any{shardLabel: value}}})
		if err != nil {
			return err
		}
		if _, err := h.hub.kube.CoreV1().Namespaces().Patch(ctx, c, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return fmt.Errorf("label the namespace %s: %w", c, err)
		}
	}
	return nil
}

// resetOverrides deletes the override and the shard labels, then resets the
// harness.
func (h *rolloutHarness) resetOverrides(ctx context.Context) error {
	err := h.work.FleetV1alpha1().WorkOverrides(rolloutNamespace).Delete(ctx, overrideBenchName, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	if err := h.labelShards(ctx, false); err != nil {
		return err
	}
	return h.reset(ctx)
}

func (r *overridesReport) rows() []rowOf[overridesReport] {
	phaseRows := func(name, writesTarget string, of func(*overridesReport) *overridePhase) []rowOf[overridesReport] {
		row := func(metric, target string, value func(*overridePhase) (string, string)) rowOf[overridesReport] {
			return rowOf[overridesReport]{metric: name + ": " + metric, target: target, value: func(r *overridesReport) (string, string) {
				if p := of(r); p != nil {
					return value(p)
				}
				return "-", ""
			}}
		}
		return []rowOf[overridesReport]{
			row("clusters to change / selected", "", func(p *overridePhase) (string, string) {
				return fmt.Sprintf("%d / %d", len(p.Touched), r.Clusters), ""
			}),
			row("change → rolled out", "", func(p *overridePhase) (string, string) { return sec(p.Seconds), "" }),
			row("controller CPU", "", func(p *overridePhase) (string, string) { return fmt.Sprintf("%.2f s", p.CPUSeconds), "" }),
			row("writes per work changed: mean / most", writesTarget, func(p *overridePhase) (string, string) {
				mean, most, n := p.writesOf(r.clusterNames(), true)
				if n == 0 {
					return "-", ""
				}
				return fmt.Sprintf("%.2f / %d", mean, most), met(most == 1 && mean == 1)
			}),
			row("writes per work not changed: most", "0", func(p *overridePhase) (string, string) {
				_, most, n := p.writesOf(r.clusterNames(), false)
				if n == 0 {
					return "-", ""
				}
				return fmt.Sprint(most), met(most == 0)
			}),
			row("controller's hub requests by verb", "", func(p *overridePhase) (string, string) { return p.hub.byVerb(), "" }),
			row("controller's hub writes", "", func(p *overridePhase) (string, string) { return hubWrites(p.hub), "" }),
		}
	}
	rows := phaseRows("create", "1 / 1", func(r *overridesReport) *overridePhase { return r.Create })
	rows = append(rows, phaseRows("one rule changed", "1 / 1", func(r *overridesReport) *overridePhase { return r.OneRule })...)
	rows = append(rows, phaseRows("every rule changed", "1 / 1", func(r *overridesReport) *overridePhase { return r.AllRules })...)
	return append(rows, rowOf[overridesReport]{metric: fmt.Sprintf("idle %s after: controller's requests", r.Idle), target: "0",
		value: func(r *overridesReport) (string, string) {
			if r.IdleResult == nil {
				return "-", ""
			}
			n := r.IdleResult.hub.total()
			return fmt.Sprintf("%d (%s)", n, r.IdleResult.hub.byVerb()), met(n == 0)
		}})
}

// clusterNames are the rollout's clusters.
func (r *overridesReport) clusterNames() []string {
	out := make([]string, r.Clusters)
	for i := range out {
		out[i] = rolloutClusterName(i)
	}
	return out
}

// hubWrites lists the writes by verb and resource: "PATCH manifestworks=10".
func hubWrites(c counts) string {
	writes := map[string]int{}
	for k, n := range c {
		if isWrite(k.Verb) && n != 0 {
			writes[k.String()] += n
		}
	}
	return formatCounts(writes)
}

// text renders the table, then the errors.
func (r *overridesReport) text() string {
	header := fmt.Sprintf("per-cluster values: one ManifestWorkReplicaSet (one ConfigMap) to %d clusters with strategy All, "+
		"one WorkOverride of %d rules (one per shard of the clusters' namespace labels), agents simulated (each reports %s after a new generation); idle %s; %s",
		r.Clusters, r.Rules, r.Delays, r.Idle, r.Machine)
	return renderReport(header, r.Table, []overridesReport{*r}, func(o *overridesReport) (string, []string, string) {
		return "ours", o.Errors, fmt.Sprintf("command %s; log %s", o.Command, o.Log)
	})
}

// The table shows each phase's values, with their targets met or not, and
// "-" for a phase that did not run.
func TestOverridesReportRows(t *testing.T) {
	cell := func(r *overridesReport, metric string) (string, string) {
		t.Helper()
		return reportCell(t, r.rows(), *r, metric)
	}
	patch := reqKey{Verb: "PATCH", Resource: "manifestworks"}
	r := &overridesReport{Clusters: 4, Rules: 2, Idle: "1s",
		OneRule: &overridePhase{Touched: []string{rolloutClusterName(0), rolloutClusterName(2)}, CPUSeconds: 0.125,
			WorkWrites: map[string]int{rolloutClusterName(0): 1, rolloutClusterName(2): 1}, hub: counts{patch: 2}},
		IdleResult: &idleResult{hub: counts{}}}
	for _, tc := range []struct{ metric, value, met string }{
		{"one rule changed: clusters to change / selected", "2 / 4", ""},
		{"one rule changed: controller CPU", "0.12 s", ""},
		{"one rule changed: writes per work changed", "1.00 / 1", "yes"},
		{"one rule changed: writes per work not changed", "0", "yes"},
		{"one rule changed: controller's hub writes", "PATCH manifestworks=2", ""},
		{"idle 1s after", "0 (none)", "yes"},
		{"create: controller CPU", "-", ""},
	} {
		value, met := cell(r, tc.metric)
		assert.Equal(t, tc.value, value, tc.metric)
		assert.Equal(t, tc.met, met, tc.metric)
	}

	r.OneRule.WorkWrites[rolloutClusterName(1)] = 1
	r.OneRule.WorkWrites[rolloutClusterName(2)] = 2
	_, met := cell(r, "one rule changed: writes per work not changed")
	assert.Equal(t, "NO", met, "a write of a work not to change")
	_, met = cell(r, "one rule changed: writes per work changed")
	assert.Equal(t, "NO", met, "two writes of a work to change")
}
