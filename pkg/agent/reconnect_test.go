package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
)

// When a cluster answers again, what failed meanwhile in the shared queues
// is retried at once, and nothing else is queued.
func TestRetryFailedInSharedQueues(t *testing.T) {
	works := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	applied := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, name := range []string{"failed", "fine"} {
		require.NoError(t, works.Add(&workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Namespace: "cluster1", Name: name}}))
		require.NoError(t, applied.Add(&workv1.AppliedManifestWork{ObjectMeta: metav1.ObjectMeta{Name: "hash-" + name}}))
	}
	q := newQueues(record.NewFakeRecorder(10))
	for range 10 {
		q.available.Queue().AddRateLimited("cluster1/failed")
		q.done.Queue().AddRateLimited("hash-failed")
	}

	q.retryFailed(worklisters.NewManifestWorkLister(works).ManifestWorks("cluster1"), worklisters.NewAppliedManifestWorkLister(applied))()

	assert.Equal(t, 1, q.available.Queue().Len(), "the failed work is queued at once, the fine one is not")
	assert.Equal(t, 1, q.done.Queue().Len(), "the failed AppliedManifestWork is queued at once, the fine one is not")
	assert.Zero(t, q.available.Queue().NumRequeues("cluster1/failed"), "backoff forgotten")
	assert.Zero(t, q.done.Queue().NumRequeues("hash-failed"), "backoff forgotten")
	assert.Zero(t, q.record.Queue().Len(), "nothing failed there")
}
