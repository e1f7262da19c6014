package manifestwork

import (
	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"k8s.io/client-go/util/workqueue"
)

// fakeSyncContext hands one queue key to sync.
type fakeSyncContext struct {
	key   string
	queue workqueue.RateLimitingInterface //nolint:staticcheck // library-go's interface
}

var _ factory.SyncContext = fakeSyncContext{}

func newFakeSyncContext(key string) fakeSyncContext {
	return fakeSyncContext{key: key, queue: workqueue.NewRateLimitingQueue(workqueue.DefaultControllerRateLimiter())} //nolint:staticcheck
}

func (f fakeSyncContext) Queue() workqueue.RateLimitingInterface { return f.queue }
func (f fakeSyncContext) QueueKey() string                       { return f.key }
func (f fakeSyncContext) Recorder() events.Recorder              { return nil }
