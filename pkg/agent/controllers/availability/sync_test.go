package availability

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/queuekeys"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

// withLister gives the harness's controller a work cache holding works.
func (f *harness) withLister(t *testing.T, works ...*workv1.ManifestWork) {
	t.Helper()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, w := range works {
		require.NoError(t, indexer.Add(w))
	}
	f.c.works = worklisters.NewManifestWorkLister(indexer).ManifestWorks(fixture.Cluster)
}

func TestSyncSchedulesTheNextCheck(t *testing.T) {
	work := newWork(nil, manifest(meta(0, cm), applied, available))
	f := newHarness(work, cached())
	f.withLister(t, work)
	key := fixture.Cluster + "/" + workName
	next := func() time.Duration {
		t.Helper()
		syncCtx := ct.NewSyncContext(key)
		require.NoError(t, f.c.sync(t.Context(), syncCtx))
		assert.Empty(t, syncCtx.Q.RateLimited)
		d, ok := syncCtx.Q.Delay(key)
		require.True(t, ok, "no next check scheduled")
		return d
	}
	safetyNet := func(d time.Duration) {
		t.Helper()
		assert.InDelta(t, resyncInterval, d, float64(resyncInterval)*jitterFactor+1)
	}

	// While the object is missing the rechecks back off, from a second up.
	assert.Equal(t, recheckFirst, next())
	assert.Equal(t, 2*recheckFirst, next())
	assert.Equal(t, 4*recheckFirst, next())
	for range 10 {
		next()
	}
	assert.Equal(t, recheckMax, next())

	// Once it is back, only the safety net, and the backoff starts over.
	f.cache.objects[cm] = true
	safetyNet(next())
	safetyNet(next())
	delete(f.cache.objects, cm)
	assert.Equal(t, recheckFirst, next())

	// A deleted work is forgotten.
	f.withLister(t)
	require.NoError(t, f.c.sync(t.Context(), ct.NewSyncContext(key)))
	assert.Zero(t, f.c.Assessor.rechecks.NumRequeues(key))
}

func TestSyncOfAWorkBeingDeleted(t *testing.T) {
	work := newWork(nil, manifest(meta(0, cm), applied))
	work.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	f := newHarness(work, cached())
	f.withLister(t, work)
	syncCtx := ct.NewSyncContext(fixture.Cluster + "/" + workName)

	require.NoError(t, f.c.sync(t.Context(), syncCtx))

	assert.Empty(t, syncCtx.Q.Added, "the finalize controller owns it now")
	assert.Empty(t, f.hub.Actions())
}

func TestSyncOfAWorkThatIsGone(t *testing.T) {
	work := newWork(nil, manifest(meta(0, cm), applied))
	f := newHarness(work, cached(cm))
	f.withLister(t)
	syncCtx := ct.NewSyncContext(fixture.Cluster + "/" + workName)

	require.NoError(t, f.c.sync(t.Context(), syncCtx))

	assert.Empty(t, syncCtx.Q.Added, "no more checks")
	assert.Empty(t, f.hub.Actions())
}

func TestSyncRequeuesOnConflict(t *testing.T) {
	tests := map[string]struct {
		err        error
		wantErr    bool
		retryLater bool
	}{
		"conflict: checked again later": {err: apierrors.NewConflict(workv1.Resource("manifestworks"), workName, errors.New("changed")), retryLater: true},
		"not found: deleted":            {err: apierrors.NewNotFound(workv1.Resource("manifestworks"), workName)},
		"other errors: backed off":      {err: errors.New("hub unreachable"), wantErr: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			work := newWork(nil, manifest(meta(0, cm), applied))
			f := newHarness(work, cached(cm))
			f.withLister(t, work)
			f.hub.PrependReactor("patch", "manifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
				return true, nil, tt.err
			})
			syncCtx := ct.NewSyncContext(fixture.Cluster + "/" + workName)

			err := f.c.sync(t.Context(), syncCtx)

			assert.Equal(t, tt.wantErr, err != nil, "error: %v", err)
			assert.Empty(t, syncCtx.Q.RateLimited, "a rate-limited requeue would come back at once")
			delay, requeued := syncCtx.Q.Delay(syncCtx.Key)
			assert.Equal(t, tt.retryLater, requeued)
			if tt.retryLater {
				assert.GreaterOrEqual(t, delay, queuekeys.ConflictRetry)
			}
		})
	}
}
