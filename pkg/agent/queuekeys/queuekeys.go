// Package queuekeys maps the informer events of the agent's controllers to
// the keys of the works they queue.
package queuekeys

import (
	"fmt"

	"github.com/openshift/library-go/pkg/controller/factory"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedname"
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
func WorkOfApplied(logger klog.Logger, clusterName, hubHash string) func(runtime.Object) []string {
	return func(obj runtime.Object) []string {
		accessor, err := apimeta.Accessor(obj)
		if err != nil {
			logger.Error(err, "Ignoring an event without object metadata", "type", fmt.Sprintf("%T", obj))
			return nil
		}
		key, ok := appliedname.WorkKey(clusterName, hubHash, accessor.GetName())
		if !ok {
			return nil
		}
		return []string{key}
	}
}

// WorkEvents has a controller queue the key of a work on the events of the
// cluster's ManifestWorks and of this hub's AppliedManifestWorks: what the
// controllers that reconcile a work from both sides watch.
func WorkEvents(f *factory.Factory, logger klog.Logger, clusterName, hubHash string, works, applied factory.Informer) *factory.Factory {
	return f.WithInformersQueueKeysFunc(Work(logger), works).
		WithInformersQueueKeysFunc(WorkOfApplied(logger, clusterName, hubHash), applied)
}
