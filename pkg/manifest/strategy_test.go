package manifest

import (
	"testing"

	"github.com/stretchr/testify/assert"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func TestStrategyDefaulting(t *testing.T) {
	tests := []struct {
		name   string
		config *workv1.ManifestConfigOption
		want   workv1.UpdateStrategyType
	}{
		{name: "no config", config: nil, want: workv1.UpdateStrategyTypeUpdate},
		{name: "config without a strategy", config: &workv1.ManifestConfigOption{}, want: workv1.UpdateStrategyTypeUpdate},
		{name: "strategy with an empty type", config: &workv1.ManifestConfigOption{UpdateStrategy: &workv1.UpdateStrategy{}}, want: workv1.UpdateStrategyTypeUpdate},
		{name: "CreateOnly", config: &workv1.ManifestConfigOption{UpdateStrategy: &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeCreateOnly}}, want: workv1.UpdateStrategyTypeCreateOnly},
		{name: "ReadOnly", config: &workv1.ManifestConfigOption{UpdateStrategy: &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeReadOnly}}, want: workv1.UpdateStrategyTypeReadOnly},
		{name: "an unknown type is kept for the caller to reject", config: &workv1.ManifestConfigOption{UpdateStrategy: &workv1.UpdateStrategy{Type: "Replace"}}, want: "Replace"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, StrategyOf(tc.config))
			var typ workv1.UpdateStrategyType
			if tc.config != nil && tc.config.UpdateStrategy != nil {
				typ = tc.config.UpdateStrategy.Type
			}
			assert.Equal(t, tc.want, DefaultStrategy(typ), "the type alone defaults the same way")
		})
	}
}
