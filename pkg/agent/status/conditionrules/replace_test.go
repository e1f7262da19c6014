package conditionrules

import (
	"testing"

	"github.com/stretchr/testify/assert"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

func TestReplacedByRule(t *testing.T) {
	cm := fixture.Config("", "configmaps", "team", "cm")
	work := fixture.NewWork(fixture.Cluster, "w").
		WithConfig(cm).
		WithConfig(fixture.WithConditionRules(cm, fixture.CELRule(workv1.WorkComplete, "true"))).
		WithConfig(fixture.WithConditionRules(cm, fixture.CELRule(workv1.WorkHealthy, "true"), fixture.CELRule(workv1.WorkDegraded, "false"))).
		Build()
	cases := []struct {
		condition string
		want      bool
	}{
		{workv1.WorkDegraded, true},     // a rule of the type, on the last config
		{workv1.WorkProgressing, false}, // no rule of the type
		{workv1.WorkComplete, false},    // the agent writes no own Complete
		{workv1.WorkHealthy, false},     // a Healthy rule overrides per manifest instead
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, ReplacedByRule(work, tc.condition), tc.condition)
	}
	assert.False(t, ReplacedByRule(fixture.NewWork(fixture.Cluster, "w").Build(), workv1.WorkDegraded))
}
