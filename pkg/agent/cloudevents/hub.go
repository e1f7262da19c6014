package cloudevents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/admission"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/client/clientset/versioned"
	"github.com/manifestwork/work/pkg/kubeconn/outage"
	"github.com/manifestwork/work/pkg/metrics"
)

// InvalidSpecReason is the reason of the Stalled condition of a work whose
// latest spec event the agent refused: the checks a hub's admission webhook
// makes on works that pass through a kube-apiserver, made by the agent on
// works that do not.
const InvalidSpecReason = "InvalidSpec"

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
	// works (see Hub.nameOf).
	Applied func(ctx context.Context, workName string) (bool, error)
}

// Hub is the agent's way to its works when they come as CloudEvents: the
// transport's events feed a local copy of the works (the store), which the
// agent's informers list and watch as they would a hub's kube-apiserver;
// the agent's status and finalizer patches on that copy go back to the
// source as status events.
type Hub struct {
	d      Deps
	store  *store
	client *client

	// writes serialises the changes of the local copy: the agent's patches
	// (whose status events then go out in order) and the specs received,
	// so that neither overwrites what the other just stored.
	writes sync.Mutex

	mu          sync.Mutex
	invalid     map[string]metav1.Condition // by work name: why its latest spec was refused
	connections int
	reconnected []func()
}

// NewHub returns a Hub that is not yet connected; Monitor().Run connects it.
func NewHub(d Deps) *Hub {
	h := &Hub{d: d, store: newStore(), invalid: map[string]metav1.Condition{}}
	h.client = &client{hub: h}
	return h
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

// connection is the Hub as the agent's outage monitors see it.
type connection Hub

// Run connects and stays connected until ctx ends.
func (c *connection) Run(ctx context.Context) {
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
	again := h.connections > 1
	callbacks := append([]func(){}, h.reconnected...)
	h.mu.Unlock()
	held := h.store.all()
	e, err := encodeSpecResync(h.d.ClientID, h.d.ClusterName, held)
	if err == nil {
		err = h.d.Transport.Publish(ctx, e)
	}
	if err != nil {
		logger.Error(err, "Could not ask the sources for the works' specs; asking again on the next connection")
	} else {
		logger.V(2).Info("Asked the sources for the works' specs", "works", len(held))
	}
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
		h.answerStatusResync(ctx, e)
	case t.SubResource == SubResourceSpec && t.Action != ResyncRequest:
		h.receiveSpec(ctx, e)
	default:
		metrics.CloudEventsReceived.WithLabelValues("ignored").Inc()
		logger.V(4).Info("Ignored an event that is not for agents")
	}
}

// receiveSpec applies a spec event to the local copy.
func (h *Hub) receiveSpec(ctx context.Context, e cloudevents.Event) {
	logger := klog.FromContext(ctx).WithValues("event", e.ID())
	s, err := decodeSpec(e)
	if err != nil {
		metrics.CloudEventsReceived.WithLabelValues("malformed").Inc()
		logger.Info("Dropped a spec event that names no work", "err", err)
		return
	}
	if s.Cluster != h.d.ClusterName {
		metrics.CloudEventsReceived.WithLabelValues("ignored").Inc()
		logger.V(4).Info("Ignored a spec event for another cluster", "cluster", s.Cluster)
		return
	}
	logger = logger.WithValues("work", s.ResourceID, "version", s.Version)
	h.writes.Lock()
	defer h.writes.Unlock()
	current, exists := h.store.byID(s.ResourceID)
	s.Name = h.nameOf(ctx, s, current)
	if s.Work != nil {
		s.Work.Name = s.Name
	}
	switch {
	case s.Deleting != nil:
		metrics.CloudEventsReceived.WithLabelValues("delete").Inc()
		h.delete(ctx, s, current)
	case exists && current.DeletionTimestamp != nil:
		metrics.CloudEventsReceived.WithLabelValues("stale").Inc()
		logger.V(2).Info("Ignored a spec of a work being deleted")
	case exists && s.Version <= current.Generation && !(s.Version == 0 && current.Generation == 0):
		metrics.CloudEventsReceived.WithLabelValues("stale").Inc()
		logger.V(2).Info("Ignored a spec no newer than the agent's", "have", current.Generation)
	case s.Invalid != nil:
		metrics.CloudEventsReceived.WithLabelValues("invalid").Inc()
		h.refuse(ctx, s, current, s.Invalid)
	default:
		if err := admission.Validate(s.Work, admission.Options{ManifestLimit: h.d.ManifestLimit}); err != nil {
			metrics.CloudEventsReceived.WithLabelValues("invalid").Inc()
			h.refuse(ctx, s, current, err)
			return
		}
		metrics.CloudEventsReceived.WithLabelValues("spec").Inc()
		h.accept(ctx, s, current)
	}
}

