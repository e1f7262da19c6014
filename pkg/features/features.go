// Package features declares the feature gates of the work agent and the work hub.
//
// Each subcommand owns its own gate, built fresh by NewAgentFeatureGate or
// NewHubFeatureGate, set from --feature-gates, and handed to the code that needs
// it. There is deliberately no package-level mutable gate: tests can build as
// many independent gates as they like.
package features

import (
	"k8s.io/component-base/featuregate"
	logsapi "k8s.io/component-base/logs/api/v1"
)

// Agent feature gates.
const (
	// RawFeedbackJsonString lets a JSONPaths status feedback rule return a
	// non-scalar value as a JSON string (at most --max-json-raw-length bytes).
	RawFeedbackJsonString featuregate.Feature = "RawFeedbackJsonString"

	// ExecutorValidatingCaches caches the results of the executor permission
	// checks (SubjectAccessReviews) on the managed cluster.
	ExecutorValidatingCaches featuregate.Feature = "ExecutorValidatingCaches"
)

// Hub feature gates.
const (
	// NilExecutorValidating makes the hub check a ManifestWork without an
	// executor as if it named the agent's default service account
	// (system:serviceaccount::klusterlet-work-sa).
	NilExecutorValidating featuregate.Feature = "NilExecutorValidating"
)

var agentFeatures = map[featuregate.Feature]featuregate.FeatureSpec{
	RawFeedbackJsonString:    {Default: false, PreRelease: featuregate.Alpha},
	ExecutorValidatingCaches: {Default: false, PreRelease: featuregate.Alpha},
}

var hubFeatures = map[featuregate.Feature]featuregate.FeatureSpec{
	NilExecutorValidating: {Default: false, PreRelease: featuregate.Alpha},
}

// NewAgentFeatureGate returns a gate knowing the agent features and the
// component-base logging features (so --feature-gates=LoggingAlphaOptions=true works).
func NewAgentFeatureGate() featuregate.MutableVersionedFeatureGate {
	return newGate(agentFeatures)
}

// NewHubFeatureGate returns a gate knowing the hub features and the
// component-base logging features.
func NewHubFeatureGate() featuregate.MutableVersionedFeatureGate {
	return newGate(hubFeatures)
}

func newGate(specs map[featuregate.Feature]featuregate.FeatureSpec) featuregate.MutableVersionedFeatureGate {
	gate := featuregate.NewFeatureGate()
	// Both calls only fail on a duplicate or conflicting name, which is a
	// programming error caught by the package tests.
	if err := gate.Add(specs); err != nil {
		panic(err)
	}
	if err := logsapi.AddFeatureGates(gate); err != nil {
		panic(err)
	}
	return gate
}
