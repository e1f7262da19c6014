package manifestwork

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"k8s.io/client-go/tools/cache"
)

// The backoff doubles from retryFirst up to retryMax, and success starts it
// again.
func TestWorkMemoryBackoff(t *testing.T) {
	var m workMemory
	var got []time.Duration
	for range 9 {
		got = append(got, m.backoff())
	}
	assert.Equal(t, []time.Duration{retryFirst, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second,
		16 * time.Second, 32 * time.Second, retryMax, retryMax}, got)
	assert.Equal(t, 9, m.retries())
	m.succeeded()
	assert.Zero(t, m.retries())
	assert.Equal(t, retryFirst, m.backoff())
}

// Forgetting a work drops everything remembered of it, and nothing of the
// others.
func TestMemoriesForget(t *testing.T) {
	var ms memories
	gone, kept := cache.NewObjectName("c", "gone"), cache.NewObjectName("c", "kept")
	for _, key := range []cache.ObjectName{gone, kept} {
		m := ms.of(key)
		m.backoff()
		m.schedule(retry{at: time.Unix(100, 0)})
		m.appliedUnavailable(time.Unix(50, 0))
		m.written.NoteLast(1, 7)
		m.drift.message(1, "drifted", time.Unix(60, 0))
	}

	ms.forget(gone)

	assert.Nil(t, ms.peek(gone))
	fresh := ms.of(gone)
	assert.Zero(t, fresh.retries())
	_, scheduled := fresh.scheduled()
	assert.False(t, scheduled)
	assert.Equal(t, time.Unix(70, 0), fresh.appliedUnavailable(time.Unix(70, 0)), "a new failure starts now")
	assert.False(t, fresh.written.Replaced(1, 7))
	assert.Equal(t, "new", fresh.drift.message(1, "new", time.Unix(61, 0)), "a new window")

	m := ms.peek(kept)
	assert.Equal(t, 1, m.retries())
	assert.True(t, m.written.Replaced(1, 7))
	assert.Equal(t, "drifted", m.drift.message(1, "new", time.Unix(61, 0)))
}

// The reconnection and outage callbacks reach a work's retry while it is
// reconciled, and other works come and go meanwhile (run with -race).
func TestMemoriesConcurrentUse(t *testing.T) {
	var ms memories
	key := cache.NewObjectName("c", "w")
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			other := cache.NewObjectName("c", string(rune('a'+i)))
			for range 100 {
				m := ms.of(key)
				switch i {
				case 0:
					m.backoff()
					m.schedule(retry{})
				case 1:
					m.succeeded()
				case 2:
					m.unschedule()
					_, _ = m.scheduled()
				case 3:
					_ = m.retries()
				}
				ms.of(other).written.NoteLast(1, 1)
				ms.forget(other)
			}
		}()
	}
	wg.Wait()
	assert.NotNil(t, ms.peek(key))
}
