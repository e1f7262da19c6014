package health

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// The work's Available aggregates its manifests' as OCM's agent does, with
// its reasons and messages.
func TestWorkAvailableAsOCM(t *testing.T) {
	const generation = 3
	available := ManifestAvailable(generation)
	unknown := metav1.Condition{Type: workv1.ManifestAvailable, Status: metav1.ConditionUnknown, Reason: workv1.ManifestAvailableReasonFetchFailed}
	notAvailable := metav1.Condition{Type: workv1.ManifestAvailable, Status: metav1.ConditionFalse, Reason: workv1.ManifestAvailableReasonNotAvailable}
	tests := []struct {
		name       string
		manifests  []metav1.Condition
		want       metav1.ConditionStatus
		wantReason string
		wantMsg    string
	}{
		{"all available", []metav1.Condition{available, available}, metav1.ConditionTrue,
			workv1.WorkAvailableReasonAvailable, "All resources are available"},
		{"not available wins over unknown", []metav1.Condition{available, unknown, notAvailable}, metav1.ConditionFalse,
			workv1.WorkAvailableReasonNotAvailable, "1 of 3 resources are not available"},
		{"unknown wins over available", []metav1.Condition{unknown, available, unknown}, metav1.ConditionUnknown,
			workv1.WorkAvailableReasonUnknown, "2 of 3 resources have unknown status"},
		{"none at all", nil, metav1.ConditionUnknown,
			workv1.WorkAvailableReasonUnknown, "cannot get any available resource "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WorkAvailable(tt.manifests, generation)
			assert.Equal(t, metav1.Condition{Type: workv1.WorkAvailable, Status: tt.want, ObservedGeneration: generation,
				Reason: tt.wantReason, Message: tt.wantMsg}, got)
		})
	}
}

// A manifest whose object exists is Available with OCM's reason and
// message.
func TestManifestAvailableAsOCM(t *testing.T) {
	assert.Equal(t, metav1.Condition{Type: workv1.ManifestAvailable, Status: metav1.ConditionTrue, ObservedGeneration: 2,
		Reason: "ResourceAvailable", Message: "Resource is available"}, ManifestAvailable(2))
}
