package cloudevents

import (
	"context"
	"time"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"
)

// Transport speaks one protocol (MQTT or gRPC) to a broker or a server on
// behalf of one agent: it knows where the agent's events go and where the
// source's events come from. It carries events and nothing else: what an
// event means is the Hub's business.
type Transport interface {
	// Run connects and stays connected until ctx ends, reconnecting with a
	// backoff after any failure. After each connection is up and
	// subscribed it calls h.Connected; when one drops it calls
	// h.Disconnected. Each event that arrives goes to h.Receive, in the
	// order it arrived; a message that is not a CloudEvent goes to
	// h.Malformed and never stops the transport. Run returns only when ctx
	// ends.
	Run(ctx context.Context, h Handler)
	// Publish sends one event and returns once the transport took it (MQTT's
	// PUBACK at QoS 1, the answer of gRPC's Publish). While disconnected it
	// fails at once with ErrDisconnected. The transport picks the
	// destination from the event's type: a spec resync request goes where
	// the source's answers to a broadcast come from, the rest where the
	// agent's events go.
	Publish(ctx context.Context, e cloudevents.Event) error
	// Address is the broker's or server's address as the config file gives
	// it (brokerHost or url): the agent's AppliedManifestWorks are named
	// after its hash, as OCM's agent names them.
	Address() string
}

// Handler takes what a Transport receives. Its methods are called from one
// goroutine, in order, and must not block for long.
type Handler interface {
	Connected(ctx context.Context)
	Disconnected(err error)
	Receive(ctx context.Context, e cloudevents.Event)
	Malformed(err error)
}

// ErrDisconnected is what Publish returns while the transport has no
// connection.
var ErrDisconnected = disconnectedError{}

type disconnectedError struct{}

func (disconnectedError) Error() string { return "not connected to the broker" }

// ReconnectBackoff is OCM's reconnect backoff (sdk-go v1.0.0): 5 s at
// first, five times longer after each wait up to a minute, each with up to
// as much again of jitter, so 5-10 s, 25-50 s, then 1-2 min.
var ReconnectBackoff = wait.Backoff{Duration: 5 * time.Second, Cap: time.Minute, Steps: 12, Factor: 5, Jitter: 1}

// BackoffReset is how long after it last started over the backoff starts
// over from its first step, as OCM's does: a connection that stayed up
// this long reconnects after 5 s first.
const BackoffReset = 10 * time.Minute

// NewReconnectDelay is the wait before each reconnect attempt of one
// transport: ReconnectBackoff, started over every BackoffReset by clk.
func NewReconnectDelay(clk clock.Clock) wait.DelayFunc {
	return ReconnectBackoff.DelayWithReset(clk, BackoffReset)
}
