package queuekeys

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/client-go/util/workqueue"
)

func TestRetryNow(t *testing.T) {
	tests := []struct {
		name         string
		queueFails   int // failures the queue's own limiter counts
		extraFails   int // failures an extra backoff counts
		withExtra    bool
		wantQueued   bool
		wantExtraOff bool // the extra backoff was told to forget
	}{
		{name: "not failing", wantQueued: false},
		{name: "failing in the queue", queueFails: 3, wantQueued: true},
		{name: "not failing anywhere, with an extra backoff", withExtra: true},
		{name: "failing in the extra backoff only", extraFails: 2, withExtra: true, wantQueued: true, wantExtraOff: true},
		{name: "failing in both", queueFails: 1, extraFails: 1, withExtra: true, wantQueued: true, wantExtraOff: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[any]())
			defer queue.ShutDown()
			for range tc.queueFails {
				queue.AddRateLimited("cluster1/web") // a failure: queued only after its backoff
			}
			extra := &countingBackoff{fails: map[string]int{"cluster1/web": tc.extraFails}}
			var backoffs []Backoff
			if tc.withExtra {
				backoffs = append(backoffs, extra)
			}

			queued := RetryNow(queue, "cluster1/web", backoffs...)

			assert.Equal(t, tc.wantQueued, queued)
			if tc.wantQueued {
				assert.Equal(t, 1, queue.Len(), "queued at once")
			} else {
				assert.Zero(t, queue.Len(), "not queued")
			}
			if tc.wantQueued {
				assert.Zero(t, queue.NumRequeues("cluster1/web"), "the queue's backoff is forgotten")
			} else {
				assert.Equal(t, tc.queueFails, queue.NumRequeues("cluster1/web"), "the queue's backoff is kept")
			}
			assert.Equal(t, tc.wantExtraOff, extra.forgotten, "the extra backoff is forgotten only when the key is retried")
		})
	}
}

type countingBackoff struct {
	fails     map[string]int
	forgotten bool
}

func (b *countingBackoff) NumRequeues(key string) int { return b.fails[key] }

func (b *countingBackoff) Forget(key string) {
	delete(b.fails, key)
	b.forgotten = true
}
