package agent

import (
	"context"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/controllers/appliedresources"
	"github.com/manifestwork/work/pkg/agent/controllers/availability"
	"github.com/manifestwork/work/pkg/agent/controllers/finalize"
	"github.com/manifestwork/work/pkg/agent/controllers/manifestwork"
	"github.com/manifestwork/work/pkg/agent/controllers/statusfeedback"
	"github.com/manifestwork/work/pkg/agent/executor"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/queuekeys"
	"github.com/manifestwork/work/pkg/agent/status/stalled"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	"github.com/manifestwork/work/pkg/kubeconn/outage"
)

// event is something the controllers hear of besides their informers'
// events (which each controller declares where it is built).
type event int

const (
	// objectChanged: an applied object changed or went.
	objectChanged event = iota
	// objectListed: the first list of a new watch brought an applied
	// object; someone may have changed it between the agent's write and
	// that list, and no event will say so.
	objectListed
	// watchFailed: the watch of a type a work uses starts failing or works
	// again; its cache may show the work's health changed meanwhile.
	watchFailed
	// objectRead: an object a work reads (objectwatch's SetReads) changed.
	objectRead
	// wholeChanged: an object watched whole for a work's feedback changed.
	wholeChanged
	// recordsChanged: the apply changed a work's records.
	recordsChanged
	// executorChanged: RBAC changed for the work's executor.
	executorChanged
	// reconnected: the hub or the managed cluster answers again after an
	// outage; the backoff it built up says nothing about them any more.
	reconnected
)

// keyOf is which key of a work a queue takes.
type keyOf int

const (
	byWork    keyOf = iota // the work's namespace/name
	byApplied              // the name of its AppliedManifestWork
)

// timing is how a key joins a queue.
type timing int

const (
	atOnce     timing = iota
	afterBurst        // recordsDelay later
	ifFailing         // at once, if it is backing off, its failures forgotten
)

// recordsDelay is how long a work whose apply records changed waits before
// they are persisted, so that the changes of one burst (a drift repaired
// object by object) cost one write.
const recordsDelay = time.Second

// trigger is one row of the routing: on an event about a work, the
// controller named by to queues the work's key.
type trigger struct {
	on     event
	to     string // a controller's name
	key    keyOf
	timing timing
}

// triggers are the routing of the events to the controllers' queues.
//
// An applied object that changes requeues its work to repair drift and
// report availability at once, its records a moment later, and its
// AppliedManifestWork, whose deletion may wait for that object. The records
// wait as the apply's own do: a drift is repaired object by object, each
// repair an event of its own, and recording at each would write the
// AppliedManifestWork several times during the burst instead of once after
// it. The availability of a work with feedback or condition rules is
// reported by the feedback controller, with its values, in one write: it is
// requeued too (a work without rules costs it nothing). A listed object or
// a watch's failure are no change of the records or of the
// AppliedManifestWork. An executor's RBAC change retries what was denied,
// prunes, and finishes deletions that waited for a grant; availability
// does not depend on it. After an outage, what failed meanwhile is retried
// at once; the apply does so with its own backoff (onOutages).
var triggers = []trigger{
	{objectChanged, manifestwork.ControllerName, byWork, atOnce},
	{objectChanged, availability.ControllerName, byWork, atOnce},
	{objectChanged, statusfeedback.ControllerName, byWork, atOnce},
	{objectChanged, appliedresources.ControllerName, byWork, afterBurst},
	{objectChanged, finalize.AppliedControllerName, byApplied, atOnce},

	{objectListed, manifestwork.ControllerName, byWork, atOnce},
	{objectListed, availability.ControllerName, byWork, atOnce},
	{objectListed, statusfeedback.ControllerName, byWork, atOnce},

	{watchFailed, manifestwork.ControllerName, byWork, atOnce},
	{watchFailed, availability.ControllerName, byWork, atOnce},
	{watchFailed, statusfeedback.ControllerName, byWork, atOnce},

	{objectRead, manifestwork.ControllerName, byWork, atOnce},
	{wholeChanged, statusfeedback.ControllerName, byWork, atOnce},
	{recordsChanged, appliedresources.ControllerName, byWork, afterBurst},

	{executorChanged, manifestwork.ControllerName, byWork, atOnce},
	{executorChanged, appliedresources.ControllerName, byWork, atOnce},
	{executorChanged, finalize.AppliedControllerName, byApplied, atOnce},

	{reconnected, availability.ControllerName, byWork, ifFailing},
	{reconnected, appliedresources.ControllerName, byWork, ifFailing},
	{reconnected, finalize.ControllerName, byWork, ifFailing},
	{reconnected, statusfeedback.ControllerName, byWork, ifFailing},
	{reconnected, finalize.AppliedControllerName, byApplied, ifFailing},
}

// about is what an event is about: a work of this cluster (its key) and
// its AppliedManifestWork (its name); "" where there is none.
type about struct{ work, applied string }

