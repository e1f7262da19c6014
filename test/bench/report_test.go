//go:build linux

package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// agentResult is everything measured of one agent.
type agentResult struct {
	Name       string                        `json:"name"`
	Command    string                        `json:"command"`
	Log        string                        `json:"log"`
	Background map[string]map[string]float64 `json:"backgroundPerSecond"` // cluster → request → rate subtracted
	Cold       *coldResult                   `json:"cold,omitempty"`
	Idle       *idleResult                   `json:"idle,omitempty"`
	Drift      *driftResult                  `json:"drift,omitempty"`
	Feedback   *feedbackResult               `json:"feedback,omitempty"`
	Restart    *restartResult                `json:"restart,omitempty"`
	Takeover   *restartResult                `json:"takeover,omitempty"`
	Health     *healthResult                 `json:"health,omitempty"`
	Delete     *deleteResult                 `json:"delete,omitempty"`
	// BeforeRestart is the footprint of the processes before the last, each
	// read just before it was stopped (peak RSS: the highest; CPU: the sum);
	// Process then covers them all.
	BeforeRestart *procStats `json:"beforeRestart,omitempty"`
	AfterCold     *procStats `json:"afterColdApply,omitempty"`
	Process       *procStats `json:"process,omitempty"`
	Errors        []string   `json:"errors,omitempty"`
	// LoggedRequests are the requests in the agent's log (with -v=6), by
	// cluster, over its whole life.
	LoggedRequests     map[string]map[string]int `json:"loggedRequests,omitempty"`
	LoggedColdRequests map[string]map[string]int `json:"loggedColdRequests,omitempty"`
}

// machine describes where the run happened; load is read before and after.
type machine struct {
	CPUs       int    `json:"cpus"`
	MemTotalMB int    `json:"memTotalMB"`
	LoadBefore string `json:"loadBefore"`
	LoadAfter  string `json:"loadAfter"`
}

// thisMachine describes the machine as a run starts; LoadAfter is set as it ends.
func thisMachine() machine {
	return machine{CPUs: runtime.NumCPU(), MemTotalMB: memTotalMB(), LoadBefore: loadAvg()}
}

// report is the JSON written under BENCH_OUT.
type report struct {
	Started   time.Time     `json:"started"`
	Works     int           `json:"works"`
	Manifests int           `json:"manifests"`
	Objects   int           `json:"objects"`
	QPS       float64       `json:"qps"`
	Idle      string        `json:"idle"`
	Machine   machine       `json:"machine"`
	Agents    []agentResult `json:"agents"`
	Table     []row         `json:"table"`
}

// row is one line of the table: a measurement of every agent against its
// target and the physical floor.
type row struct {
	Metric string   `json:"metric"`
	Target string   `json:"target"`
	Floor  string   `json:"floor"`
	Values []string `json:"values"` // one per agent
	Met    []string `json:"met"`    // "yes", "NO", or "" when there is no target
}

// memoryTargetObjects is the scale at which the memory target applies.
const memoryTargetObjects = 10000

// rowOf computes one row from the result of one agent (a T): the value
// shown, and whether the target is met ("" for rows without a target).
type rowOf[T any] struct {
	metric, target, floor string
	value                 func(a *T) (string, string)
}

// rowSpec is a row of TestBench's table.
type rowSpec = rowOf[agentResult]

