package workwriter

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// withHealth is the stored work's status with one manifest whose Healthy
// condition has the reason given.
func withHealth(work *workv1.ManifestWork, reason string) workv1.ManifestWorkStatus {
	status := *work.Status.DeepCopy()
	status.ResourceStatus.Manifests = []workv1.ManifestCondition{{
		ResourceMeta: workv1.ManifestResourceMeta{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "ns", Name: "web"},
		Conditions: []metav1.Condition{{Type: workv1.ManifestHealthy, Status: metav1.ConditionFalse, Reason: reason, Message: reason,
			LastTransitionTime: metav1.Unix(1000, 0).Rfc3339Copy()}},
	}}
	if reason == workv1.HealthyReasonHealthy {
		status.ResourceStatus.Manifests[0].Conditions[0].Status = metav1.ConditionTrue
	}
	return status
}

// A paced writer holds the status of a work in transition back for the
// interval, writes it once the interval has passed, and writes a settled
// status at once; the writers sharing a Pacing share its clock.
func TestPacedWriterHoldsTransitionsBack(t *testing.T) {
	const interval = 10 * time.Second
	start := time.Unix(5000, 0)
	steps := []struct {
		name      string
		at        time.Duration // since start
		writer    int           // which of the two paced writers
		reason    string        // of the manifest's Healthy
		message   string        // of the manifest's Healthy, when not its reason
		wantWrite bool
		wantWait  time.Duration
	}{
		{name: "a rollout starts: held back", at: 0, reason: workv1.HealthyReasonProgressing, wantWait: interval},
		{name: "the other writer is held back to the same end", at: 4 * time.Second, writer: 1, reason: workv1.HealthyReasonProgressing, wantWait: 6 * time.Second},
		{name: "the interval is over: written", at: interval, reason: workv1.HealthyReasonProgressing, wantWrite: true},
		{name: "still progressing: a new interval", at: interval + time.Second, writer: 1, reason: workv1.HealthyReasonProgressing, message: "2 of 3", wantWait: 9 * time.Second},
		{name: "settled: written at once", at: interval + 2*time.Second, reason: workv1.HealthyReasonHealthy, wantWrite: true},
		{name: "the next transition starts a new interval", at: interval + 3*time.Second, writer: 1, reason: workv1.HealthyReasonProgressing, wantWait: interval},
	}
	work := stored()
	shared := Shared{Client: newHub(t, work), Pacing: NewPacing(interval)}
	writers := []*Writer{New(shared, "TestPacedA", Paced), New(shared, "TestPacedB", Paced)}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			w := writers[step.writer]
			w.now = func() time.Time { return start.Add(step.at) }
			status := withHealth(work, step.reason)
			if step.message != "" {
				status.ResourceStatus.Manifests[0].Conditions[0].Message = step.message
			}
			updated, err := w.Status(t.Context(), work, status)
			if !step.wantWrite {
				after, ok := IsDeferred(err)
				require.True(t, ok, "held back: %v", err)
				assert.Equal(t, step.wantWait, after)
				assert.Nil(t, updated)
				return
			}
			require.NoError(t, err)
			require.NotNil(t, updated)
			work = updated
		})
	}
}

// An unpaced writer, and a paced one whose Shared has no Pacing, write a
// work in transition at once.
func TestUnpacedWriterWritesTransitions(t *testing.T) {
	for name, w := range map[string]func(Shared) *Writer{
		"unpaced writer":        func(shared Shared) *Writer { return New(shared, "TestUnpaced", Plain) },
		"shared without pacing": func(shared Shared) *Writer { shared.Pacing = nil; return New(shared, "TestUnpaced", Paced) },
	} {
		t.Run(name, func(t *testing.T) {
			work := stored()
			writer := w(Shared{Client: newHub(t, work), Pacing: NewPacing(time.Minute)})
			updated, err := writer.Status(t.Context(), work, withHealth(work, workv1.HealthyReasonProgressing))
			require.NoError(t, err)
			assert.NotNil(t, updated)
		})
	}
}
