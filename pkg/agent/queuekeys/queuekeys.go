// Package queuekeys maps the informer events of the agent's controllers to
// the keys of the works they queue, and puts a key back after a conflict.
package queuekeys

import (
	"context"
	"fmt"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	"github.com/manifestwork/work/pkg/agent/workwriter"
)

// Work is the queue key function of ManifestWork events: the work's
// namespace/name.
func Work(logger klog.Logger) func(runtime.Object) []string {
	return func(obj runtime.Object) []string {
		key, err := cache.MetaNamespaceKeyFunc(obj)
		if err != nil {
			logger.Error(err, "Ignoring an event without object metadata", "type", fmt.Sprintf("%T", obj))
			return nil
		}
		return []string{key}
	}
}

// WorkOfApplied is the queue key function of AppliedManifestWork
// events: the key of the work an AppliedManifestWork of this hub records;
// another hub's are ignored.
func WorkOfApplied(logger klog.Logger, agent appliedwork.Agent) func(runtime.Object) []string {
	return func(obj runtime.Object) []string {
		accessor, err := apimeta.Accessor(obj)
		if err != nil {
			logger.Error(err, "Ignoring an event without object metadata", "type", fmt.Sprintf("%T", obj))
			return nil
		}
		key, ok := agent.WorkKey(accessor.GetName())
		if !ok {
			return nil
		}
		return []string{key}
	}
}

// AppliedOfWork is the queue key function, for ManifestWork events, of the
// controllers whose keys are AppliedManifestWork names: the name of the
// work's AppliedManifestWork on this hub.
func AppliedOfWork(logger klog.Logger, agent appliedwork.Agent) func(runtime.Object) []string {
	return func(obj runtime.Object) []string {
		accessor, err := apimeta.Accessor(obj)
		if err != nil {
			logger.Error(err, "Ignoring an event without object metadata", "type", fmt.Sprintf("%T", obj))
			return nil
		}
		return []string{agent.AppliedName(accessor.GetName())}
	}
}

// WorkEvents has a controller queue the key of a work on the events of the
// cluster's ManifestWorks and of this hub's AppliedManifestWorks: what the
// controllers that reconcile a work from both sides watch.
func WorkEvents(f *factory.Factory, logger klog.Logger, agent appliedwork.Agent, works, applied factory.Informer) *factory.Factory {
	return f.WithInformersQueueKeysFunc(Work(logger), works).
		WithInformersQueueKeysFunc(WorkOfApplied(logger, agent), applied)
}

// ConflictRetry is about when a controller looks again at a key whose write
// conflicted.
const ConflictRetry = time.Second

// RetryConflict tells whether err is a conflict, and if so puts the sync's
// key back in the queue about ConflictRetry later. A conflict means only that
// a cache was behind a write, often our own: the newer object is on its way
// through the informer, whose event queues the key again, so this is a quiet
// safety net, not a failure. A rate-limited requeue would come back at once
// (the sync returns nil, which resets the limiter) and conflict again on the
// same stale copy.
func RetryConflict(ctx context.Context, syncCtx factory.SyncContext, err error) bool {
	if !apierrors.IsConflict(err) {
		return false
	}
	klog.FromContext(ctx).V(2).Info("Object changed meanwhile; looking again", "err", err)
	syncCtx.Queue().AddAfter(syncCtx.QueueKey(), wait.Jitter(ConflictRetry, 0.5))
	return true
}

// RetryLater is RetryConflict for a controller that writes through a paced
// writer: a status write the writer held back (workwriter.Deferred) puts the
// sync's key back for when it may be written, and is no failure either.
func RetryLater(ctx context.Context, syncCtx factory.SyncContext, err error) bool {
	if after, ok := workwriter.IsDeferred(err); ok {
		syncCtx.Queue().AddAfter(syncCtx.QueueKey(), after)
		return true
	}
	return RetryConflict(ctx, syncCtx, err)
}

// Backoff is a per-key failure count that a controller keeps beside its
// queue's own, such as a rate limiter of its own.
type Backoff interface {
	NumRequeues(key string) int
	Forget(key string)
}

// RetryNow queues key at once if the queue or one of the extra backoffs is
// backing it off after failures, and forgets those failures first: after an
// outage, the backoff that the failures built up says nothing about the
// clusters any more. It tells whether it queued the key.
func RetryNow(queue workqueue.RateLimitingInterface, key string, extra ...Backoff) bool {
	failing := queue.NumRequeues(key) > 0
	for _, b := range extra {
		failing = failing || b.NumRequeues(key) > 0
	}
	if !failing {
		return false
	}
	for _, b := range extra {
		b.Forget(key)
	}
	queue.Forget(key)
	queue.Add(key)
	return true
}
