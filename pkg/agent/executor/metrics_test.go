package executor_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/manifestwork/work/pkg/agent/executor/executortest"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/test/fixture"
)

func reviews(t *testing.T, result string) float64 {
	return ct.CounterValue(t, metrics.SubjectAccessReviews.WithLabelValues(result))
}

func cacheHits(t *testing.T) float64 {
	return ct.CounterValue(t, metrics.ExecutorCacheHits)
}

// Every review sent is counted by its answer; a decision from the cache is
// counted as a hit, and sends none.
func TestReviewsAndCacheHitsAreCounted(t *testing.T) {
	metrics.Register()
	ctx := context.Background()
	rbac := executortest.NewRBAC()
	a := rbac.Authorizer(true)
	denied, allowed, hits := reviews(t, metrics.ReviewDenied), reviews(t, metrics.ReviewAllowed), cacheHits(t)

	cm := toUnstructured(t, fixture.ConfigMap("team", "settings", nil))
	readOnly := workv1.UpdateStrategyTypeReadOnly // one review: get
	require.Error(t, a.MayApply(ctx, executorOf(t), configMaps, cm, readOnly, false))
	assert.Equal(t, denied+1, reviews(t, metrics.ReviewDenied))
	require.Error(t, a.MayApply(ctx, executorOf(t), configMaps, cm, readOnly, false))
	assert.Equal(t, denied+1, reviews(t, metrics.ReviewDenied), "from the cache")
	assert.Equal(t, hits+1, cacheHits(t))

	rbac.Grant(executor1, "get", "", "configmaps")
	a.Invalidate(executor1)
	require.NoError(t, a.MayApply(ctx, executorOf(t), configMaps, cm, readOnly, false))
	assert.Equal(t, allowed+1, reviews(t, metrics.ReviewAllowed))
	assert.Equal(t, 2, rbac.Reviews())
}
