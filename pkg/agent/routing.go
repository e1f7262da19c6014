package agent

import (
	"context"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/apply/records"
	"github.com/manifestwork/work/pkg/agent/controllers/appliedresources"
	"github.com/manifestwork/work/pkg/agent/controllers/availability"
	"github.com/manifestwork/work/pkg/agent/controllers/finalize"
	"github.com/manifestwork/work/pkg/agent/controllers/manifestwork"
	"github.com/manifestwork/work/pkg/agent/controllers/statusfeedback"
	"github.com/manifestwork/work/pkg/agent/executor"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/queuekeys"
	"github.com/manifestwork/work/pkg/agent/status/stalled"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/kubeconn/outage"
)

// queues are the queues that changes of applied objects feed, and the
// recorders and writers the controllers share.
type queues struct {
	recorder                       events.Recorder      // library-go's, only logs
	events                         record.EventRecorder // Kubernetes Events on the hub
	apply, available, record, done factory.SyncContext
	finalize, feedback             factory.SyncContext
	records                        *records.Store    // what was last applied, shared by apply and record
	writes                         workwriter.Shared // the writes of ManifestWorks on the hub
	// availability assesses the availability and health of works, for the
	// availability controller and, for works with rules, the feedback one
	availability *availability.Assessor
}

// recordsDelay is how long a work whose apply records changed waits before
// they are persisted, so that the changes of one burst (a drift repaired
// object by object) cost one write.
const recordsDelay = time.Second

// onRecorded has the records of a work persisted a moment later.
func (q queues) onRecorded(key string) {
	q.record.Queue().AddAfter(key, recordsDelay)
}

func newQueues(eventRecorder record.EventRecorder) queues {
	recorder := events.NewLoggingEventRecorder(eventComponent, clock.RealClock{})
	return queues{
		recorder:  recorder,
		events:    eventRecorder,
		apply:     factory.NewSyncContext(manifestwork.ControllerName, recorder),
		available: factory.NewSyncContext(availability.ControllerName, recorder),
		record:    factory.NewSyncContext(appliedresources.ControllerName, recorder),
		done:      factory.NewSyncContext(finalize.AppliedControllerName, recorder),
		finalize:  factory.NewSyncContext(finalize.ControllerName, recorder),
		feedback:  factory.NewSyncContext(statusfeedback.ControllerName, recorder),
	}
}

// onObjectChange requeues, when an applied object changes or disappears, the
// work that owns it (to repair drift and report availability at once, and to
// record its UID and apply records a moment later) and its
// AppliedManifestWork (a deletion may be waiting for that object). The
// availability of a work with feedback or condition rules is reported by
// the feedback controller, with its values, in one write: it is requeued
// too (a work without rules costs it nothing).
//
// The records wait as the apply's own do (onRecorded): a drift is repaired
// object by object, each repair is an event of its own, and a deleted object
// is only recorded once the apply has put it back. Recording at each event
// would write the AppliedManifestWork several times during the burst, next
// to the repairs, instead of once after it.
func (q queues) onObjectChange(agent appliedwork.Agent) func(appliedName string) {
	return func(appliedName string) {
		if key, ok := agent.WorkKey(appliedName); ok {
			q.apply.Queue().Add(key)
			q.available.Queue().Add(key)
			q.feedback.Queue().Add(key)
			q.onRecorded(key)
		}
		q.done.Queue().Add(appliedName)
	}
}

// onWatchFailure requeues a work when the watch of a type it uses starts
// failing or works again: the apply for its Stalled and InSync conditions,
// the availability and feedback controllers for its health, which the
// watch's cache may show changed while it was not watched. Users of the
// watches that are not works (the agent's start) are left out.
func (q queues) onWatchFailure(clusterName string) func(user string) {
	return func(user string) {
		if ref, err := cache.ParseObjectName(user); err == nil && ref.Namespace == clusterName {
			q.lookAgain(user)
		}
	}
}

