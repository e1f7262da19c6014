package cloudevents

import (
	"context"
	"fmt"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/admission"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// InvalidSpecReason is the reason of the Stalled condition of a work whose
// latest spec event the agent refused: the checks a hub's admission webhook
// makes on works that pass through a kube-apiserver, made by the agent on
// works that do not.
const InvalidSpecReason = "InvalidSpec"

// specs is the inbound direction: the sources' spec events turned into the
// local copy of the works, and the agent's request for the specs it misses.
// A refused spec goes back to its source as a status (see statuses.refuse).
type specs struct {
	d        Deps
	store    *store
	statuses *statuses
}

// askMissing asks the sources for every spec this agent misses, listing the
// works it holds.
func (in *specs) askMissing(ctx context.Context) {
	logger := klog.FromContext(ctx)
	held := in.store.all()
	e, err := encodeSpecResync(in.d.ClientID, in.d.ClusterName, held)
	if err == nil {
		err = in.d.Transport.Publish(ctx, e)
	}
	if err != nil {
		logger.Error(err, "Could not ask the sources for the works' specs; asking again on the next connection")
		return
	}
	logger.V(2).Info("Asked the sources for the works' specs", "works", len(held))
}

// receive applies a spec event to the local copy.
func (in *specs) receive(ctx context.Context, e cloudevents.Event) {
	logger := klog.FromContext(ctx).WithValues("event", e.ID())
	s, err := decodeSpec(e)
	if err != nil {
		metrics.CloudEventsReceived.WithLabelValues("malformed").Inc()
		logger.Info("Dropped a spec event that names no work", "err", err)
		return
	}
	if s.Cluster != in.d.ClusterName {
		metrics.CloudEventsReceived.WithLabelValues("ignored").Inc()
		logger.V(4).Info("Ignored a spec event for another cluster", "cluster", s.Cluster)
		return
	}
	logger = logger.WithValues("work", s.ResourceID, "version", s.Version)
	in.store.writes.Lock()
	defer in.store.writes.Unlock()
	current, exists := in.store.byID(s.ResourceID)
	s.Name = in.nameOf(ctx, s, current)
	if s.Work != nil {
		s.Work.Name = s.Name
	}
	switch {
	case s.Deleting != nil:
		metrics.CloudEventsReceived.WithLabelValues("delete").Inc()
		in.delete(ctx, s, current)
	case exists && current.DeletionTimestamp != nil:
		metrics.CloudEventsReceived.WithLabelValues("stale").Inc()
		logger.V(2).Info("Ignored a spec of a work being deleted")
	case exists && s.Version <= current.Generation && !(s.Version == 0 && current.Generation == 0):
		metrics.CloudEventsReceived.WithLabelValues("stale").Inc()
		logger.V(2).Info("Ignored a spec no newer than the agent's", "have", current.Generation)
	case s.Invalid != nil:
		metrics.CloudEventsReceived.WithLabelValues("invalid").Inc()
		in.refuse(ctx, s, current, s.Invalid)
	default:
		if err := admission.Validate(s.Work, admission.Options{ManifestLimit: in.d.ManifestLimit}); err != nil {
			metrics.CloudEventsReceived.WithLabelValues("invalid").Inc()
			in.refuse(ctx, s, current, err)
			return
		}
		metrics.CloudEventsReceived.WithLabelValues("spec").Inc()
		in.accept(ctx, s, current)
	}
}

// nameOf is the name of the work of a spec event: the name it has in the
// local copy; for a new work, the name in the event's metadata, as OCM's
// agent names works from v1.1 on, unless an AppliedManifestWork of this hub
// already exists under its resource id, the name OCM v1.0.0's agent gives.
// Either way, an agent that takes over from OCM's on the same source finds
// the AppliedManifestWorks it left, and writes nothing to their objects.
func (in *specs) nameOf(ctx context.Context, s specEvent, current *workv1.ManifestWork) string {
	switch {
	case current != nil:
		return current.Name
	case s.MetaName == "" || s.MetaName == s.ResourceID || in.d.Applied == nil:
		if s.MetaName == "" {
			return s.ResourceID
		}
		return s.MetaName
	}
	byID, err := in.d.Applied(ctx, s.ResourceID)
	if err != nil {
		klog.FromContext(ctx).Info("Could not look for an AppliedManifestWork under the work's resource id; naming the work as its metadata does",
			"work", s.ResourceID, "name", s.MetaName, "err", err)
	}
	if byID {
		return s.ResourceID
	}
	if other, taken := in.store.get(s.MetaName); taken && string(other.UID) != s.ResourceID {
		// Another work of the source has that name already.
		return s.ResourceID
	}
	return s.MetaName
}

// accept stores a new spec: a new work, or the next spec of one the agent
// has, keeping its finalizers and status.
func (in *specs) accept(ctx context.Context, s specEvent, current *workv1.ManifestWork) {
	next := s.Work
	if current != nil {
		next.Finalizers = current.Finalizers
		next.Status = current.Status
		next.CreationTimestamp = current.CreationTimestamp
	} else {
		next.CreationTimestamp = metav1.Now()
	}
	wasRefused := in.statuses.forget(next.Name)
	in.store.put(next)
	klog.FromContext(ctx).V(2).Info("Took a work's spec", "work", next.Name, "generation", next.Generation, "new", current == nil)
	if wasRefused && current != nil && current.Generation == next.Generation {
		// Same generation: no controller will write the status again.
		in.statuses.send(ctx, next)
	}
}

// refuse keeps the last good spec of a work whose new spec is invalid, and
// tells the source why in the work's status.
func (in *specs) refuse(ctx context.Context, s specEvent, current *workv1.ManifestWork, why error) {
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
	klog.FromContext(ctx).Info("Refused a work's spec", "work", s.Name, "version", s.Version, "err", why)
	in.statuses.refuse(ctx, work, c)
}

// delete marks the work as being deleted; the agent's controllers then
// clean up after it, and the last finalizer patch sends its last status.
// A deletion of a work the agent does not hold still runs the clean-up of
// what an earlier run of the agent applied.
func (in *specs) delete(ctx context.Context, s specEvent, current *workv1.ManifestWork) {
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
	in.statuses.forget(current.Name)
	in.store.put(current)
	klog.FromContext(ctx).V(2).Info("A work is being deleted", "work", current.Name)
}

func workUID(resourceID string) types.UID { return types.UID(resourceID) }
