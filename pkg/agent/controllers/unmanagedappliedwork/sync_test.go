package unmanagedappliedwork

import (
	"errors"
	"testing"
	"time"

	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/util/workqueue"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// recordingQueue records the requeues of a sync; any other use panics.
type recordingQueue struct {
	workqueue.RateLimitingInterface
	after       map[string]time.Duration
	rateLimited []string
}

func (q *recordingQueue) AddAfter(item any, d time.Duration) { q.after[item.(string)] = d }
func (q *recordingQueue) AddRateLimited(item any) {
	q.rateLimited = append(q.rateLimited, item.(string))
}

type syncContext struct {
	key   string
	queue *recordingQueue
}

func (s syncContext) Queue() workqueue.RateLimitingInterface { return s.queue }
func (s syncContext) QueueKey() string                       { return s.key }
func (s syncContext) Recorder() events.Recorder              { return nil }

func newSyncContext(key string) syncContext {
	return syncContext{key: key, queue: &recordingQueue{after: map[string]time.Duration{}}}
}

func TestSyncRequeuesAtTheEndOfTheGracePeriod(t *testing.T) {
	applied := newApplied(ourHub, agentID, ago(grace/4))
	f := newFixture(t, applied)
	syncCtx := newSyncContext(applied.Name)

	require.NoError(t, f.c.sync(t.Context(), syncCtx))

	requeueAfter(t, grace-grace/4, syncCtx.queue.after[applied.Name])
	assert.Empty(t, f.writes())
}

func TestSyncWithoutRequeue(t *testing.T) {
	applied := newApplied(ourHub, agentID, nil)
	tests := map[string]struct {
		f   *fixture
		key string
	}{
		"its work is on the hub":  {f: newFixture(t, applied, newWork(workName)), key: applied.Name},
		"not in the cache (gone)": {f: newFixture(t, applied), key: "gone"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			syncCtx := newSyncContext(tt.key)

			require.NoError(t, tt.f.c.sync(t.Context(), syncCtx))

			assert.Empty(t, syncCtx.queue.after)
			assert.Empty(t, tt.f.writes())
		})
	}
}

func TestSyncErrors(t *testing.T) {
	tests := map[string]struct {
		err         error
		wantErr     bool
		rateLimited bool
	}{
		"conflict: checked again":  {err: apierrors.NewConflict(workv1.Resource("appliedmanifestworks"), "x", errors.New("changed")), rateLimited: true},
		"not found: deleted":       {err: apierrors.NewNotFound(workv1.Resource("appliedmanifestworks"), "x")},
		"other errors: backed off": {err: errors.New("unreachable"), wantErr: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			applied := newApplied(ourHub, agentID, nil)
			f := newFixture(t, applied)
			f.spoke.PrependReactor("patch", "appliedmanifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
				return true, nil, tt.err
			})
			syncCtx := newSyncContext(applied.Name)

			err := f.c.sync(t.Context(), syncCtx)

			assert.Equal(t, tt.wantErr, err != nil, "error: %v", err)
			if tt.rateLimited {
				assert.Equal(t, []string{applied.Name}, syncCtx.queue.rateLimited)
			} else {
				assert.Empty(t, syncCtx.queue.rateLimited)
			}
			assert.Empty(t, syncCtx.queue.after)
		})
	}
}
