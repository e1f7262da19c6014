// Package features declares the feature gates of the work agent and the work
// hub processes (work hub, work manager, work webhook-server).
//
// Each subcommand owns its own gate, built fresh by NewAgentFeatureGate,
// NewHubFeatureGate or NewManagerFeatureGate, set from --feature-gates, and
// handed to the code that needs it. There is deliberately no package-level
// mutable gate: tests can build as many independent gates as they like.
//
// The gates carry OCM's names, so that the lists OCM's operators pass are
// accepted. A gate of OCM's that this project does not implement is accepted
// too, and reported (Unimplemented) rather than refused: the operators pass
// the same list to every process.
package features

import (
	"slices"

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

// Hub feature gates, which OCM's ClusterManager passes alike to the work
// controller (work manager) and the work webhook (work webhook-server).
const (
	// NilExecutorValidating makes the webhook check a ManifestWork without
	// an executor as if it named the agent's default service account
	// (system:serviceaccount::klusterlet-work-sa).
	NilExecutorValidating featuregate.Feature = "NilExecutorValidating"

	// CleanUpCompletedManifestWork deletes a ManifestWork its
	// deleteOption.ttlSecondsAfterFinished after it completed. On by default
	// in work hub, off by default in work manager, as in OCM.
	CleanUpCompletedManifestWork featuregate.Feature = "CleanUpCompletedManifestWork"

	// ManifestWorkReplicaSet runs the controller of ManifestWorkReplicaSets:
	// one ManifestWork per cluster a Placement selects, rolled out as the
	// replica set's strategy says. On by default in work hub, off by default
	// in work manager, as in OCM; a work manager given no gate at all runs it,
	// as OCM v1.0's (hub.ManagerOptions.ReplicaSetsOn).
	ManifestWorkReplicaSet featuregate.Feature = "ManifestWorkReplicaSet"

	// CloudEventsDrivers is OCM's delivery of works over CloudEvents:
	// accepted, not implemented (only the kube driver is).
	CloudEventsDrivers featuregate.Feature = "CloudEventsDrivers"
)

// unimplemented are OCM's gates that are accepted but not implemented.
var unimplemented = []featuregate.Feature{CloudEventsDrivers}

var agentFeatures = map[featuregate.Feature]featuregate.FeatureSpec{
	RawFeedbackJsonString:    {Default: false, PreRelease: featuregate.Alpha},
	ExecutorValidatingCaches: {Default: false, PreRelease: featuregate.Alpha},
}

// hubFeatures are the hub gates; the process (work hub or work manager)
// sets the defaults of the hub's own controllers.
func hubFeatures(controllersDefault bool) map[featuregate.Feature]featuregate.FeatureSpec {
	return map[featuregate.Feature]featuregate.FeatureSpec{
		NilExecutorValidating:        {Default: false, PreRelease: featuregate.Alpha},
		CleanUpCompletedManifestWork: {Default: controllersDefault, PreRelease: featuregate.Alpha},
		ManifestWorkReplicaSet:       {Default: controllersDefault, PreRelease: featuregate.Alpha},
		CloudEventsDrivers:           {Default: false, PreRelease: featuregate.Alpha},
	}
}

// NewAgentFeatureGate returns a gate knowing the agent features and the
// component-base logging features (so --feature-gates=LoggingAlphaOptions=true works).
func NewAgentFeatureGate() featuregate.MutableVersionedFeatureGate {
	return newGate(agentFeatures)
}

// NewHubFeatureGate returns the gate of work hub and work webhook-server: the
// hub features, CleanUpCompletedManifestWork and ManifestWorkReplicaSet on,
// and the logging features.
func NewHubFeatureGate() featuregate.MutableVersionedFeatureGate {
	return newGate(hubFeatures(true))
}

// NewManagerFeatureGate returns the gate of work manager: the hub features
// with OCM's defaults (CleanUpCompletedManifestWork and ManifestWorkReplicaSet
// off), and the logging features.
func NewManagerFeatureGate() featuregate.MutableVersionedFeatureGate {
	return newGate(hubFeatures(false))
}

// Unimplemented returns the gates that are enabled in gate but that this
// project does not implement, sorted.
func Unimplemented(gate featuregate.FeatureGate) []featuregate.Feature {
	var on []featuregate.Feature
	known := gate.(featuregate.MutableFeatureGate).GetAll()
	for _, f := range unimplemented {
		if _, ok := known[f]; ok && gate.Enabled(f) {
			on = append(on, f)
		}
	}
	slices.Sort(on)
	return on
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
