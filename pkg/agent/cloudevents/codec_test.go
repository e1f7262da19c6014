package cloudevents

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// Every field a spec event carries survives into the work the agent
// applies, those newer than OCM v1.0's api module included.
func TestSpecFieldsSurvive(t *testing.T) {
	config := fixture.WithConditionRules(fixture.WithStrategy(fixture.Config("apps", "deployments", "default", "web"), workv1.UpdateStrategyTypeServerSideApply),
		fixture.CELRule("Ready", "object.status.readyReplicas > 0"))
	config.UpdateStrategy.ServerSideApply = &workv1.ServerSideApplyConfig{
		FieldManager: "mine", Force: true,
		IgnoreFields: []workv1.IgnoreField{{Condition: workv1.IgnoreFieldsConditionOnSpokeChange, JSONPaths: []string{".spec.replicas"}}},
	}
	config.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.WellKnownStatusType}}
	config.FeedbackScrapeType = workv1.FeedbackWatchType
	w := fixture.NewWork(cluster, "web").WithUID("uid-1").WithManifest(fixture.Deployment("default", "web", 1)).
		WithConfig(config).WithDeleteOption(fixture.OrphanAll()).WithExecutor("default", "deployer").Build()
	w.Labels = map[string]string{"app": "web"}
	w.Annotations = map[string]string{"note": "n"}

	s, err := decodeSpec(fixture.SpecEvent(source, fixture.SpecCreateType, w, 7))
	require.NoError(t, err)
	require.NoError(t, s.Invalid)
	assert.Equal(t, w.Spec, s.Work.Spec)
	assert.Equal(t, int64(7), s.Work.Generation)
	assert.Equal(t, "web", s.MetaName)
	assert.Equal(t, "web", s.Work.Labels["app"])
	assert.Equal(t, "n", s.Work.Annotations["note"])
}
