package manifestwork

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/status/stalled"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Reachability tells whether the managed cluster answers the agent.
type Reachability interface {
	// Outage tells, while the cluster does not answer, since when and what
	// showed it; down is false while it answers.
	Outage() (since time.Time, cause string, down bool)
}

// InSyncReasonNotWatched is the reason of a manifest's InSync=Unknown
// while the agent cannot watch objects of its type: a change made to its
// object on the managed cluster would not be seen.
const InSyncReasonNotWatched = "NotWatched"

// checkCluster halts the pass while the managed cluster does not answer:
// writes would fail, and the watch caches the pass relies on are not kept
// current. The retries cost no request; the reconnection retries every
// work at once. An outage that lasts sets Stalled on every work: the
// Reachability tells the controller, which then reconciles them all, one
// status patch each.
func (c *Controller) checkCluster(_ context.Context, st *state) error {
	if c.Cluster == nil {
		return nil
	}
	since, cause, down := c.Cluster.Outage()
	if !down {
		return nil
	}
	err := fmt.Errorf("the managed cluster has not answered since %s: %s", since.UTC().Format(time.RFC3339), cause)
	persisting, wait := stalled.Persists(since, st.now)
	var stall *metav1.Condition
	if persisting {
		stall = stallCondition(stalled.ReasonManagedClusterUnreachable, st.work.Generation,
			"The managed cluster's API server has not answered the agent since %s (%s); the work is applied as soon as it answers again",
			since.UTC().Format(time.RFC3339), cause)
	}
	st.halt(err, wait, stall)
	return nil
}

// ReconcileAll queues every work at once, also those waiting for a retry:
// an outage has lasted long enough to be reported on each.
func (c *Controller) ReconcileAll() {
	works, _ := c.works.List(labels.Everything()) // a lister does not fail
	for _, work := range works {
		key := cache.MetaObjectToName(work)
		if mem := c.mem.peek(key); mem != nil {
			mem.unschedule()
		}
		c.SyncContext.Queue().Add(key.String())
	}
}

// appliedWorkStalled is the Stalled condition of a work whose
// AppliedManifestWork cannot be had, nil while that is too young to report.
func appliedWorkStalled(err error, persisting bool, generation int64) *metav1.Condition {
	if !persisting {
		return nil
	}
	return stallCondition(stalled.ReasonAppliedManifestWorkUnavailable, generation,
		"Nothing of the work is applied: %v; the agent retries with backoff, at least every minute", err)
}

// stallCondition is Stalled=True with the reason, and the message made of
// format and args.
func stallCondition(reason string, generation int64, format string, args ...any) *metav1.Condition {
	return &metav1.Condition{
		Type: stalled.ConditionType, Status: metav1.ConditionTrue, ObservedGeneration: generation,
		Reason: reason, Message: workv1.Shorten(fmt.Sprintf(format, args...), workv1.MaxConditionMessageLength, ""),
	}
}

// checkWatches marks the manifests whose objects the agent has not been
// able to watch for a while, and sets the work's Stalled condition when
// there are any: their changes on the managed cluster are not seen, so
// drift is neither reported nor repaired. A watch that failed only lately
// is looked at again once it has failed long enough to be reported; one
// that works again tells the controller (objectwatch.Deps.OnWatchFailure).
func (c *Controller) checkWatches(ctx context.Context, st *state) error {
	failing := map[objectwatch.Use]error{}
	var types []string // not watched, in the order of the manifests
	var first error    // of types[0]
	for i := range st.results {
		r := &st.results[i]
		if r.use == nil {
			continue // not prepared, nor watched for: its Applied condition says why
		}
		u := *r.use
		err, seen := failing[u]
		if !seen {
			err = c.watchFailure(st, u)
			failing[u] = err
			if name := u.Resource.GroupResource().String(); err != nil && !slices.Contains(types, name) {
				types = append(types, name)
				if first == nil {
					first = err
				}
			}
		}
		r.notWatched = err
	}
	if len(types) == 0 {
		return nil
	}
	klog.FromContext(ctx).V(2).Info("Resource types not watched", "types", types)
	message := fmt.Sprintf("The agent cannot list or watch %s: %v", types[0], first)
	if more := len(types) - 1; more > 0 {
		message += fmt.Sprintf("; and %d more resource types (%s)", more, strings.Join(types[1:], ", "))
	}
	message += "; changes made to their objects on the managed cluster are not seen: grant the agent list and watch on them"
	st.stall = stallCondition(stalled.ReasonResourceTypeNotWatched, st.work.Generation, "%s", message)
	return nil
}

// watchFailure is why the objects of u have not been watched for long
// enough to report it; nil while they are watched, or failed only lately
// (then the work is looked at again when it is time).
func (c *Controller) watchFailure(st *state, u objectwatch.Use) error {
	f, failing := c.Objects.WatchFailure(u)
	if !failing {
		return nil
	}
	persisting, wait := stalled.Persists(f.Since, st.now)
	if !persisting {
		st.notYet(fmt.Errorf("cannot list or watch %s: %w", u.Resource.GroupResource(), f.Err), wait)
		return nil
	}
	return f.Err
}
