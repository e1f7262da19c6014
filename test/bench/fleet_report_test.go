//go:build linux

package bench

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// fleetResult is everything measured of one agent command run as a fleet.
type fleetResult struct {
	Name         string           `json:"name"`
	Command      string           `json:"command"` // of the first cluster
	Logs         string           `json:"logs"`    // one file per cluster
	Background   *fleetBackground `json:"background,omitempty"`
	StartSeconds float64          `json:"startSeconds"`
	Cold         *fleetWrite      `json:"cold,omitempty"`
	Change       *fleetWrite      `json:"change,omitempty"`
	Idle         *fleetIdle       `json:"idle,omitempty"`
	Footprint    *fleetFootprint  `json:"footprint,omitempty"` // read before the agents stop
	Errors       []string         `json:"errors,omitempty"`
}

// fleetReport is the JSON of TestFleet, written under BENCH_OUT.
type fleetReport struct {
	Started   time.Time     `json:"started"`
	Clusters  int           `json:"clusters"`
	Works     int           `json:"worksPerCluster"`
	Manifests int           `json:"manifestsPerWork"`
	Batch     int           `json:"startBatch"`
	QPS       float64       `json:"qps"`
	Idle      string        `json:"idle"`
	Machine   machine       `json:"machine"`
	Agents    []fleetResult `json:"agents"`
	Table     []row         `json:"table"`
}

// changeSlack is the goal for a change to reach every cluster:
// p99 within this of the QPS floor of each agent.
const changeSlack = 2.0

func (r *fleetReport) rows() []rowOf[fleetResult] {
	works := r.Clusters * r.Works
	coldWrites := r.Works*r.Manifests + r.Works // creates and the AppliedManifestWorks
	changeFloor := float64(r.Works) / r.QPS     // one ConfigMap update per work
	share := func(cpu, seconds float64) string {
		return fmt.Sprintf("%.2f s = %.1f %% of a core", cpu, 100*cpu/seconds)
	}
	rows := []rowOf[fleetResult]{
		{fmt.Sprintf("start %d agents, %d at a time, until each applied a warm-up work", r.Clusters, r.Batch), "", "",
			func(a *fleetResult) (string, string) {
				if a.StartSeconds == 0 {
					return "-", ""
				}
				return sec(a.StartSeconds), ""
			}},
		{fmt.Sprintf("cold: %d works x %d ConfigMaps created at once, all Applied; per work p50 / p99 / max", works, r.Manifests), "",
			fmt.Sprintf("%.1f s per agent = %d writes / %g QPS", float64(coldWrites)/r.QPS, coldWrites, r.QPS),
			func(a *fleetResult) (string, string) { return writeCell(a.Cold), "" }},
		{"cold: the hub's watch brings each work (the bench's own informer), p50 / p99 / max", "", "",
			func(a *fleetResult) (string, string) { return phaseSpread(a.Cold, seen), "" }},
		{"cold: requests by verb (managed | hub)", "", "",
			func(a *fleetResult) (string, string) { return writeVerbs(a.Cold), "" }},
		{fmt.Sprintf("change all %d works on the hub: Applied for the new generation, p50 / p99 / max", works),
			fmt.Sprintf("p99 < %.2f s (floor + %g s)", changeFloor+changeSlack, changeSlack),
			fmt.Sprintf("%.2f s per agent = %d writes / %g QPS", changeFloor, r.Works, r.QPS),
			func(a *fleetResult) (string, string) {
				if a.Change == nil {
					return "-", ""
				}
				return writeCell(a.Change), met(a.Change.Latency.P99 < changeFloor+changeSlack)
			}},
		{"change: the hub's watch brings it (the bench's own informer), p50 / p99 / max", "", "",
			func(a *fleetResult) (string, string) { return phaseSpread(a.Change, seen), "" }},
		{"change: the managed cluster holds it (the agent's apply), p50 / p99 / max", "", "",
			func(a *fleetResult) (string, string) {
				return phaseSpread(a.Change, func(w *fleetWrite) *spread { return w.ManagedLatency }), ""
			}},
		{"change: requests by verb (managed | hub)", "", "",
			func(a *fleetResult) (string, string) { return writeVerbs(a.Change), "" }},
		{"change: managed writes per agent, hub writes per work", "", fmt.Sprintf("%d, 1", r.Works),
			func(a *fleetResult) (string, string) {
				if a.Change == nil {
					return "-", ""
				}
				return fmt.Sprintf("%.1f, %.2f", float64(a.Change.managed.writes())/float64(r.Clusters),
					float64(a.Change.hub.writes())/float64(works)), ""
			}},
		{"change: kube-apiservers' mean time per write (managed | hub)", "", "",
			func(a *fleetResult) (string, string) {
				if a.Change == nil {
					return "-", ""
				}
				return writeTimes(a.Change.ManagedServerTime) + " | " + writeTimes(a.Change.HubServerTime), ""
			}},
		{"change: CPU of hub kube-apiserver / managed kube-apiserver / agents (sum)", "", "",
			func(a *fleetResult) (string, string) {
				if a.Change == nil {
					return "-", ""
				}
				c := a.Change.CPU
				return fmt.Sprintf("%.1f / %.1f / %.1f s in %.1f s", c.HubAPIServer, c.ManagedAPIServer, c.Agents, a.Change.Seconds), ""
			}},
	}
	rows = append(rows, idleRows(r.Idle, func(a *fleetResult) *idleResult {
		if a.Idle == nil {
			return nil
		}
		return a.Idle.idleResult
	})...)
	return append(rows, []rowOf[fleetResult]{
		{"idle: hub kube-apiserver CPU (without agents)", "", "",
			func(a *fleetResult) (string, string) {
				if a.Idle == nil || a.Background == nil {
					return "-", ""
				}
				return fmt.Sprintf("%s (%.1f %%)", share(a.Idle.CPU.HubAPIServer, a.Idle.Seconds), 100*a.Background.HubAPIServerCPU), ""
			}},
		{"idle: managed kube-apiserver CPU (without agents)", "", "",
			func(a *fleetResult) (string, string) {
				if a.Idle == nil || a.Background == nil {
					return "-", ""
				}
				return fmt.Sprintf("%s (%.1f %%)", share(a.Idle.CPU.ManagedAPIServer, a.Idle.Seconds), 100*a.Background.ManagedAPIServerCPU), ""
			}},
		{"idle: agents' CPU, summed", "", "",
			func(a *fleetResult) (string, string) {
				if a.Idle == nil {
					return "-", ""
				}
				return share(a.Idle.CPU.Agents, a.Idle.Seconds), ""
			}},
		{"agents' RSS: max VmRSS / max VmHWM / mean VmHWM / sum VmRSS", "", "",
			func(a *fleetResult) (string, string) {
				f := a.Footprint
				if f == nil {
					return "-", ""
				}
				return fmt.Sprintf("%.1f / %.1f / %.1f / %.0f MB (%d agents)", f.MaxRSSMB, f.MaxPeakRSSMB, f.MeanPeakRSSMB, f.SumRSSMB, f.Agents), ""
			}},
		{"agents' CPU seconds, whole run, summed", "", "",
			func(a *fleetResult) (string, string) {
				if a.Footprint == nil {
					return "-", ""
				}
				return fmt.Sprintf("%.1f s", a.Footprint.CPUSeconds), ""
			}},
	}...)
}

