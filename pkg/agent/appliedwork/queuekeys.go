package appliedwork

import (
	"fmt"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// WorkQueueKeys is the queue key function of ManifestWork events: the work's
// namespace/name.
func WorkQueueKeys(logger klog.Logger) func(runtime.Object) []string {
	return func(obj runtime.Object) []string {
		key, err := cache.MetaNamespaceKeyFunc(obj)
		if err != nil {
			logger.Error(err, "Ignoring an event without object metadata", "type", fmt.Sprintf("%T", obj))
			return nil
		}
		return []string{key}
	}
}

// WorkOfAppliedQueueKeys is the queue key function of AppliedManifestWork
// events: the key of the work an AppliedManifestWork of this hub records;
// another hub's are ignored.
func WorkOfAppliedQueueKeys(logger klog.Logger, clusterName, hubHash string) func(runtime.Object) []string {
	return func(obj runtime.Object) []string {
		accessor, err := apimeta.Accessor(obj)
		if err != nil {
			logger.Error(err, "Ignoring an event without object metadata", "type", fmt.Sprintf("%T", obj))
			return nil
		}
		key, ok := WorkKey(clusterName, hubHash, accessor.GetName())
		if !ok {
			return nil
		}
		return []string{key}
	}
}