// onListed requeues, once a new watch's cache has synced, the works owning
// an object its first list brought: someone may have changed the object
// between the agent's write and that list (a controller setting its status
// at once, a list the API server delayed), and no event will say so. The
// watches of the agent's start sync before the controllers run: the keys
// they add join those of every work queued already, so a start costs no
// reconcile more.
func (q queues) onListed(agent appliedwork.Agent) func(appliedName string) {
	return func(appliedName string) {
		if key, ok := agent.WorkKey(appliedName); ok {
			q.lookAgain(key)
		}
	}
}

// lookAgain requeues a work for the apply (its InSync and Stalled), and
// for the availability and feedback controllers (its health).
func (q queues) lookAgain(key string) {
	q.apply.Queue().Add(key)
	q.available.Queue().Add(key)
	q.feedback.Queue().Add(key)
}

// onRBACChange is told by the executor cache controller that RBAC changed
// on the managed cluster, for an executor or for all. The agent's own
// rights may have changed with it (an aggregated ClusterRole, a binding):
// the watches the API server refused are restarted at once, rather than on
// their backoff, and their works hear of it once they watch
// (onWatchFailure). Then the works of the executor are retried
// (onExecutorChange).
func (q queues) onRBACChange(works worklisters.ManifestWorkNamespaceLister, agent appliedwork.Agent, objects *objectwatch.Tracker) func(context.Context, string) {
	retryWorks := q.onExecutorChange(works, agent)
	return func(ctx context.Context, user string) {
		if n := objects.RetryRefused(); n > 0 {
			klog.FromContext(ctx).V(2).Info("RBAC changed; restarted refused watches", "watches", n)
		}
		retryWorks(ctx, user)
	}
}

// onExecutorChange requeues, when RBAC changed for an executor (or for all,
// executor.AllExecutors), every work it executes: to apply what was denied,
// prune and finish deletions that waited for a grant.
func (q queues) onExecutorChange(works worklisters.ManifestWorkNamespaceLister, agent appliedwork.Agent) func(context.Context, string) {
	return func(ctx context.Context, user string) {
		all, err := works.List(labels.Everything())
		if err != nil {
			klog.FromContext(ctx).Error(err, "Cannot list works to retry after an RBAC change")
			return
		}
		for _, work := range all {
			executes, err := executor.User(work.Spec.Executor)
			if err != nil || executes == "" || (user != executor.AllExecutors && user != executes) {
				continue
			}
			key := cache.MetaObjectToName(work).String()
			q.apply.Queue().Add(key)
			q.record.Queue().Add(key)
			q.done.Queue().Add(agent.AppliedName(work.Name))
		}
	}
}

// onOutages subscribes the controllers to the connections' outages. When
// the hub or the managed cluster answers again, every work whose reconcile
// failed meanwhile is retried at once, in every queue: the backoff that the
// outage built up says nothing about the clusters any more. When the managed
// cluster has not answered for stalled.Threshold, every work is reconciled,
// to show the outage on it (Stalled).
func (q queues) onOutages(connections outage.Monitors, cluster *outage.Monitor, apply *manifestwork.Controller, in informers) {
	works := in.works.Lister().ManifestWorks(apply.ClusterName)
	connections.OnReconnect(q.retryFailed(works, in.applied.Lister()))
	connections.OnReconnect(apply.RetryFailed) // with its own per-work backoff
	cluster.OnUnreachable(stalled.Threshold, apply.ReconcileAll)
}

// retryFailed returns what retries at once every work or
// AppliedManifestWork whose reconcile failed lately in the queues the
// controllers share.
func (q queues) retryFailed(works worklisters.ManifestWorkNamespaceLister, applied worklisters.AppliedManifestWorkLister) func() {
	byWork := []factory.SyncContext{q.available, q.record, q.finalize, q.feedback}
	return func() {
		all, _ := works.List(labels.Everything()) // a lister does not fail
		for _, work := range all {
			key := cache.MetaObjectToName(work).String()
			for _, s := range byWork {
				queuekeys.RetryNow(s.Queue(), key)
			}
		}
		appliedWorks, _ := applied.List(labels.Everything())
		for _, a := range appliedWorks {
			queuekeys.RetryNow(q.done.Queue(), a.Name)
		}
	}
}