func (r *report) rows() []rowSpec {
	objects := r.Works * r.Manifests
	writesNeeded := float64(objects + r.Works)
	floorCold := writesNeeded / r.QPS
	perManifestCold := float64(objects+2*r.Works) / float64(objects)
	rows := []rowSpec{
		{fmt.Sprintf("cold apply, %d works x %d ConfigMaps", r.Works, r.Manifests),
			fmt.Sprintf("<= %.1f s (1.2 x floor)", 1.2*floorCold),
			fmt.Sprintf("%.1f s = %d writes / %g QPS", floorCold, objects+r.Works, r.QPS),
			func(a *agentResult) (string, string) {
				if a.Cold == nil {
					return "-", ""
				}
				return sec(a.Cold.Seconds), met(a.Cold.Seconds <= 1.2*floorCold)
			}},
		// Per work: its creates, the AppliedManifestWork's create and the UIDs
		// applied (its status). The apply records are rebuilt by a restarted
		// agent, not written (only works with OnSpokeChange rules keep them).
		{"cold: managed requests per manifest", fmt.Sprintf("<= %.3f", perManifestCold),
			fmt.Sprintf("%.3f (1 create each + per work: AppliedManifestWork create, UIDs)", perManifestCold),
			func(a *agentResult) (string, string) {
				if a.Cold == nil {
					return "-", ""
				}
				return fmt.Sprintf("%.3f", a.Cold.ManagedPerItem), met(a.Cold.ManagedPerItem <= perManifestCold+0.0005)
			}},
		{"cold: hub writes per work", "<= 2", "2 (finalizer patch + one status patch)",
			func(a *agentResult) (string, string) {
				if a.Cold == nil {
					return "-", ""
				}
				return fmt.Sprintf("%.2f", a.Cold.HubWritesPer), met(a.Cold.HubWritesPer <= 2)
			}},
		{"cold: managed requests by verb", "", "",
			func(a *agentResult) (string, string) { return verbsOf(a.Cold, true), "" }},
		{"cold: hub requests by verb", "", "",
			func(a *agentResult) (string, string) { return verbsOf(a.Cold, false), "" }},
		{"cold: agent CPU per 1,000 objects applied", "", "",
			func(a *agentResult) (string, string) {
				return costCell(a.Cold, func(c coldCost) string { return sec(c.AgentCPUPer1000) }), ""
			}},
		{"cold: kube-apiserver CPU per 1,000 objects applied (managed + hub)", "", "",
			func(a *agentResult) (string, string) {
				return costCell(a.Cold, func(c coldCost) string {
					return fmt.Sprintf("%.2f + %.2f s", c.ManagedAPIServerCPUPer1000, c.HubAPIServerCPUPer1000)
				}), ""
			}},
		{"cold: request bytes the agent wrote per object (managed + hub)", "", "",
			func(a *agentResult) (string, string) {
				return costCell(a.Cold, func(c coldCost) string {
					return fmt.Sprintf("%.0f + %.0f B", c.ManagedBytesPerObject, c.HubBytesPerObject)
				}), ""
			}},
	}
	rows = append(rows, idleRows(r.Idle, func(a *agentResult) *idleResult { return a.Idle })...)
	rows = append(rows, []rowSpec{
		{"drift repair, 10 deleted + 10 modified", "< 2 s", "~0.1 s (one watch event + one write each)",
			func(a *agentResult) (string, string) {
				if a.Drift == nil {
					return "-", ""
				}
				return sec(a.Drift.Seconds), met(a.Drift.Seconds < 2)
			}},
		// The row above includes the bench's own 20 requests, one after the
		// other, which a loaded machine slows most; this one is the agent's.
		{"drift: agent's part, each change to its repair (p50 / max); the bench's changes took", "", "one watch event + one write",
			func(a *agentResult) (string, string) {
				if a.Drift == nil || len(a.Drift.RepairSeconds) == 0 {
					return "-", ""
				}
				p50, maxV := stats(a.Drift.RepairSeconds)
				return fmt.Sprintf("%.3f / %.3f s (n=%d); %s", p50, maxV, len(a.Drift.RepairSeconds), sec(a.Drift.ChangesSeconds)), ""
			}},
		{"feedback Watch: hub ReadyReplicas (p50 / max)", "< 1 s", "managed readiness (p50 / max)",
			func(a *agentResult) (string, string) { return feedbackCell(a, workv1.FeedbackWatchType, 1) }},
		{"feedback Watch: agent's part (hub - managed ready)", "", "0",
			func(a *agentResult) (string, string) { return agentPart(a, workv1.FeedbackWatchType), "" }},
		{"feedback Poll: hub ReadyReplicas (p50 / max), random phase", "", "uniform in [0, poll period]: p50 ~ period/2",
			func(a *agentResult) (string, string) { return feedbackCell(a, workv1.FeedbackPollType, 0) }},
	}...)
	rows = append(rows, restartRows("restart (SIGKILL", func(a *agentResult) *restartResult { return a.Restart })...)
	rows = append(rows, restartRows("takeover (SIGTERM, a new process takes the lease over", func(a *agentResult) *restartResult { return a.Takeover })...)
	return append(rows, []rowSpec{
		{"delete all: works gone and ConfigMaps gone", "", fmt.Sprintf("%.1f s = %d deletes / %g QPS", float64(objects)/r.QPS, objects, r.QPS),
			func(a *agentResult) (string, string) {
				if a.Delete == nil {
					return "-", ""
				}
				return sec(a.Delete.Seconds), ""
			}},
		{fmt.Sprintf("peak RSS (VmHWM) over the run, %d objects", objects),
			fmt.Sprintf("< 100 MB at %d objects", memoryTargetObjects), "",
			func(a *agentResult) (string, string) {
				if a.Process == nil {
					return "-", ""
				}
				v := fmt.Sprintf("%.1f MB", a.Process.PeakRSSMB)
				switch {
				case objects >= memoryTargetObjects:
					return v, met(a.Process.PeakRSSMB < 100)
				case a.Process.PeakRSSMB >= 100:
					return v, "NO" // already over with fewer objects
				default:
					return v, fmt.Sprintf("n/a (%d objects)", objects)
				}
			}},
		{"RSS once cold apply converged: VmRSS / VmHWM so far", "", "",
			func(a *agentResult) (string, string) {
				if a.AfterCold == nil {
					return "-", ""
				}
				return fmt.Sprintf("%.1f / %.1f MB (CPU %.1f s)", a.AfterCold.RSSMB, a.AfterCold.PeakRSSMB, a.AfterCold.CPUSeconds), ""
			}},
		{"CPU seconds (utime+stime), whole run", "", "",
			func(a *agentResult) (string, string) {
				if a.Process == nil {
					return "-", ""
				}
				return fmt.Sprintf("%.1f s", a.Process.CPUSeconds), ""
			}},
	}...)
}

