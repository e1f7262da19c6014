package metrics

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/component-base/metrics/testutil"
)

func TestMain(m *testing.M) {
	Register()
	m.Run()
}

func counter(t *testing.T, controller, result string) float64 {
	t.Helper()
	v, err := testutil.GetCounterMetricValue(Reconciles.WithLabelValues(controller, result))
	require.NoError(t, err)
	return v
}

func TestInstrumentSyncCountsByResultAndTimes(t *testing.T) {
	const controller = "TestController"
	fail := errors.New("boom")
	results := []error{nil, fail, nil, factory.SyntheticRequeueError}
	calls := 0
	sync := InstrumentSync(controller, func(context.Context, factory.SyncContext) error {
		err := results[calls]
		calls++
		return err
	})

	for _, want := range results {
		assert.Equal(t, want, sync(context.Background(), nil), "the sync's error is passed on unchanged")
	}

	assert.Equal(t, 4, calls)
	assert.Equal(t, 3.0, counter(t, controller, Success), "a requested requeue is not a failure")
	assert.Equal(t, 1.0, counter(t, controller, Error))
	n, err := testutil.GetHistogramMetricCount(ReconcileDuration.WithLabelValues(controller))
	require.NoError(t, err)
	assert.Equal(t, uint64(4), n, "every call is timed")
}

// The registry, as /metrics serves it, has the work metrics with their
// labels, and the workqueue metrics of a named queue.
func TestRegistryServesWorkAndQueueMetrics(t *testing.T) {
	ManifestApplies.WithLabelValues("ServerSideApply", ApplyWritten).Inc()
	StatusPatches.WithLabelValues("TestController", PatchSkipped).Inc()
	FinalizerPatches.WithLabelValues("TestController", FinalizerAdd, PatchSent).Inc()
	FeedbackWatches.Set(2)
	ReplicaSetRollouts.WithLabelValues(RolloutPaused).Add(1)
	ReplicaSetClusters.WithLabelValues(ClusterDrifted).Add(3)
	queue := workqueue.NewNamedRateLimitingQueue(workqueue.DefaultControllerRateLimiter(), "TestQueue")
	defer queue.ShutDown()
	queue.Add("a")
	queue.Add("b")

	rec := httptest.NewRecorder()
	legacyregistry.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, line := range []string{
		`work_manifest_applies_total{result="written",strategy="ServerSideApply"} 1`,
		`work_status_patches_total{controller="TestController",result="skipped"} 1`,
		`work_finalizer_patches_total{action="add",controller="TestController",result="sent"} 1`,
		`work_feedback_watches 2`,
		`work_replicaset_rollouts{state="paused"} 1`,
		`work_replicaset_clusters{state="drifted"} 3`,
		`workqueue_depth{name="TestQueue"} 2`,
		`workqueue_adds_total{name="TestQueue"} 2`,
	} {
		assert.Contains(t, body, "\n"+line+"\n")
	}
}

// Register may be called by every Run of a process (tests run several).
func TestRegisterTwice(t *testing.T) {
	assert.NotPanics(t, Register)
}

// Names names every registered metric once, as /metrics serves it.
func TestNames(t *testing.T) {
	names := Names()
	assert.Contains(t, names, "work_manifest_applies_total")
	assert.Contains(t, names, "work_cluster_unreachable")
	for _, name := range names {
		assert.Regexp(t, `^work_[a-z_]+[a-z]$`, name, "the full name, with its namespace")
	}
	assert.ElementsMatch(t, slices.Compact(slices.Sorted(slices.Values(names))), names, "no name twice")
}
