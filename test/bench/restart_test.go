//go:build linux

package bench

import (
	"context"
	"fmt"
	"strings"
	"time"
)

const (
	// quietFor is how long no request of the agent must be seen before a
	// restarted agent counts as idle again.
	quietFor = 5 * time.Second
	// quietPoll is how often the request counters are read meanwhile.
	quietPoll = 500 * time.Millisecond
)

// restartResult is the restart phase: the agent killed with every work
// applied, ConfigMaps drifted while it is down, and the agent started again.
type restartResult struct {
	Deleted  int `json:"deleted"`
	Modified int `json:"modified"`
	// RepairedSeconds is from the start of the new process until the drift
	// made while it was down is repaired.
	RepairedSeconds float64 `json:"repairedSeconds"`
	// IdleSeconds is from the start of the new process until its last
	// request before quietFor without any.
	IdleSeconds float64        `json:"idleSeconds"`
	Managed     map[string]int `json:"managedRequests"`
	Hub         map[string]int `json:"hubRequests"`
	// PerManifest is every request to both clusters from the start until
	// idle, per applied manifest.
	PerManifest  float64 `json:"requestsPerManifest"`
	managed, hub counts
}

// restart kills the agent, drifts ConfigMaps while it is down, starts it
// with start, and measures until the drift is repaired and the agent is idle.
func (h *harness) restart(ctx context.Context, kill func() error, start func() (<-chan struct{}, error)) (*restartResult, error) {
	targets, err := h.driftTargets()
	if err != nil {
		return nil, err
	}
	if err := kill(); err != nil {
		return nil, err
	}
	res := &restartResult{}
	if res.Deleted, res.Modified, err = h.makeDrift(ctx, targets); err != nil {
		return nil, err
	}
	win, err := h.openWindow(ctx)
	if err != nil {
		return nil, err
	}
	began := time.Now()
	exited, err := start()
	if err != nil {
		return nil, err
	}
	if err := h.waitRestored(ctx, exited, targets); err != nil {
		return nil, fmt.Errorf("drift made while the agent was down: %w", err)
	}
	res.RepairedSeconds = time.Since(began).Seconds()
	last, err := h.waitQuiet(ctx, exited)
	if err != nil {
		return nil, err
	}
	res.IdleSeconds = last.Sub(began).Seconds()
	if res.hub, res.managed, _, err = h.closeWindow(ctx, win); err != nil {
		return nil, err
	}
	res.Hub, res.Managed = res.hub.byKey(), res.managed.byKey()
	res.PerManifest = float64(res.hub.total()+res.managed.total()) / float64(h.params.Works*h.params.Manifests)
	return res, nil
}

// waitQuiet reads the request counters of both clusters every quietPoll
// until they have not moved for quietFor, and returns when they last moved.
// It counts what the servers saw minus the bench's own requests and the
// lease writes of others; the clusters' slow background (subtracted from the
// windows as a rate) can only make the agent look busy for longer.
func (h *harness) waitQuiet(ctx context.Context, agentExited <-chan struct{}) (time.Time, error) {
	deadline := time.Now().Add(h.params.Timeout)
	var prev int
	last := time.Now()
	for first := true; ; first = false {
		hub, err := h.hub.mark(ctx)
		if err != nil {
			return time.Time{}, err
		}
		spoke, err := h.spoke.mark(ctx)
		if err != nil {
			return time.Time{}, err
		}
		n := hub.agentTotal() + spoke.agentTotal()
		if first || n != prev {
			prev, last = n, hub.at
		}
		switch {
		case time.Since(last) >= quietFor:
			return last, nil
		case time.Now().After(deadline):
			return time.Time{}, fmt.Errorf("the agent was still sending requests after %s", h.params.Timeout)
		}
		if err := pause(ctx, agentExited, quietPoll); err != nil {
			return time.Time{}, err
		}
	}
}

// agentTotal is what the server counted at the mark that is not the bench's
// own requests or others' lease writes.
func (m mark) agentTotal() int {
	return m.total.total() - m.own.total() - m.observed.total()
}

// withLeaderElection is an agent command without --disable-leader-election,
// so that the agent holds a lease as it does when deployed (ours and OCM's
// both elect a leader by default).
func withLeaderElection(command string) string {
	return strings.ReplaceAll(command, " --disable-leader-election", "")
}