// sec formats seconds for the table.
func sec(s float64) string { return fmt.Sprintf("%.2f s", s) }

// restartRows are the rows of a restart phase: how labels the way the old
// process went.
func restartRows(how string, of func(*agentResult) *restartResult) []rowSpec {
	name := strings.SplitN(how, " ", 2)[0]
	return []rowSpec{
		{how + ", 10 deleted + 10 modified while down): requests per manifest until idle", "< 0.05", "0 (each unchanged object is known from its record)",
			func(a *agentResult) (string, string) {
				if r := of(a); r != nil {
					return fmt.Sprintf("%.3f", r.PerManifest), met(r.PerManifest < 0.05)
				}
				return "-", ""
			}},
		{name + ": drift made while down repaired / idle, from the new process start", "idle < caches synced + 5 s", "",
			func(a *agentResult) (string, string) {
				if r := of(a); r != nil {
					return sec(r.RepairedSeconds) + " / " + sec(r.IdleSeconds), ""
				}
				return "-", ""
			}},
		{name + ": requests by verb (managed | hub)", "", "",
			func(a *agentResult) (string, string) {
				if r := of(a); r != nil {
					return r.managed.byVerb() + " | " + r.hub.byVerb(), ""
				}
				return "-", ""
			}},
	}
}

// idleRows are the rows of an idle window of window, for any result T that
// has one (idleOf returns nil when it has not).
func idleRows[T any](window string, idleOf func(*T) *idleResult) []rowOf[T] {
	return []rowOf[T]{
		{fmt.Sprintf("idle %s: writes (both clusters)", window), "0", "0",
			func(a *T) (string, string) {
				if i := idleOf(a); i != nil {
					return fmt.Sprint(i.Writes), met(i.Writes == 0)
				}
				return "-", ""
			}},
		{fmt.Sprintf("idle %s: GET/LIST (both clusters)", window), "0", "0",
			func(a *T) (string, string) {
				if i := idleOf(a); i != nil {
					return fmt.Sprint(i.Reads), met(i.Reads == 0)
				}
				return "-", ""
			}},
		{"idle: requests by verb (managed | hub)", "", "",
			func(a *T) (string, string) {
				if i := idleOf(a); i != nil {
					return i.managed.byVerb() + " | " + i.hub.byVerb(), ""
				}
				return "-", ""
			}},
	}
}

// costCell shows what cold apply cost, or "-" without a cold apply.
func costCell(c *coldResult, show func(coldCost) string) string {
	if c == nil {
		return "-"
	}
	return show(c.Cost)
}

func verbsOf(c *coldResult, managed bool) string {
	if c == nil {
		return "-"
	}
	if managed {
		return c.managed.byVerb()
	}
	return c.hub.byVerb()
}

