//go:build linux

package bench

import (
	"fmt"
	"time"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

// rolloutReport is the JSON of TestRollout, written under BENCH_OUT.
type rolloutReport struct {
	Started     time.Time          `json:"started"`
	Clusters    int                `json:"clusters"`
	Delays      string             `json:"simulatedDelays"`
	Idle        string             `json:"idle"`
	Machine     machine            `json:"machine"`
	Background  map[string]float64 `json:"hubBackgroundPerSecond"` // request → rate subtracted
	Controllers []rolloutResult    `json:"controllers"`
	Table       []row              `json:"table"`
}

// rolloutResult is everything measured of one hub controller.
type rolloutResult struct {
	Name       string           `json:"name"`
	Command    string           `json:"command"`
	Strategies []strategyResult `json:"strategies"`
	Errors     []string         `json:"errors,omitempty"`
}

// strategyResult is one strategy's run, with a controller process of its own.
type strategyResult struct {
	Strategy string        `json:"strategy"`
	Slots    int           `json:"slots"` // clusters rolled out at once at most
	Log      string        `json:"log"`
	Create   *rolloutPhase `json:"create,omitempty"`
	Change   *rolloutPhase `json:"change,omitempty"`
	Idle     *idleResult   `json:"idle,omitempty"`
	Process  *procStats    `json:"process,omitempty"` // read before the controller stops
}

// rolloutPhase is one write of the replica set until it was rolled out.
type rolloutPhase struct {
	Revision string  `json:"revision"`
	Seconds  float64 `json:"seconds"`
	// InFlight is the most clusters rolling out at once (maxInFlight), and
	// FloorSlots the slots of the floor (floorSlots).
	InFlight   int `json:"maxInFlight"`
	FloorSlots int `json:"floorSlots"`
	// SlotFloor and BatchFloor are the least time the simulated clusters
	// allow (see slotFloor and batchFloor).
	SlotFloor  float64 `json:"slotFloorSeconds"`
	BatchFloor float64 `json:"batchFloorSeconds"`
	// SawNotRolledOut is whether the replica set said it was not rolled out
	// at some point of the phase (a controller that never does reports a
	// rollout done before it is).
	SawNotRolledOut bool                                        `json:"sawNotRolledOut"`
	CPUSeconds      float64                                     `json:"controllerCpuSeconds"`
	Hub             map[string]int                              `json:"hubRequests"` // the controller's
	Summary         *workv1alpha1.ManifestWorkReplicaSetSummary `json:"summary,omitempty"`
	Works           []rolloutTiming                             `json:"works"`
	hub             counts
}

// strategy is the result of the named strategy, nil when it did not run.
func (r *rolloutResult) strategy(name string) *strategyResult {
	for i := range r.Strategies {
		if r.Strategies[i].Strategy == name {
			return &r.Strategies[i]
		}
	}
	return nil
}

// rolloutRow is a row of the table for one strategy: value reads that
// strategy's result of a controller.
func rolloutRow(strategy, metric, target, floor string, value func(s *strategyResult) (string, string)) rowOf[rolloutResult] {
	return rowOf[rolloutResult]{metric: strategy + ": " + metric, target: target, floor: floor,
		value: func(a *rolloutResult) (string, string) {
			if s := a.strategy(strategy); s != nil {
				return value(s)
			}
			return "-", ""
		}}
}

// phaseRow is a rolloutRow of the change phase, "-" without one.
func phaseRow(strategy, metric, target, floor string, of func(s *strategyResult) *rolloutPhase,
	value func(s *strategyResult, p *rolloutPhase) (string, string)) rowOf[rolloutResult] {
	return rolloutRow(strategy, metric, target, floor, func(s *strategyResult) (string, string) {
		if p := of(s); p != nil {
			return value(s, p)
		}
		return "-", ""
	})
}

func createOf(s *strategyResult) *rolloutPhase { return s.Create }
func changeOf(s *strategyResult) *rolloutPhase { return s.Change }

func (r *rolloutReport) rows() []rowOf[rolloutResult] {
	var rows []rowOf[rolloutResult]
	perCluster := func(n int) string { return fmt.Sprintf("%.2f", float64(n)/float64(r.Clusters)) }
	for _, st := range rolloutStrategies {
		name := st.name
		rows = append(rows,
			phaseRow(name, "create → rolled out; hub writes per cluster", "", "", createOf,
				func(_ *strategyResult, p *rolloutPhase) (string, string) {
					return fmt.Sprintf("%s; %s", sec(p.Seconds), perCluster(p.hub.writes())), ""
				}),
			phaseRow(name, "template change → every cluster reports it and the replica set says rolled out", "", "", changeOf,
				func(_ *strategyResult, p *rolloutPhase) (string, string) {
					s := sec(p.Seconds)
					if !p.SawNotRolledOut {
						s += " (never said not rolled out)"
					}
					return s, ""
				}),
			phaseRow(name, "change: floor, slots refilled as clusters report / whole batches", "", "", changeOf,
				func(s *strategyResult, p *rolloutPhase) (string, string) {
					return fmt.Sprintf("%s / %s (%d slots; at most %d clusters at once, strategy %d)",
						sec(p.SlotFloor), sec(p.BatchFloor), p.FloorSlots, p.InFlight, s.Slots), ""
				}),
			phaseRow(name, "change: each cluster's slot, update seen → status written (drawn delay + the bench's write), p50 / p99 / max", "", "", changeOf,
				func(_ *strategyResult, p *rolloutPhase) (string, string) {
					held := make([]float64, len(p.Works))
					for i, w := range p.Works {
						held[i] = w.Delay
					}
					return spreadCell(spreadOf(held)), ""
				}),
			phaseRow(name, "change: time − floor (slots)", "", "0", changeOf,
				func(_ *strategyResult, p *rolloutPhase) (string, string) { return sec(p.Seconds - p.SlotFloor), "" }),
			phaseRow(name, "change: controller's hub writes per cluster", "", "1 (the work's update)", changeOf,
				func(_ *strategyResult, p *rolloutPhase) (string, string) { return perCluster(p.hub.writes()), "" }),
			phaseRow(name, "change: controller's hub requests by verb", "", "", changeOf,
				func(_ *strategyResult, p *rolloutPhase) (string, string) { return p.hub.byVerb(), "" }),
			phaseRow(name, "change: controller CPU", "", "", changeOf,
				func(_ *strategyResult, p *rolloutPhase) (string, string) {
					return fmt.Sprintf("%.2f s", p.CPUSeconds), ""
				}),
			phaseRow(name, "change: summary total / applied / available / progressing / degraded", "", "", changeOf,
				func(_ *strategyResult, p *rolloutPhase) (string, string) {
					if p.Summary == nil {
						return "-", ""
					}
					m := p.Summary
					return fmt.Sprintf("%d / %d / %d / %d / %d", m.Total, m.Applied, m.Available, m.Progressing, m.Degraded), ""
				}),
			rolloutRow(name, fmt.Sprintf("idle %s after the rollout: controller's requests", r.Idle), "0", "0",
				func(s *strategyResult) (string, string) {
					if s.Idle == nil {
						return "-", ""
					}
					n := s.Idle.hub.total()
					return fmt.Sprintf("%d (%s)", n, s.Idle.hub.byVerb()), met(n == 0)
				}),
			rolloutRow(name, "controller process: CPU / peak RSS, whole life", "", "",
				func(s *strategyResult) (string, string) {
					if s.Process == nil {
						return "-", ""
					}
					return fmt.Sprintf("%.1f s / %.1f MB", s.Process.CPUSeconds, s.Process.PeakRSSMB), ""
				}),
		)
	}
	return rows
}

// text renders the table, the controllers side by side, then the errors.
func (r *rolloutReport) text() string {
	header := fmt.Sprintf("rollout: one ManifestWorkReplicaSet (one ConfigMap) to %d clusters, agents simulated "+
		"(each reports healthy %s after a new generation), idle %s; %s", r.Clusters, r.Delays, r.Idle, r.Machine)
	return renderReport(header, r.Table, r.Controllers, func(a *rolloutResult) (string, []string, string) {
		return a.Name, a.Errors, "command " + a.Command
	})
}
