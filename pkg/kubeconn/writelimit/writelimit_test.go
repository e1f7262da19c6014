package writelimit

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// server is a fake API server: each request blocks until answered.
type server struct {
	requests chan *call
	inFlight atomic.Int32
	peak     atomic.Int32
}

// call is one request the server holds.
type call struct {
	req    *http.Request
	answer chan result
}

type result struct {
	status int
	err    error
}

func newServer() *server { return &server{requests: make(chan *call, 100)} }

func (s *server) RoundTrip(req *http.Request) (*http.Response, error) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		p := s.peak.Load()
		if n <= p || s.peak.CompareAndSwap(p, n) {
			break
		}
	}
	c := &call{req: req, answer: make(chan result, 1)}
	s.requests <- c
	r := <-c.answer
	if r.err != nil {
		return nil, r.err
	}
	return &http.Response{StatusCode: r.status, Request: req}, nil
}

// next is the next request the server got; it fails the test after a while.
func (s *server) next(t *testing.T) *call {
	t.Helper()
	select {
	case c := <-s.requests:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no request reached the server")
		return nil
	}
}

// none checks that no further request reaches the server for a moment:
// the limiter holds them.
func (s *server) none(t *testing.T) {
	t.Helper()
	select {
	case c := <-s.requests:
		t.Fatalf("%s reached the server; the limiter should have held it", c.req.Method)
	case <-time.After(100 * time.Millisecond):
	}
}

func (c *call) reply(status int) { c.answer <- result{status: status} }

// send sends a request through rt in the background; the result channel
// gets its error.
func send(ctx context.Context, rt http.RoundTripper, method string) <-chan error {
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, method, "https://hub/apis/work.open-cluster-management.io/v1/namespaces/c1/manifestworks/w", nil)
		_, err := rt.RoundTrip(req)
		done <- err
	}()
	return done
}

func wait(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the request did not return")
		return nil
	}
}

// fill sends n writes and waits until all of them reach the server.
func fill(t *testing.T, rt http.RoundTripper, s *server, n int) ([]*call, []<-chan error) {
	t.Helper()
	var calls []*call
	var dones []<-chan error
	for range n {
		dones = append(dones, send(t.Context(), rt, http.MethodPatch))
		calls = append(calls, s.next(t))
	}
	return calls, dones
}

func TestHealthyServerNeverHoldsWrites(t *testing.T) {
	s := newServer()
	l := New(Options{Max: 8})
	rt := l.Wrap(s)
	calls, dones := fill(t, rt, s, 8) // all 8 in flight at once
	for i, c := range calls {
		c.reply(http.StatusOK)
		require.NoError(t, wait(t, dones[i]))
	}
	assert.Equal(t, 8, l.Limit())
	assert.EqualValues(t, 8, s.peak.Load())
}

func TestOverloadHalvesWritesInFlight(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer result
		reason string
	}{
		{"429 Too Many Requests", result{status: http.StatusTooManyRequests}, Throttled},
		{"503 Service Unavailable", result{status: http.StatusServiceUnavailable}, Unavailable},
		{"504 Gateway Timeout", result{status: http.StatusGatewayTimeout}, Unavailable},
		{"no answer", result{err: errors.New("net/http: TLS handshake timeout")}, Failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer()
			var reasons []string
			l := New(Options{Max: 64, OnChange: func(_ int, reason string) { reasons = append(reasons, reason) }})
			rt := l.Wrap(s)
			calls, dones := fill(t, rt, s, 8)
			calls[0].answer <- tc.answer
			wait(t, dones[0])
			// 8 were in use when the server said it is overloaded: 4 may be
			// now, and 7 still are.
			assert.Equal(t, 4, l.Limit())
			assert.Equal(t, []string{tc.reason}, reasons)
			held := send(t.Context(), rt, http.MethodPost)
			s.none(t)
			for i := 1; i <= 3; i++ {
				calls[i].reply(http.StatusOK)
				require.NoError(t, wait(t, dones[i]))
			}
			s.none(t) // 4 still in flight
			calls[4].reply(http.StatusOK)
			s.next(t).reply(http.StatusOK)
			require.NoError(t, wait(t, held))
			for i := 5; i < 8; i++ {
				calls[i].reply(http.StatusOK)
			}
		})
	}
}

func TestOneOverloadCostsOneHalving(t *testing.T) {
	s := newServer()
	l := New(Options{Max: 16})
	rt := l.Wrap(s)
	calls, dones := fill(t, rt, s, 16)
	// Every write sent before the first 429 comes back with one too.
	for i, c := range calls {
		c.reply(http.StatusTooManyRequests)
		wait(t, dones[i])
	}
	assert.Equal(t, 8, l.Limit(), "the writes sent before the first cut do not cut again")
	// A write sent after the cut does.
	done := send(t.Context(), rt, http.MethodPatch)
	s.next(t).reply(http.StatusTooManyRequests)
	wait(t, done)
	assert.Equal(t, 1, l.Limit(), "half of the one write in flight, and never less than 1")
}

