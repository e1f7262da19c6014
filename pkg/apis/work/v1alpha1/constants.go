package v1alpha1

// Labels on each ManifestWork a replica set makes.
const (
	// ReplicaSetLabel names the owning replica set, as "<namespace>.<name>".
	ReplicaSetLabel = "work.open-cluster-management.io/manifestworkreplicaset"
	// PlacementNameLabel names the Placement that selected the work's cluster.
	PlacementNameLabel = "work.open-cluster-management.io/placementname"
)

// ReplicaSetFinalizer keeps a replica set until its works are handled.
const ReplicaSetFinalizer = "work.open-cluster-management.io/manifest-work-cleanup"

// Condition types of a replica set.
const (
	// ConditionPlacementVerified is True when the placementRefs select clusters.
	// Reasons: AsExpected, PlacementDecisionNotFound, PlacementDecisionEmpty,
	// NotAsExpected.
	ConditionPlacementVerified = "PlacementVerified"
	// ConditionPlacementRolledOut is True when the rollout has reached every
	// selected cluster. Reasons: Complete, Progressing.
	ConditionPlacementRolledOut = "PlacementRolledOut"
	// ConditionManifestworkApplied is True when every work is available and
	// none is progressing or degraded. Reasons: AsExpected, Processing,
	// NotAsExpected, PlacementDecisionEmpty.
	ConditionManifestworkApplied = "ManifestworkApplied"
)

// Condition reasons of a replica set.
const (
	// ReasonAsExpected: the placements select clusters, or the works are as wanted.
	ReasonAsExpected = "AsExpected"
	// ReasonNotAsExpected: a placement cannot be read, or some works are degraded
	// or not available.
	ReasonNotAsExpected = "NotAsExpected"
	// ReasonProcessing: some works are progressing and none is degraded.
	ReasonProcessing = "Processing"
	// ReasonPlacementDecisionNotFound: a placementRef names no existing Placement.
	ReasonPlacementDecisionNotFound = "PlacementDecisionNotFound"
	// ReasonPlacementDecisionEmpty: the placements select no cluster.
	ReasonPlacementDecisionEmpty = "PlacementDecisionEmpty"
	// ReasonProgressing: the rollout has not reached every selected cluster yet.
	ReasonProgressing = "Progressing"
	// ReasonComplete: the rollout has reached every selected cluster.
	ReasonComplete = "Complete"
)
