package feedback

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// A work has rules, for the status feedback controller and not the
// availability one, when the config of a manifest of its status has
// feedback or condition rules; a config that matches no manifest of the
// status, or only sets a strategy, counts for nothing.
func TestWorkHasRules(t *testing.T) {
	cm := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	config := fixture.Config("", "configmaps", "default", "cm")
	withFeedback := config
	withFeedback.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	otherObject := fixture.Config("", "configmaps", "default", "other")
	otherObject.FeedbackRules = withFeedback.FeedbackRules
	tests := []struct {
		name        string
		config      *workv1.ManifestConfigOption
		configRules bool // ConfigHasRules
		want        bool // WorkHasRules
	}{
		{"no config", nil, false, false},
		{"a strategy only", new(fixture.WithStrategy(config, workv1.UpdateStrategyTypeServerSideApply)), false, false},
		{"feedback rules", &withFeedback, true, true},
		{"condition rules", new(fixture.WithConditionRules(config, fixture.CELRule("Ready", "true"))), true, true},
		{"rules of an object the work does not apply", &otherObject, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := fixture.NewWork(fixture.Cluster, "web").WithManifestStatus(fixture.ManifestStatus(cm, "default", "cm"))
			if tt.config != nil {
				b = b.WithConfig(*tt.config)
			}
			work := b.Build()
			assert.Equal(t, tt.configRules, ConfigHasRules(tt.config), "the config")
			assert.Equal(t, tt.want, WorkHasRules(work), "the work")
		})
	}
}
