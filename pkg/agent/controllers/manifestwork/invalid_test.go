package manifestwork

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// A manifest the agent cannot apply has the resourceMeta and the Applied
// message OCM's agent gives it: what is known of the object, and the error
// of the step that refused it.
func TestReconcileReportsInvalidManifestsAsOCM(t *testing.T) {
	const noKind = `{"apiVersion":"v1","metadata":{"name":"x","namespace":"team"}}`
	tests := []struct {
		name     string
		raw      string
		configs  []workv1.ManifestConfigOption
		wantMeta workv1.ManifestResourceMeta // but the ordinal
		wantMsg  string                      // after "Failed to apply manifest: "
	}{
		{
			name:     "no name, Update of a kind OCM writes with a typed client",
			raw:      `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "team"}}`,
			wantMeta: workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "team"},
			wantMsg:  "resource name may not be empty",
		},
		{
			name:     "no name, cluster-scoped",
			raw:      `{"apiVersion": "v1", "kind": "Namespace", "metadata": {}}`,
			wantMeta: workv1.ManifestResourceMeta{Version: "v1", Kind: "Namespace", Resource: "namespaces"},
			wantMsg:  "resource name may not be empty",
		},
		{
			name:     "no name, Update of a kind OCM writes with the dynamic client",
			raw:      `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"namespace": "team"}}`,
			wantMeta: workv1.ManifestResourceMeta{Group: "apps", Version: "v1", Kind: "Deployment", Resource: "deployments", Namespace: "team"},
			wantMsg:  "name is required",
		},
		{
			name:     "no name, CreateOnly",
			raw:      `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "team"}}`,
			configs:  []workv1.ManifestConfigOption{fixture.WithStrategy(fixture.Config("", "configmaps", "team", "*"), workv1.UpdateStrategyTypeCreateOnly)},
			wantMeta: workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "team"},
			wantMsg:  "name is required",
		},
		{
			name:     "no name, generateName instead",
			raw:      `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"generateName": "cm-", "namespace": "team"}}`,
			wantMeta: workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: "team"},
			wantMsg:  "resource name may not be empty",
		},
		{
			name:     "no name and no namespace: the name is refused first",
			raw:      `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}}`,
			wantMeta: workv1.ManifestResourceMeta{Version: "v1", Kind: "ConfigMap", Resource: "configmaps"},
			wantMsg:  "resource name may not be empty",
		},
		{
			name:     "no name, a kind the cluster does not serve",
			raw:      `{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"namespace": "team"}}`,
			wantMeta: workv1.ManifestResourceMeta{Group: "example.com", Version: "v1", Kind: "Widget", Namespace: "team"},
			wantMsg:  `the server doesn't have a resource type "Widget"`,
		},
		{
			name:     "a kind the cluster does not serve",
			raw:      `{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "team"}}`,
			wantMeta: workv1.ManifestResourceMeta{Group: "example.com", Version: "v1", Kind: "Widget", Namespace: "team", Name: "w"},
			wantMsg:  `the server doesn't have a resource type "Widget"`,
		},
		{
			name:    "no kind",
			raw:     noKind,
			wantMsg: "Object 'Kind' is missing in '" + noKind + "'",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := fixture.NewWork(fixture.Cluster, "w").WithGeneration(1).
				WithManifest(fixture.ConfigMap("team", "good", nil)).
				WithRawManifest(tt.raw)
			for _, c := range tt.configs {
				b = b.WithConfig(c)
			}
			work := b.Build()
			e := newEnv(t, work)

			require.Error(t, e.c.reconcile(context.Background(), work), "a failing manifest makes the queue retry")

			got := e.work(t).Status.ResourceStatus.Manifests
			require.Len(t, got, 2)
			want := tt.wantMeta
			want.Ordinal = 1
			assert.Equal(t, want, got[1].ResourceMeta)
			applied := apimeta.FindStatusCondition(got[1].Conditions, workv1.ManifestApplied)
			require.NotNil(t, applied)
			assert.Equal(t, metav1.ConditionFalse, applied.Status)
			assert.Equal(t, workv1.ManifestAppliedReasonFailed, applied.Reason)
			assert.Equal(t, workv1.ManifestAppliedMessageFailed+tt.wantMsg, applied.Message)
			assert.True(t, apimeta.IsStatusConditionTrue(got[0].Conditions, workv1.ManifestApplied), "the other manifest is applied")
		})
	}
}
