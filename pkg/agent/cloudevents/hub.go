package cloudevents

import (
	"context"
	"sync"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/kubeconn/outage"
	"github.com/manifestwork/work/pkg/metrics"
)

// Deps are what a Hub needs.
type Deps struct {
	ClusterName string
	// ClientID is the agent's --cloudevents-client-id: the source of its
	// events.
	ClientID  string
	Transport Transport
	// ManifestLimit is the most bytes of manifests a work may carry; 0 is
	// the hub webhook's default.
	ManifestLimit int
	// Applied tells whether the managed cluster holds an AppliedManifestWork
	// of this hub for a work of that name; nil means never. It names the
	// works (see specs.nameOf).
	Applied func(ctx context.Context, workName string) (bool, error)
}

// Hub is the agent's way to its works when they come as CloudEvents: the
// transport's events feed a local copy of the works (the store), which the
// agent's informers list and watch as they would a hub's kube-apiserver;
// the agent's status and finalizer patches on that copy go back to the
// source as status events. The Hub hands each event to its direction:
// specs take what comes in, statuses send what goes out.
type Hub struct {
	d        Deps
	store    *store
	specs    *specs
	statuses *statuses
	client   *client

	mu          sync.Mutex
	connections int
	reconnected []func()
}

// NewHub returns a Hub that is not yet connected; Monitor().Run connects it.
func NewHub(d Deps) *Hub {
	s := newStore()
	out := newStatuses(d.ClientID, d.Transport, s)
	return &Hub{
		d: d, store: s, statuses: out,
		specs:  &specs{d: d, store: s, statuses: out},
		client: &client{cluster: d.ClusterName, store: s, statuses: out},
	}
}

// WatchClient serves the local copy of the works.
func (h *Hub) WatchClient() versioned.Interface { return h.client }

// Client takes the agent's patches of status and finalizers.
func (h *Hub) Client() versioned.Interface { return h.client }

// EventSink writes Events on works to the log: there is no hub
// kube-apiserver to keep them.
func (h *Hub) EventSink() record.EventSink { return eventLog{} }

// Address is the broker's or server's address as configured.
func (h *Hub) Address() string { return h.d.Transport.Address() }

// Monitor runs the transport and tells when it is connected again.
func (h *Hub) Monitor() outage.Connection { return (*connection)(h) }

// hubCluster is the cluster label of the broker's or server's metrics: it
// stands where a hub's kube-apiserver would.
const hubCluster = "hub"

// connection is the Hub as the agent's outage monitors see it.
type connection Hub

// Run connects and stays connected until ctx ends. The hub counts as
// unreachable until the first connection is up.
func (c *connection) Run(ctx context.Context) {
	metrics.ClusterUnreachable.WithLabelValues(hubCluster).Set(1)
	c.d.Transport.Run(ctx, (*Hub)(c))
}

// OnReconnect registers f, called after each reconnect once the agent has
// asked for the specs it missed.
func (c *connection) OnReconnect(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reconnected = append(c.reconnected, f)
}

// Connected asks the sources for every spec this agent misses, then, on a
// reconnect, tells the agent to send again what it could not send.
func (h *Hub) Connected(ctx context.Context) {
	logger := klog.FromContext(ctx)
	h.mu.Lock()
	h.connections++
	metrics.ClusterUnreachable.WithLabelValues(hubCluster).Set(0)
	again := h.connections > 1
	callbacks := append([]func(){}, h.reconnected...)
	h.mu.Unlock()
	h.specs.askMissing(ctx)
	if again {
		logger.Info("Connected to the broker again", "address", h.Address())
		for _, f := range callbacks {
			f()
		}
	} else {
		logger.Info("Connected to the broker", "address", h.Address())
	}
}

// Disconnected notes that the transport is down.
func (h *Hub) Disconnected(err error) {
	metrics.ClusterUnreachable.WithLabelValues(hubCluster).Set(1)
	klog.Background().Info("Lost the connection to the broker; reconnecting", "address", h.Address(), "err", err)
}

// Malformed logs a message that is not a CloudEvent.
func (h *Hub) Malformed(err error) {
	metrics.CloudEventsReceived.WithLabelValues("malformed").Inc()
	klog.Background().Info("Dropped a message that is not a CloudEvent", "err", err)
}

// Receive takes one event from the sources.
func (h *Hub) Receive(ctx context.Context, e cloudevents.Event) {
	logger := klog.FromContext(ctx).WithValues("event", e.ID(), "type", e.Type())
	t, ok := ParseEventType(e.Type())
	switch {
	case !ok:
		metrics.CloudEventsReceived.WithLabelValues("unknown").Inc()
		logger.Info("Dropped an event of a type the agent does not know")
	case t.SubResource == SubResourceStatus && t.Action == ResyncRequest:
		metrics.CloudEventsReceived.WithLabelValues("status_resync").Inc()
		h.statuses.answerResync(ctx, e)
	case t.SubResource == SubResourceSpec && t.Action != ResyncRequest:
		h.specs.receive(ctx, e)
	default:
		metrics.CloudEventsReceived.WithLabelValues("ignored").Inc()
		logger.V(4).Info("Ignored an event that is not for agents")
	}
}

// eventLog is where Events on works go: the log, with their reason.
type eventLog struct{}

func (eventLog) Create(e *corev1.Event) (*corev1.Event, error) { logEvent(e); return e, nil }
func (eventLog) Update(e *corev1.Event) (*corev1.Event, error) { logEvent(e); return e, nil }
func (eventLog) Patch(e *corev1.Event, _ []byte) (*corev1.Event, error) {
	logEvent(e)
	return e, nil
}

func logEvent(e *corev1.Event) {
	klog.Background().Info("Event", "work", e.InvolvedObject.Name, "type", e.Type, "reason", e.Reason, "message", e.Message)
}