func TestAnsweredWritesRaiseTheLimitAgain(t *testing.T) {
	s := newServer()
	var limits []int
	l := New(Options{Max: 4, OnChange: func(limit int, _ string) { limits = append(limits, limit) }})
	rt := l.Wrap(s)
	done := send(t.Context(), rt, http.MethodPatch)
	s.next(t).reply(http.StatusTooManyRequests)
	wait(t, done)
	require.Equal(t, 1, l.Limit())
	// About one more per limit's worth of answered writes (1/limit each):
	// 2 after one, 3 after four, 4 after seven; never above Max.
	for range 16 {
		done := send(t.Context(), rt, http.MethodPatch)
		s.next(t).reply(http.StatusOK)
		require.NoError(t, wait(t, done))
	}
	assert.Equal(t, 4, l.Limit())
	assert.Equal(t, []int{1, 2, 3, 4}, limits)
}

func TestSlowAnswerIsOverload(t *testing.T) {
	s := newServer()
	var mu sync.Mutex
	clock := time.Unix(0, 0)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return clock
	}
	advance := func(d time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(d)
	}
	l := New(Options{Max: 8, Slow: 5 * time.Second, now: now})
	rt := l.Wrap(s)
	calls, dones := fill(t, rt, s, 2)
	advance(4 * time.Second)
	calls[0].reply(http.StatusOK)
	require.NoError(t, wait(t, dones[0]))
	assert.Equal(t, 8, l.Limit(), "4s is in time")
	advance(2 * time.Second)
	calls[1].reply(http.StatusOK)
	require.NoError(t, wait(t, dones[1]))
	assert.Equal(t, 1, l.Limit(), "6s is slow: half of the 2 that were in flight")
}

// atOne returns a limited transport whose limit is 1, with the one write
// in flight that the server holds.
func atOne(t *testing.T, s *server) (*Limiter, http.RoundTripper, *call, <-chan error) {
	t.Helper()
	l := New(Options{Max: 2})
	rt := l.Wrap(s)
	calls, dones := fill(t, rt, s, 2)
	calls[0].reply(http.StatusTooManyRequests)
	wait(t, dones[0])
	require.Equal(t, 1, l.Limit())
	return l, rt, calls[1], dones[1]
}

func TestReadsAreNeverHeld(t *testing.T) {
	s := newServer()
	_, rt, inFlight, done := atOne(t, s)
	// A list or watch still goes.
	get := send(t.Context(), rt, http.MethodGet)
	s.next(t).reply(http.StatusOK)
	require.NoError(t, wait(t, get))
	inFlight.reply(http.StatusOK)
	require.NoError(t, wait(t, done))
}

func TestCallerGivingUpFreesItsTurn(t *testing.T) {
	s := newServer()
	l, rt, inFlight, done := atOne(t, s)

	first := send(t.Context(), rt, http.MethodPatch)
	s.none(t)
	ctx, cancel := context.WithCancel(t.Context())
	held := send(ctx, rt, http.MethodPatch)
	s.none(t)
	cancel()
	assert.ErrorIs(t, wait(t, held), context.Canceled)
	s.none(t) // the write before it still waits for its turn

	// Its turn is not lost: once the write in flight is answered, the one
	// that waited goes.
	inFlight.reply(http.StatusOK)
	require.NoError(t, wait(t, done))
	s.next(t).reply(http.StatusOK)
	require.NoError(t, wait(t, first))
	assert.Zero(t, l.InFlight())

	ctx, cancel = context.WithCancel(t.Context())
	sent := send(ctx, rt, http.MethodPatch)
	c := s.next(t)
	cancel()
	c.reply(http.StatusGatewayTimeout)
	wait(t, sent)
	assert.Equal(t, 2, l.Limit(), "a write its caller gave up on says nothing about the server")

	// A deadline that passes is the server's slowness.
	ctx, cancel = context.WithTimeout(t.Context(), time.Millisecond)
	defer cancel()
	late := send(ctx, rt, http.MethodPatch)
	c = s.next(t)
	<-ctx.Done()
	c.answer <- result{err: context.DeadlineExceeded}
	assert.ErrorIs(t, wait(t, late), context.DeadlineExceeded)
	assert.Equal(t, 1, l.Limit())
}

// client-go finds the transport underneath, to close its idle connections.
func TestWrapsTheTransportVisibly(t *testing.T) {
	s := newServer()
	wrapped, ok := New(Options{}).Wrap(s).(utilnet.RoundTripperWrapper)
	require.True(t, ok)
	assert.Same(t, s, wrapped.WrappedRoundTripper())
}
