package features

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/component-base/featuregate"
)

func TestDefaults(t *testing.T) {
	tests := []struct {
		name    string
		gate    featuregate.FeatureGate
		feature featuregate.Feature
	}{
		{"agent RawFeedbackJsonString", NewAgentFeatureGate(), RawFeedbackJsonString},
		{"agent ExecutorValidatingCaches", NewAgentFeatureGate(), ExecutorValidatingCaches},
		{"hub NilExecutorValidating", NewHubFeatureGate(), NilExecutorValidating},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.False(t, tt.gate.Enabled(tt.feature), "alpha features are off by default")
		})
	}
}

func TestSetFromFlagValue(t *testing.T) {
	gate := NewAgentFeatureGate()
	require.NoError(t, gate.Set("RawFeedbackJsonString=true"))
	assert.True(t, gate.Enabled(RawFeedbackJsonString))
	assert.False(t, gate.Enabled(ExecutorValidatingCaches))
}

func TestGatesAreIndependent(t *testing.T) {
	a, b := NewAgentFeatureGate(), NewAgentFeatureGate()
	require.NoError(t, a.Set("ExecutorValidatingCaches=true"))
	assert.False(t, b.Enabled(ExecutorValidatingCaches))
}

func TestGatesRejectTheOtherSubcommandsFeatures(t *testing.T) {
	assert.Error(t, NewHubFeatureGate().Set("RawFeedbackJsonString=true"))
	assert.Error(t, NewAgentFeatureGate().Set("NilExecutorValidating=true"))
}

// OCM's ClusterManager passes the same gate list to work manager and work
// webhook-server; every name of OCM's is accepted by both.
func TestHubGatesAcceptOCMsNames(t *testing.T) {
	for name, gate := range map[string]featuregate.MutableVersionedFeatureGate{
		"hub": NewHubFeatureGate(), "manager": NewManagerFeatureGate(),
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, gate.Set("NilExecutorValidating=true,ManifestWorkReplicaSet=true,CloudEventsDrivers=true,CleanUpCompletedManifestWork=true"))
			assert.Equal(t, []featuregate.Feature{CloudEventsDrivers}, Unimplemented(gate))
			assert.True(t, gate.Enabled(CleanUpCompletedManifestWork))
			assert.EqualError(t, gate.Set("NoSuchGate=true"), "unrecognized feature gate: NoSuchGate")
		})
	}
}

func TestControllerDefaults(t *testing.T) {
	assert.True(t, NewHubFeatureGate().Enabled(CleanUpCompletedManifestWork), "work hub cleans up by default")
	assert.False(t, NewManagerFeatureGate().Enabled(CleanUpCompletedManifestWork), "work manager as OCM's: off by default")
	assert.True(t, NewHubFeatureGate().Enabled(ManifestWorkReplicaSet), "work hub runs replica sets by default")
	assert.False(t, NewManagerFeatureGate().Enabled(ManifestWorkReplicaSet), "work manager as OCM's: off by default")
}

func TestUnimplementedOnlyWhenEnabled(t *testing.T) {
	assert.Empty(t, Unimplemented(NewManagerFeatureGate()))
	assert.Empty(t, Unimplemented(NewAgentFeatureGate()), "the agent gate knows none of them")
}