// writeCell is a write phase's per-work latencies and totals.
func writeCell(w *fleetWrite) string {
	if w == nil {
		return "-"
	}
	return fmt.Sprintf("%s (n=%d; sent in %.1f s, all Applied after %.1f s)",
		spreadCell(w.Latency), w.Latency.N, w.SentSeconds, w.Seconds)
}

// seen picks a phase's watch lag.
func seen(w *fleetWrite) *spread { return &w.Seen }

// phaseSpread is the spread pick takes from a phase, "-" when the phase or
// the spread is missing.
func phaseSpread(w *fleetWrite, pick func(*fleetWrite) *spread) string {
	if w == nil {
		return "-"
	}
	if l := pick(w); l != nil {
		return spreadCell(*l)
	}
	return "-"
}

// spreadCell is "p50 / p99 / max s".
func spreadCell(l spread) string {
	return fmt.Sprintf("%.2f / %.2f / %.2f s", l.P50, l.P99, l.Max)
}

// writeTimes lists the mean server time of each kind of write: "PUT
// configmaps 12 ms (n=2000)".
func writeTimes(m map[string]meanTime) string {
	var parts []string
	for k, v := range m {
		if verb, _, _ := strings.Cut(k, " "); isWrite(verb) {
			parts = append(parts, fmt.Sprintf("%s %.0f ms (n=%d)", k, 1000*v.Seconds, v.N))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

func writeVerbs(w *fleetWrite) string {
	if w == nil {
		return "-"
	}
	return w.managed.byVerb() + " | " + w.hub.byVerb()
}

// text renders the table, the agents side by side, then the errors.
func (r *fleetReport) text() string {
	header := fmt.Sprintf("fleet: %d clusters x %d works x %d ConfigMaps on one hub (sharing cluster1), agent QPS %g, idle %s; %s",
		r.Clusters, r.Works, r.Manifests, r.QPS, r.Idle, r.Machine)
	return renderReport(header, r.Table, r.Agents, func(a *fleetResult) (string, []string, string) {
		return a.Name, a.Errors, "logs " + a.Logs
	})
}