// feedbackCell is p50 / max of the hub's ReadyReplicas latency; when
// ReadyReplicas never came, Replicas is used and the cell says so. limit > 0
// is the target in seconds, judged on the max.
func feedbackCell(a *agentResult, mode workv1.FeedbackScrapeType, limit float64) (string, string) {
	if a.Feedback == nil || len(a.Feedback.Samples[mode]) == 0 {
		return "-", ""
	}
	var ready, replicas, managed []float64
	for _, s := range a.Feedback.Samples[mode] {
		if s.HubReadyReplicas >= 0 {
			ready = append(ready, s.HubReadyReplicas)
		}
		replicas = append(replicas, s.HubReplicas)
		managed = append(managed, s.ManagedReady)
	}
	values, which := ready, ""
	if len(ready) < len(a.Feedback.Samples[mode]) {
		values, which = replicas, " (Replicas: ReadyReplicas did not arrive)"
	}
	p50, maxV := stats(values)
	m50, mMax := stats(managed)
	cell := fmt.Sprintf("%.2f / %.2f s%s [managed ready %.2f / %.2f, n=%d]", p50, maxV, which, m50, mMax, len(values))
	if limit <= 0 {
		return cell, ""
	}
	if maxV < limit {
		return cell, "yes"
	}
	return cell, "NO"
}

func agentPart(a *agentResult, mode workv1.FeedbackScrapeType) string {
	if a.Feedback == nil {
		return "-"
	}
	var parts []float64
	for _, s := range a.Feedback.Samples[mode] {
		if s.AgentReadySeconds >= 0 {
			parts = append(parts, s.AgentReadySeconds)
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	p50, maxV := stats(parts)
	return fmt.Sprintf("%.2f / %.2f s", p50, maxV)
}

// stats returns the median (the lower one of an even count) and the maximum.
func stats(v []float64) (float64, float64) {
	if len(v) == 0 {
		return -1, -1
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[(len(s)-1)/2], s[len(s)-1]
}

// met is a row's "met" cell: whether the target is met.
func met(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

// buildTable fills r.Table from the agents' results.
func (r *report) buildTable() {
	r.Table = tableOf(append(r.rows(), healthRows()...), r.Agents)
}

// tableOf computes every row for every agent's result.
func tableOf[T any](specs []rowOf[T], results []T) []row {
	var table []row
	for _, spec := range specs {
		rw := row{Metric: spec.metric, Target: spec.target, Floor: spec.floor}
		for i := range results {
			v, m := spec.value(&results[i])
			rw.Values = append(rw.Values, v)
			rw.Met = append(rw.Met, m)
		}
		table = append(table, rw)
	}
	return table
}

// text renders the table, the agents side by side, then the errors.
func (r *report) text() string {
	header := fmt.Sprintf("bench: %d works x %d ConfigMaps = %d objects, agent QPS %g, idle %s; %s",
		r.Works, r.Manifests, r.Works*r.Manifests, r.QPS, r.Idle, r.Machine)
	return renderReport(header, r.Table, r.Agents, func(a *agentResult) (string, []string, string) {
		return a.Name, a.Errors, fmt.Sprintf("log %s; background subtracted per second: %v", a.Log, a.Background)
	})
}

// renderReport renders a header line, the table with the agents side by
// side, then for each agent its errors and a last line; describe gives an
// agent's name, errors and last line.
func renderReport[T any](header string, table []row, agents []T, describe func(*T) (string, []string, string)) string {
	var b strings.Builder
	b.WriteString(header + "\n")
	names := make([]string, len(agents))
	for i := range agents {
		names[i], _, _ = describe(&agents[i])
	}
	writeTable(&b, names, table)
	for i := range agents {
		name, errs, last := describe(&agents[i])
		for _, e := range errs {
			fmt.Fprintf(&b, "%s: ERROR %s\n", name, e)
		}
		fmt.Fprintf(&b, "%s: %s\n", name, last)
	}
	return b.String()
}

func (m machine) String() string {
	return fmt.Sprintf("%d CPUs, %d MB; load before %s, after %s", m.CPUs, m.MemTotalMB, m.LoadBefore, m.LoadAfter)
}

// writeTable renders rows with the agents (names) side by side.
func writeTable(b *strings.Builder, names []string, rows []row) {
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	header := []string{"metric", "target", "floor"}
	for _, name := range names {
		header = append(header, name, "met")
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, rw := range rows {
		cells := []string{rw.Metric, dash(rw.Target), dash(rw.Floor)}
		for i := range rw.Values {
			cells = append(cells, rw.Values[i], dash(rw.Met[i]))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	_ = tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// write stores the JSON and the table under dir, named by the start time.
func (r *report) write(dir string) (string, error) {
	return writeReport(dir, "bench-"+r.Started.Format("20060102-150405"), r, r.text())
}

// writeReport stores v as JSON and text beside it, as dir/name.json and
// dir/name.txt, and returns the JSON's path.
func writeReport(dir, name string, v any, text string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	base := filepath.Join(dir, name)
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(base+".json", data, 0o644); err != nil {
		return "", err
	}
	return base + ".json", os.WriteFile(base+".txt", []byte(text), 0o644)
}
