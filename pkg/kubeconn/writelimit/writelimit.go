// Package writelimit bounds the writes one process has in flight to a
// cluster's API server, and adapts the bound to how the server copes.
//
// A server that cannot keep up answers writes late, with 429 Too Many
// Requests (API Priority and Fairness sheds load so), with 503 or 504 (its
// request timeout, while the handler it abandoned still runs), or not at
// all. A client that keeps sending as fast as its QPS allows makes that
// worse: each abandoned write is sent again while the server still works
// on it. When many agents share one hub, their writes add up to a load
// from which the hub does not recover.
//
// A Limiter lets at most Limit() writes (POST, PUT, PATCH, DELETE) be in
// flight. It halves the limit when a write shows the server overloaded:
// one of the answers above, a transport error, or an answer that took
// longer than Slow; it halves the writes in flight when they were fewer
// than the limit. It then grows the limit by one for each limit's worth
// of writes that the server answered in time (additive increase,
// multiplicative decrease, as TCP does). Writes sent before a decrease do
// not decrease it again: one overload costs one halving, however many
// writes it delays. Reads are never held: lists and watches have their own
// backoff, and a held watch would blind the process.
//
// A healthy server never lowers the limit, so the Limiter costs nothing
// there: it starts at its maximum, above what the process's workers can
// have in flight.
package writelimit

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"
)

const (
	// DefaultMax is the largest limit, and the first: more than the agent's
	// controllers ever have in flight at once.
	DefaultMax = 64
	// DefaultSlow is how long an answer may take before it counts as a
	// sign of overload. A write takes milliseconds on a healthy server.
	DefaultSlow = 5 * time.Second
)

// Why a write decreased the limit; the reason label of the metrics.
const (
	Throttled   = "throttled"   // 429 Too Many Requests
	Unavailable = "unavailable" // 502, 503 or 504
	Slow        = "slow"        // answered after Options.Slow
	Failed      = "failed"      // no answer: a transport error or timeout
)

// Options configures a Limiter.
type Options struct {
	// Max is the largest limit and the first; DefaultMax when 0.
	Max int
	// Slow is the answer time past which a write counts as a sign of
	// overload; DefaultSlow when 0.
	Slow time.Duration
	// OnChange, if set, is told the new limit after every decrease, and
	// after an increase that reaches a new whole number, with the reason
	// of a decrease ("" for an increase). It runs with the Limiter locked:
	// it must be quick (setting a metric is the intended use).
	OnChange func(limit int, reason string)
	// now is the clock; time.Now when nil.
	now func() time.Time
}

// Limiter is safe for concurrent use. Create it with New.
type Limiter struct {
	max      float64
	slow     time.Duration
	onChange func(int, string)
	now      func() time.Time

	mu       sync.Mutex
	limit    float64
	inFlight int
	waiters  []*waiter // in arrival order
	sent     uint64    // writes let through so far
	cut      uint64    // sent when the limit was last decreased
}

// New returns a Limiter at its maximum.
func New(o Options) *Limiter {
	if o.Max <= 0 {
		o.Max = DefaultMax
	}
	if o.Slow <= 0 {
		o.Slow = DefaultSlow
	}
	if o.now == nil {
		o.now = time.Now
	}
	return &Limiter{
		max: float64(o.Max), slow: o.Slow, onChange: o.OnChange, now: o.now,
		limit: float64(o.Max),
	}
}

// waiter is a write waiting for its turn.
type waiter struct {
	granted chan struct{} // closed when the write may be sent
	turn    uint64        // set before granted is closed
}

// Limit is how many writes may be in flight now.
func (l *Limiter) Limit() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int(l.limit)
}

// InFlight is how many writes are in flight now.
func (l *Limiter) InFlight() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.inFlight
}

// Wrap returns rt with the writes sent through it limited; it fits
// rest.Config.Wrap.
func (l *Limiter) Wrap(rt http.RoundTripper) http.RoundTripper {
	return &transport{l: l, next: rt}
}

type transport struct {
	l    *Limiter
	next http.RoundTripper
}

// WrappedRoundTripper lets client-go reach the transport underneath, e.g.
// to close its idle connections.
func (t *transport) WrappedRoundTripper() http.RoundTripper { return t.next }

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !isWrite(req.Method) {
		return t.next.RoundTrip(req)
	}
	ctx := req.Context()
	turn, err := t.l.acquire(ctx)
	if err != nil {
		return nil, err
	}
	start := t.l.now()
	resp, err := t.next.RoundTrip(req)
	t.l.release(turn, verdict(ctx, resp, err, t.l.now().Sub(start), t.l.slow))
	return resp, err
}

func isWrite(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// verdict is the reason a write's outcome shows the server overloaded, or
// "" if it does not. A write its caller canceled tells nothing; one whose
// deadline passed was not answered in time.
func verdict(ctx context.Context, resp *http.Response, err error, took, slow time.Duration) string {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return ""
	case err != nil:
		return Failed
	case resp.StatusCode == http.StatusTooManyRequests:
		return Throttled
	case resp.StatusCode == http.StatusBadGateway, resp.StatusCode == http.StatusServiceUnavailable,
		resp.StatusCode == http.StatusGatewayTimeout:
		return Unavailable
	case took > slow:
		return Slow
	}
	return ""
}

// acquire waits until a write may be sent, and returns its turn: the
// number of writes sent before it.
func (l *Limiter) acquire(ctx context.Context) (uint64, error) {
	me := &waiter{granted: make(chan struct{})}
	l.mu.Lock()
	l.waiters = append(l.waiters, me)
	l.grantLocked() // at once when the limit allows and no one waits before it
	l.mu.Unlock()
	select {
	case <-me.granted:
		return me.turn, nil
	case <-ctx.Done():
		l.mu.Lock()
		defer l.mu.Unlock()
		for i, w := range l.waiters {
			if w == me {
				l.waiters = append(l.waiters[:i], l.waiters[i+1:]...)
				return 0, ctx.Err()
			}
		}
		// Granted meanwhile: hand the turn on.
		l.inFlight--
		l.grantLocked()
		return 0, ctx.Err()
	}
}

// release ends a write sent at turn, with the reason it showed overload.
func (l *Limiter) release(turn uint64, reason string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight--
	before := int(l.limit)
	switch {
	case reason != "" && turn > l.cut:
		// Halve what was in use, not a limit far above it, so that the
		// first cut already holds writes back.
		l.limit = max(1, min(l.limit, float64(l.inFlight+1))/2)
		l.cut = l.sent
		if l.onChange != nil {
			l.onChange(int(l.limit), reason)
		}
	case reason == "" && l.limit < l.max:
		l.limit = min(l.max, l.limit+1/l.limit)
		if l.onChange != nil && int(l.limit) != before {
			l.onChange(int(l.limit), "")
		}
	}
	l.grantLocked()
}

// grantLocked lets waiters through, oldest first, while the limit allows.
func (l *Limiter) grantLocked() {
	for len(l.waiters) > 0 && l.inFlight < int(l.limit) {
		w := l.waiters[0]
		l.waiters = l.waiters[1:]
		l.inFlight++
		l.sent++
		w.turn = l.sent
		close(w.granted)
	}
}