// nameOf is the name of the work of a spec event: the name it has in the
// local copy; for a new work, the name in the event's metadata, as OCM's
// agent names works from v1.1 on, unless an AppliedManifestWork of this hub
// already exists under its resource id, the name OCM v1.0.0's agent gives.
// Either way, an agent that takes over from OCM's on the same source finds
// the AppliedManifestWorks it left, and writes nothing to their objects.
func (h *Hub) nameOf(ctx context.Context, s specEvent, current *workv1.ManifestWork) string {
	switch {
	case current != nil:
		return current.Name
	case s.MetaName == "" || s.MetaName == s.ResourceID || h.d.Applied == nil:
		if s.MetaName == "" {
			return s.ResourceID
		}
		return s.MetaName
	}
	byID, err := h.d.Applied(ctx, s.ResourceID)
	if err != nil {
		klog.FromContext(ctx).Info("Could not look for an AppliedManifestWork under the work's resource id; naming the work as its metadata does",
			"work", s.ResourceID, "name", s.MetaName, "err", err)
	}
	if byID {
		return s.ResourceID
	}
	if other, taken := h.store.get(s.MetaName); taken && string(other.UID) != s.ResourceID {
		// Another work of the source has that name already.
		return s.ResourceID
	}
	return s.MetaName
}

// accept stores a new spec: a new work, or the next spec of one the agent
// has, keeping its finalizers and status.
func (h *Hub) accept(ctx context.Context, s specEvent, current *workv1.ManifestWork) {
	next := s.Work
	if current != nil {
		next.Finalizers = current.Finalizers
		next.Status = current.Status
		next.CreationTimestamp = current.CreationTimestamp
	} else {
		next.CreationTimestamp = metav1.Now()
	}
	h.mu.Lock()
	_, wasInvalid := h.invalid[next.Name]
	delete(h.invalid, next.Name)
	h.mu.Unlock()
	h.store.put(next)
	klog.FromContext(ctx).V(2).Info("Took a work's spec", "work", next.Name, "generation", next.Generation, "new", current == nil)
	if wasInvalid && current != nil && current.Generation == next.Generation {
		// Same generation: no controller will write the status again.
		h.sendStatus(ctx, next)
	}
}

// refuse keeps the last good spec of a work whose new spec is invalid, and
// tells the source why in the work's status.
func (h *Hub) refuse(ctx context.Context, s specEvent, current *workv1.ManifestWork, why error) {
	c := metav1.Condition{
		Type: workv1.WorkStalled, Status: metav1.ConditionTrue, Reason: InvalidSpecReason,
		Message:            fmt.Sprintf("The spec of resource version %d was refused, and the agent keeps the previous one: %v", s.Version, why),
		ObservedGeneration: s.Version, LastTransitionTime: metav1.Now(),
	}
	work := current
	if work == nil {
		c.Message = fmt.Sprintf("The spec of resource version %d was refused, and nothing was applied: %v", s.Version, why)
		work = s.Work
		if work == nil {
			work = &workv1.ManifestWork{}
		}
		work.Name, work.Namespace, work.UID, work.Generation = s.Name, s.Cluster, workUID(s.ResourceID), s.Version
		if work.Labels == nil {
			work.Labels = map[string]string{}
		}
		work.Labels[OriginalSourceLabel] = s.Source
	}
	h.mu.Lock()
	h.invalid[s.Name] = c
	h.mu.Unlock()
	klog.FromContext(ctx).Info("Refused a work's spec", "work", s.Name, "version", s.Version, "err", why)
	h.sendStatus(ctx, work)
}

// delete marks the work as being deleted; the agent's controllers then
// clean up after it, and the last finalizer patch sends its last status.
// A deletion of a work the agent does not hold still runs the clean-up of
// what an earlier run of the agent applied.
func (h *Hub) delete(ctx context.Context, s specEvent, current *workv1.ManifestWork) {
	if current == nil {
		current = &workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{
			Name: s.Name, Namespace: s.Cluster, UID: workUID(s.ResourceID), Generation: s.Version,
			Labels:            map[string]string{OriginalSourceLabel: s.Source},
			Annotations:       map[string]string{DataTypeAnnotation: DataType},
			Finalizers:        []string{workv1.ManifestWorkFinalizer},
			CreationTimestamp: metav1.Now(),
		}}
	}
	if current.DeletionTimestamp != nil {
		return
	}
	current.DeletionTimestamp = s.Deleting
	h.mu.Lock()
	delete(h.invalid, current.Name)
	h.mu.Unlock()
	h.store.put(current)
	klog.FromContext(ctx).V(2).Info("A work is being deleted", "work", current.Name)
}

