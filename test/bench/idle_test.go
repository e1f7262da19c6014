//go:build linux

package bench

import (
	"context"
	"time"
)

// idleResult is phase 2: what the agent sends while nothing changes.
type idleResult struct {
	Seconds float64        `json:"seconds"`
	Managed map[string]int `json:"managedRequests"`
	Hub     map[string]int `json:"hubRequests"`
	Writes  int            `json:"writes"`
	Reads   int            `json:"reads"` // GET and LIST; watches are not polling
	managed counts
	hub     counts
}

// idle counts the agent's requests over a window after convergence.
func (m *meters) idle(ctx context.Context, agentExited <-chan struct{}, window time.Duration) (*idleResult, error) {
	win, err := m.openWindow(ctx)
	if err != nil {
		return nil, err
	}
	// The window itself is the measurement; the agent exiting ends it early.
	if err := pause(ctx, agentExited, window); err != nil {
		return nil, err
	}
	res := &idleResult{}
	var d time.Duration
	if res.hub, res.managed, d, err = m.closeWindow(ctx, win); err != nil {
		return nil, err
	}
	res.Seconds = d.Seconds()
	res.Hub, res.Managed = res.hub.byKey(), res.managed.byKey()
	res.Writes = res.hub.writes() + res.managed.writes()
	res.Reads = res.hub.reads() + res.managed.reads()
	return res, nil
}