// router feeds the controllers' queues as the triggers say: it holds a
// queue for each controller they name, which that controller is built
// with.
type router struct {
	agent  appliedwork.Agent
	queues map[string]factory.SyncContext
}

func newRouter(agent appliedwork.Agent, recorder events.Recorder) router {
	r := router{agent: agent, queues: map[string]factory.SyncContext{}}
	for _, t := range triggers {
		if r.queues[t.to] == nil {
			r.queues[t.to] = factory.NewSyncContext(t.to, recorder)
		}
	}
	return r
}

// queue is the queue of the named controller.
func (r router) queue(controller string) factory.SyncContext {
	return r.queues[controller]
}

// fire queues the keys of a as the triggers of ev say.
func (r router) fire(ev event, a about) {
	for _, t := range triggers {
		key := a.work
		if t.key == byApplied {
			key = a.applied
		}
		if t.on != ev || key == "" {
			continue
		}
		q := r.queues[t.to].Queue()
		switch t.timing {
		case atOnce:
			q.Add(key)
		case afterBurst:
			q.AddAfter(key, recordsDelay)
		case ifFailing:
			queuekeys.RetryNow(q, key)
		}
	}
}

// ofApplied is what an event about an AppliedManifestWork is about: its
// work, if it is of this hub.
func (r router) ofApplied(name string) about {
	key, _ := r.agent.WorkKey(name)
	return about{work: key, applied: name}
}

// objectwatch's callbacks.

func (r router) onObjectChange(appliedName string) { r.fire(objectChanged, r.ofApplied(appliedName)) }
func (r router) onListed(appliedName string)       { r.fire(objectListed, r.ofApplied(appliedName)) }
func (r router) onRead(key string)                 { r.fire(objectRead, about{work: key}) }
func (r router) onWholeChange(key string)          { r.fire(wholeChanged, about{work: key}) }

// onWatchFailure is told the users of a watch that starts failing or works
// again; users that are not works (the agent's start) are left out.
func (r router) onWatchFailure(user string) {
	if ref, err := cache.ParseObjectName(user); err == nil && ref.Namespace == r.agent.ClusterName {
		r.fire(watchFailed, about{work: user})
	}
}

// onRecorded has the records of a work persisted a moment later.
func (r router) onRecorded(key string) { r.fire(recordsChanged, about{work: key}) }

// onRBACChange is told by the executor cache controller that RBAC changed
// on the managed cluster, for an executor or for all. The agent's own
// rights may have changed with it (an aggregated ClusterRole, a binding):
// the watches the API server refused are restarted at once, rather than on
// their backoff, and their works hear of it once they watch
// (onWatchFailure). Then the works of the executor are retried
// (onExecutorChange).
func (r router) onRBACChange(works worklisters.ManifestWorkNamespaceLister, objects *objectwatch.Tracker) func(context.Context, string) {
	retryWorks := r.onExecutorChange(works)
	return func(ctx context.Context, user string) {
		if n := objects.RetryRefused(); n > 0 {
			klog.FromContext(ctx).V(2).Info("RBAC changed; restarted refused watches", "watches", n)
		}
		retryWorks(ctx, user)
	}
}

// onExecutorChange fires executorChanged, when RBAC changed for an
// executor (or for all, executor.AllExecutors), for every work it executes.
func (r router) onExecutorChange(works worklisters.ManifestWorkNamespaceLister) func(context.Context, string) {
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
			r.fire(executorChanged, about{work: cache.MetaObjectToName(work).String(), applied: r.agent.AppliedName(work.Name)})
		}
	}
}

// onOutages subscribes the controllers to the connections' outages. When
// the hub or the managed cluster answers again, every work whose reconcile
// failed meanwhile is retried at once, in every queue (retryFailed; the
// apply with its own per-work backoff). When the managed cluster has not
// answered for stalled.Threshold, every work is reconciled, to show the
// outage on it (Stalled).
func (r router) onOutages(monitors outage.Monitors, cluster *outage.Monitor, apply *manifestwork.Controller,
	works worklisters.ManifestWorkNamespaceLister, applied worklisters.AppliedManifestWorkLister) {
	monitors.OnReconnect(r.retryFailed(works, applied))
	monitors.OnReconnect(apply.RetryFailed)
	cluster.OnUnreachable(stalled.Threshold, apply.ReconcileAll)
}

// retryFailed returns what fires reconnected for every work and every
// AppliedManifestWork.
func (r router) retryFailed(works worklisters.ManifestWorkNamespaceLister, applied worklisters.AppliedManifestWorkLister) func() {
	return func() {
		all, _ := works.List(labels.Everything()) // a lister does not fail
		for _, work := range all {
			r.fire(reconnected, about{work: cache.MetaObjectToName(work).String()})
		}
		appliedWorks, _ := applied.List(labels.Everything())
		for _, a := range appliedWorks {
			r.fire(reconnected, about{applied: a.Name})
		}
	}
}
