package health

import (
	"testing"

	"github.com/stretchr/testify/assert"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// A rule overrides a manifest's Healthy when the configuration the
// manifestConfigs give the manifest, globs and merging included, has one.
func TestOverridden(t *testing.T) {
	rule := func(c workv1.ManifestConfigOption, condition string) workv1.ManifestConfigOption {
		return fixture.WithConditionRules(c, fixture.CELRule(condition, "true"))
	}
	wellKnown := func(c workv1.ManifestConfigOption, condition string) workv1.ManifestConfigOption {
		return fixture.WithConditionRules(c, workv1.ConditionRule{Type: workv1.WellKnownConditionsType, Condition: condition})
	}
	web := workv1.ManifestResourceMeta{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "team", Name: "web"}
	tests := []struct {
		name    string
		configs []workv1.ManifestConfigOption
		want    bool
	}{
		{name: "no config"},
		{name: "exact", configs: []workv1.ManifestConfigOption{rule(fixture.Config("apps", "deployments", "team", "web"), workv1.ManifestHealthy)}, want: true},
		{name: "glob", configs: []workv1.ManifestConfigOption{rule(fixture.Config("apps", "deployments", "*", "w*"), workv1.ManifestHealthy)}, want: true},
		{name: "another object", configs: []workv1.ManifestConfigOption{rule(fixture.Config("apps", "deployments", "*", "db"), workv1.ManifestHealthy)}},
		{name: "the first rules that match win", configs: []workv1.ManifestConfigOption{
			rule(fixture.Config("apps", "deployments", "*", "*"), workv1.ManifestComplete),
			rule(fixture.Config("apps", "deployments", "team", "web"), workv1.ManifestHealthy),
		}},
		// OCM gives no condition for a well-known rule without a built-in
		// rule, so the built-in health stays.
		{name: "well-known Healthy gives no condition", configs: []workv1.ManifestConfigOption{wellKnown(fixture.Config("apps", "deployments", "team", "web"), workv1.ManifestHealthy)}},
		{name: "well-known Healthy next to a CEL one", configs: []workv1.ManifestConfigOption{
			fixture.WithConditionRules(wellKnown(fixture.Config("apps", "deployments", "team", "web"), workv1.ManifestHealthy), fixture.CELRule(workv1.ManifestHealthy, "true")),
		}, want: true},
		{name: "invalid rule of type Healthy", configs: []workv1.ManifestConfigOption{fixture.WithConditionRules(fixture.Config("apps", "deployments", "team", "web"),
			workv1.ConditionRule{Type: "Bogus", Condition: workv1.ManifestHealthy})}, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := fixture.NewWork(fixture.Cluster, "w")
			for _, c := range tt.configs {
				b.WithConfig(c)
			}
			assert.Equal(t, tt.want, Overridden(b.Build(), web))
		})
	}
}
