package workwriter

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/component-base/metrics/testutil"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/pkg/metrics"
)

// Writes the hub keeps refusing are reported once they have failed for ten
// seconds: one Warning Event per failure, not per retry, and the work is
// counted as failing until a write succeeds; a failure that clears sooner
// reports nothing, and one that comes back starts over.
func TestWritesThatKeepFailing(t *testing.T) {
	forbidden := apierrors.NewForbidden(schema.GroupResource{Group: workv1.GroupName, Resource: "manifestworks"}, "w",
		errors.New("a webhook says no"))
	type step struct {
		at     time.Duration
		refuse bool
		// want after the write: Events recorded by it, and the gauge
		wantEvents []string
		wantGauge  float64
	}
	statusEvent := "Warning " + EventStatusPatchFailing + " The status patches of %s have failed for over 10s; the agent retries: " + forbidden.Error()
	finalizerEvent := "Warning " + EventFinalizerPatchFailing + " The finalizer patches of %s have failed for over 10s; the agent retries: " + forbidden.Error()
	cases := []struct {
		name  string
		write func(*Writer, context.Context, *workv1.ManifestWork) (*workv1.ManifestWork, error)
		event string
		patch string
		steps []step
	}{{
		name:  "status: reported once after ten seconds, cleared by a success",
		write: writeDeleting, event: statusEvent, patch: metrics.PatchStatus,
		steps: []step{
			{at: 0, refuse: true},
			{at: 5 * time.Second, refuse: true},
			{at: 10 * time.Second, refuse: true, wantEvents: []string{statusEvent}, wantGauge: 1},
			{at: 30 * time.Second, refuse: true, wantGauge: 1},
			{at: 31 * time.Second},
			{at: 40 * time.Second, refuse: true},
			{at: 49 * time.Second, refuse: true},
			{at: 50 * time.Second, refuse: true, wantEvents: []string{statusEvent}, wantGauge: 1},
		},
	}, {
		name:  "status: a failure that clears within ten seconds reports nothing",
		write: writeDeleting, event: statusEvent, patch: metrics.PatchStatus,
		steps: []step{
			{at: 0, refuse: true},
			{at: 9 * time.Second},
			{at: 10 * time.Second, refuse: true},
			{at: 19 * time.Second, refuse: true},
		},
	}, {
		name:  "finalizer",
		write: (*Writer).RemoveFinalizer, event: finalizerEvent, patch: metrics.PatchFinalizer,
		steps: []step{
			{at: 0, refuse: true},
			{at: 10 * time.Second, refuse: true, wantEvents: []string{finalizerEvent}, wantGauge: 1},
			{at: 11 * time.Second},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			controller := "TestWritesThatKeepFailing/" + tc.name
			hub := newHub(t, stored())
			refuse := false
			hub.PrependReactor("patch", "manifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
				return refuse, nil, forbidden
			})
			events := record.NewFakeRecorder(10)
			w := New(Shared{Client: hub, Events: events}, controller, Plain)
			t0, at := time.Unix(1000, 0), time.Duration(0)
			w.now = func() time.Time { return t0.Add(at) }
			for _, s := range tc.steps {
				at, refuse = s.at, s.refuse
				_, err := tc.write(w, context.Background(), stored())
				assert.Equal(t, s.refuse, err != nil, "at %s: %v", s.at, err)
				var want []string
				for _, e := range s.wantEvents {
					want = append(want, fmt.Sprintf(e, controller))
				}
				assert.Equal(t, want, ct.Recorded(events), "at %s", s.at)
				assert.Equal(t, s.wantGauge, failing(t, controller, tc.patch), "at %s", s.at)
			}
		})
	}
}

// A work that is gone is no longer counted as failing.
func TestForgetClearsFailing(t *testing.T) {
	const controller = "TestForgetClearsFailing"
	hub := newHub(t, stored())
	hub.PrependReactor("patch", "manifestworks", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewInternalError(errors.New("boom"))
	})
	w := New(Shared{Client: hub}, controller, Plain)
	t0, at := time.Unix(1000, 0), time.Duration(0)
	w.now = func() time.Time { return t0.Add(at) }
	for _, at = range []time.Duration{0, 10 * time.Second} {
		_, err := writeDeleting(w, context.Background(), stored())
		require.Error(t, err)
	}
	assert.Equal(t, 1.0, failing(t, controller, metrics.PatchStatus))
	w.Forget(key)
	assert.Zero(t, failing(t, controller, metrics.PatchStatus))
}

// failing is the gauge of the controller's works whose patches keep failing.
func failing(t *testing.T, controller, patch string) float64 {
	t.Helper()
	v, err := testutil.GetGaugeMetricValue(metrics.PatchesFailing.WithLabelValues(controller, patch))
	require.NoError(t, err)
	return v
}

func writeDeleting(w *Writer, ctx context.Context, work *workv1.ManifestWork) (*workv1.ManifestWork, error) {
	status := *work.Status.DeepCopy()
	status.Conditions = append(status.Conditions, condition(workv1.WorkDeleting, "WorkDeleting"))
	return w.Status(ctx, work, status)
}
