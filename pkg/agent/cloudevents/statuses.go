package cloudevents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// statuses is the outbound direction: the agent's patches of the local copy
// turned into status events to the source, and the answers to the sources'
// status resync requests. Every status of a work whose latest spec was
// refused carries the condition that says why, until a good spec comes.
type statuses struct {
	clientID  string
	transport Transport
	store     *store

	mu      sync.Mutex
	refused map[string]metav1.Condition // by work name: why its latest spec was refused
}

func newStatuses(clientID string, t Transport, s *store) *statuses {
	return &statuses{clientID: clientID, transport: t, store: s, refused: map[string]metav1.Condition{}}
}

// refuse sends the status of a work whose latest spec was refused, with the
// condition c that says why, and adds c to its statuses from now on.
func (out *statuses) refuse(ctx context.Context, w *workv1.ManifestWork, c metav1.Condition) {
	out.mu.Lock()
	out.refused[w.Name] = c
	out.mu.Unlock()
	out.send(ctx, w)
}

// forget drops the condition of a refused spec of the work, if any, and
// tells whether there was one.
func (out *statuses) forget(name string) bool {
	out.mu.Lock()
	defer out.mu.Unlock()
	_, was := out.refused[name]
	delete(out.refused, name)
	return was
}

// outgoing is the work as its status goes to the source: with the
// condition of a refused spec, if any.
func (out *statuses) outgoing(w *workv1.ManifestWork) *workv1.ManifestWork {
	out.mu.Lock()
	c, refused := out.refused[w.Name]
	out.mu.Unlock()
	if !refused {
		return w
	}
	w = w.DeepCopy()
	meta.SetStatusCondition(&w.Status.Conditions, c)
	return w
}

// send sends a status update of the work, best effort: a status that
// does not go out now goes with the next write or resync.
func (out *statuses) send(ctx context.Context, w *workv1.ManifestWork) {
	w = out.outgoing(w)
	e, err := encodeStatus(out.clientID, EventType{SubResource: SubResourceStatus, Action: UpdateRequest}, w)
	if err == nil {
		err = out.transport.Publish(ctx, e)
	}
	if err != nil {
		klog.FromContext(ctx).V(2).Info("Could not send a work's status", "work", w.Name, "err", err)
	}
}

// answerResync sends the status of each work whose hash at the source
// differs; with no hashes at all, of every work.
func (out *statuses) answerResync(ctx context.Context, e cloudevents.Event) {
	logger := klog.FromContext(ctx)
	hashes, err := decodeStatusResync(e)
	if err != nil {
		logger.Info("Dropped a status resync request", "err", err)
		return
	}
	sent := 0
	for _, w := range out.store.all() {
		if w.Labels[OriginalSourceLabel] != e.Source() {
			continue
		}
		w = out.outgoing(w)
		if len(hashes) > 0 {
			have, listed := hashes[string(w.UID)]
			if !listed {
				continue
			}
			if mine, err := hashStatus(w.Status); err == nil && mine == have {
				continue
			}
		}
		reply, err := encodeStatus(out.clientID, EventType{SubResource: SubResourceStatus, Action: ResyncResponse}, w)
		if err == nil {
			err = out.transport.Publish(ctx, reply)
		}
		if err != nil {
			logger.Error(err, "Could not answer a status resync request; the source asks again", "work", w.Name)
			return
		}
		sent++
	}
	logger.V(2).Info("Answered a status resync request", "source", e.Source(), "sent", sent)
}

// patch applies the agent's merge patch of a work's status or finalizers
// to the local copy, sending the change to the source first: a status
// update, or the last status once a deleted work lost its last finalizer.
func (out *statuses) patch(ctx context.Context, name string, data []byte, subresource string) (*workv1.ManifestWork, error) {
	out.store.writes.Lock()
	defer out.store.writes.Unlock()
	current, ok := out.store.get(name)
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
		if err := out.publish(ctx, EventType{SubResource: SubResourceStatus, Action: UpdateRequest}, next); err != nil {
			return nil, err
		}
	case "":
		next.Finalizers = patched.Finalizers
		if next.DeletionTimestamp != nil && len(next.Finalizers) == 0 {
			return out.deleted(ctx, next)
		}
	default:
		return nil, errUnsupported(name, subresource)
	}
	return out.store.put(next), nil
}

// deleted sends the last status of a deleted work that lost its last
// finalizer, with the Deleted condition, and drops the work.
func (out *statuses) deleted(ctx context.Context, w *workv1.ManifestWork) (*workv1.ManifestWork, error) {
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
		Type: DeletedCondition, Status: metav1.ConditionTrue, Reason: "ManifestsDeleted",
		Message: fmt.Sprintf("The manifests are deleted from the cluster %s", w.Namespace),
	})
	if err := out.publish(ctx, EventType{SubResource: SubResourceStatus, Action: DeleteRequest}, w); err != nil {
		return nil, err
	}
	out.store.remove(w.Name)
	out.forget(w.Name)
	return w, nil
}

// publish sends a status event of the work; a failure is the API error the
// writer expects of a hub that does not answer.
func (out *statuses) publish(ctx context.Context, t EventType, w *workv1.ManifestWork) error {
	w = out.outgoing(w)
	e, err := encodeStatus(out.clientID, t, w)
	if err != nil {
		return errBadPatch(w.Name, err)
	}
	if err := out.transport.Publish(ctx, e); err != nil {
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
	result := &workv1.ManifestWork{}
	return result, json.Unmarshal(merged, result)
}

func errConflict(name string) error {
	return apierrors.NewConflict(worksResource, name, errStale)
}

func errBadPatch(name string, err error) error {
	return apierrors.NewBadRequest("work " + name + ": " + err.Error())
}

func errUnavailable(err error) error {
	return apierrors.NewServiceUnavailable(err.Error())
}

var errStale = staleError{}

type staleError struct{}

func (staleError) Error() string {
	return "the object has been modified; apply the patch to its latest version"
}