// answerStatusResync sends the status of each work whose hash at the source
// differs; with no hashes at all, of every work.
func (h *Hub) answerStatusResync(ctx context.Context, e cloudevents.Event) {
	logger := klog.FromContext(ctx)
	hashes, err := decodeStatusResync(e)
	if err != nil {
		logger.Info("Dropped a status resync request", "err", err)
		return
	}
	sent := 0
	for _, w := range h.store.all() {
		if w.Labels[OriginalSourceLabel] != e.Source() {
			continue
		}
		w = h.outgoing(w)
		if len(hashes) > 0 {
			have, listed := hashes[string(w.UID)]
			if !listed {
				continue
			}
			if mine, err := hashStatus(w.Status); err == nil && mine == have {
				continue
			}
		}
		out, err := encodeStatus(h.d.ClientID, EventType{SubResource: SubResourceStatus, Action: ResyncResponse}, w)
		if err == nil {
			err = h.d.Transport.Publish(ctx, out)
		}
		if err != nil {
			logger.Error(err, "Could not answer a status resync request; the source asks again", "work", w.Name)
			return
		}
		sent++
	}
	logger.V(2).Info("Answered a status resync request", "source", e.Source(), "sent", sent)
}

// outgoing is the work as its status goes to the source: with the
// condition of a refused spec, if any.
func (h *Hub) outgoing(w *workv1.ManifestWork) *workv1.ManifestWork {
	h.mu.Lock()
	c, refused := h.invalid[w.Name]
	h.mu.Unlock()
	if !refused {
		return w
	}
	w = w.DeepCopy()
	meta.SetStatusCondition(&w.Status.Conditions, c)
	return w
}

// sendStatus sends a status update of the work, best effort: a status that
// does not go out now goes with the next write or resync.
func (h *Hub) sendStatus(ctx context.Context, w *workv1.ManifestWork) {
	e, err := encodeStatus(h.d.ClientID, EventType{SubResource: SubResourceStatus, Action: UpdateRequest}, h.outgoing(w))
	if err == nil {
		err = h.d.Transport.Publish(ctx, e)
	}
	if err != nil {
		klog.FromContext(ctx).V(2).Info("Could not send a work's status", "work", w.Name, "err", err)
	}
}

// patch applies the agent's merge patch of a work's status or finalizers
// to the local copy, sending the change to the source first: a status
// update, or the last status once a deleted work lost its last finalizer.
func (h *Hub) patch(ctx context.Context, name string, data []byte, subresource string) (*workv1.ManifestWork, error) {
	h.writes.Lock()
	defer h.writes.Unlock()
	current, ok := h.store.get(name)
	if !ok {
		return nil, notFound(name)
	}
	patched, err := applyMergePatch(current, data)
	if err != nil {
		return nil, errBadPatch(name, err)
	}
	if patched.ResourceVersion != "" && patched.ResourceVersion != current.ResourceVersion {
		return nil, errConflict(name)
	}
	next := current.DeepCopy()
	switch subresource {
	case "status":
		next.Status = patched.Status
		if equality.Semantic.DeepEqual(current.Status, next.Status) {
			return current, nil
		}
		if err := h.publish(ctx, EventType{SubResource: SubResourceStatus, Action: UpdateRequest}, next); err != nil {
			return nil, err
		}
	case "":
		next.Finalizers = patched.Finalizers
		if next.DeletionTimestamp != nil && len(next.Finalizers) == 0 {
			meta.SetStatusCondition(&next.Status.Conditions, metav1.Condition{
				Type: DeletedCondition, Status: metav1.ConditionTrue, Reason: "ManifestsDeleted",
				Message: fmt.Sprintf("The manifests are deleted from the cluster %s", next.Namespace),
			})
			if err := h.publish(ctx, EventType{SubResource: SubResourceStatus, Action: DeleteRequest}, next); err != nil {
				return nil, err
			}
			h.store.remove(name)
			h.mu.Lock()
			delete(h.invalid, name)
			h.mu.Unlock()
			return next, nil
		}
	default:
		return nil, errUnsupported(name, subresource)
	}
	return h.store.put(next), nil
}

// publish sends a status event of the work; a failure is the API error the
// writer expects of a hub that does not answer.
func (h *Hub) publish(ctx context.Context, t EventType, w *workv1.ManifestWork) error {
	e, err := encodeStatus(h.d.ClientID, t, h.outgoing(w))
	if err != nil {
		return errBadPatch(w.Name, err)
	}
	if err := h.d.Transport.Publish(ctx, e); err != nil {
		metrics.CloudEventsSent.WithLabelValues(string(t.Action), "error").Inc()
		if errors.Is(err, ErrDisconnected) {
			return errUnavailable(err)
		}
		return errUnavailable(fmt.Errorf("sending the status of work %s: %w", w.Name, err))
	}
	metrics.CloudEventsSent.WithLabelValues(string(t.Action), "sent").Inc()
	return nil
}

func applyMergePatch(w *workv1.ManifestWork, patch []byte) (*workv1.ManifestWork, error) {
	raw, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	merged, err := jsonpatch.MergePatch(raw, patch)
	if err != nil {
		return nil, err
	}
	out := &workv1.ManifestWork{}
	return out, json.Unmarshal(merged, out)
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
