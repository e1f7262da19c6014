package manifestwork

import (
	"testing"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"

	"github.com/manifestwork/work/test/fixture"
)

// After an outage, works whose manifests or status writes failed meanwhile
// are retried at once, with their backoff forgotten; the others are left alone.
func TestRetryFailedOnReconnect(t *testing.T) {
	e := newEnv(t, fixture.NewWork(fixture.Cluster, "w").Build())
	for _, name := range []string{"status-failed", "fine"} {
		require.NoError(t, e.works.Add(fixture.NewWork(fixture.Cluster, name).Build()))
	}
	e.c.SyncContext = factory.NewSyncContext(ControllerName, events.NewLoggingEventRecorder("test", clock.RealClock{}))
	queue := e.c.SyncContext.Queue()
	t.Cleanup(queue.ShutDown)

	ref := cache.NewObjectName(fixture.Cluster, "w")
	failing := ref.String() // its manifests failed: a retry a minute away
	for range 10 {
		e.c.mem.of(ref).backoff()
	}
	e.c.mem.of(ref).schedule(retry{at: time.Now().Add(time.Minute)})
	_, pending := e.c.retryPending(ref, 0)
	require.True(t, pending)
	statusFailed := fixture.Cluster + "/status-failed" // an error went to the queue's backoff
	for range 10 {
		queue.AddRateLimited(statusFailed)
	}

	e.c.RetryFailed()

	assert.Zero(t, e.c.mem.of(ref).retries())
	_, pending = e.c.retryPending(ref, 0)
	assert.False(t, pending, "the scheduled retry no longer holds a sync back")
	assert.Zero(t, queue.NumRequeues(statusFailed))
	require.Equal(t, 2, queue.Len(), "both queued at once, the work that did not fail is not")
	var got []string
	for range 2 {
		key, _ := queue.Get()
		got = append(got, key.(string))
		queue.Done(key)
	}
	assert.ElementsMatch(t, []string{failing, statusFailed}, got)
}
