package cetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/agent/cloudevents"
)

// Wait bounds the polls of the Handler's Wait methods; Tick is how often
// they look.
const (
	Wait = 20 * time.Second
	Tick = 10 * time.Millisecond
)

// Handler is a cloudevents.Handler that records what a transport tells it.
// Its zero value is ready to use.
type Handler struct {
	// OnConnected, when set, runs inside Connected. Set it before the
	// transport runs.
	OnConnected func(ctx context.Context)

	mu           sync.Mutex
	connected    int
	disconnected []error
	events       []event.Event
	malformed    []error
}

var _ cloudevents.Handler = (*Handler)(nil)

// Counts is how often each method of a Handler was called.
type Counts struct {
	Connected, Disconnected, Received, Malformed int
}

// Connected counts the connection and runs OnConnected.
func (h *Handler) Connected(ctx context.Context) {
	h.mu.Lock()
	h.connected++
	f := h.OnConnected
	h.mu.Unlock()
	if f != nil {
		f(ctx)
	}
}

// Disconnected keeps err.
func (h *Handler) Disconnected(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.disconnected = append(h.disconnected, err)
}

// Receive keeps e.
func (h *Handler) Receive(_ context.Context, e event.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, e)
}

// Malformed keeps err.
func (h *Handler) Malformed(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.malformed = append(h.malformed, err)
}

// Counts is how often each method was called so far.
func (h *Handler) Counts() Counts {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Counts{
		Connected:    h.connected,
		Disconnected: len(h.disconnected),
		Received:     len(h.events),
		Malformed:    len(h.malformed),
	}
}

// Received is the events received so far, in order.
func (h *Handler) Received() []event.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]event.Event(nil), h.events...)
}

// DisconnectErrors is the errors of Disconnected so far, in order.
func (h *Handler) DisconnectErrors() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]error(nil), h.disconnected...)
}

// MalformedErrors is the errors of Malformed so far, in order.
func (h *Handler) MalformedErrors() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]error(nil), h.malformed...)
}

// WaitConnected waits, at most Wait, until the transport has connected n
// times or more.
func (h *Handler) WaitConnected(t testing.TB, n int) {
	t.Helper()
	require.Eventually(t, func() bool { return h.Counts().Connected >= n }, Wait, Tick,
		"the transport did not connect %d times", n)
}

// WaitReceived waits, at most Wait, until n events arrived, and returns
// them. More than n fails the test.
func (h *Handler) WaitReceived(t testing.TB, n int) []event.Event {
	t.Helper()
	require.Eventually(t, func() bool { return h.Counts().Received >= n }, Wait, Tick,
		"the transport did not receive %d events", n)
	events := h.Received()
	require.Len(t, events, n, "more events than expected")
	return events
}
