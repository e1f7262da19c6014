package v1

// Finalizers.
const (
	// ManifestWorkFinalizer keeps a ManifestWork until the agent has cleaned up
	// what it applied.
	ManifestWorkFinalizer = "cluster.open-cluster-management.io/manifest-work-cleanup"
	// AppliedManifestWorkFinalizer keeps an AppliedManifestWork until its
	// applied resources are really gone.
	AppliedManifestWorkFinalizer = "cluster.open-cluster-management.io/applied-manifest-work-cleanup"
)

// Annotations on applied objects.
const (
	// ObjectHashAnnotation is the hash of the spec the agent applied.
	ObjectHashAnnotation = "open-cluster-management.io/object-hash"
	// ConfigSpecHashAnnotation is the hash of the manifestConfig used for server-side apply.
	ConfigSpecHashAnnotation = "open-cluster-management.io/config-spec-hash"
)

// AggregateToWorkLabel marks ClusterRoles aggregated into the agent's role on
// the managed cluster.
const AggregateToWorkLabel = "open-cluster-management.io/aggregate-to-work"

// Condition types of a work and of its manifests.
const (
	WorkApplied     = "Applied"
	WorkAvailable   = "Available"
	WorkProgressing = "Progressing"
	WorkDegraded    = "Degraded"
	WorkComplete    = "Complete"
	WorkDeleting    = "Deleting"

	ManifestApplied              = "Applied"
	ManifestAvailable            = "Available"
	ManifestProgressing          = "Progressing"
	ManifestDegraded             = "Degraded"
	ManifestComplete             = "Complete"
	ManifestStatusFeedbackSynced = "StatusFeedbackSynced"
)

// Reasons of work-level conditions.
const (
	WorkAppliedReasonComplete = "AppliedManifestWorkComplete"
	WorkAppliedReasonFailed   = "AppliedManifestWorkFailed"

	WorkAvailableReasonAvailable    = "ResourcesAvailable"
	WorkAvailableReasonNotAvailable = "ResourcesNotAvailable"
	WorkAvailableReasonUnknown      = "ResourcesStatusUnknown"

	WorkProgressingReasonApplying  = "Applying"
	WorkProgressingReasonCompleted = "Completed"
	WorkProgressingReasonFailed    = "Failed"

	// ConditionRulesAggregated is the reason of work-level conditions
	// aggregated from manifest condition rules, Complete among them.
	ConditionRulesAggregated = "ConditionRulesAggregated"
)

// Reasons of manifest-level conditions.
const (
	ManifestAppliedReasonComplete      = "AppliedManifestComplete"
	ManifestAppliedReasonFailed        = "AppliedManifestFailed"
	ManifestAppliedReasonSSAIgnoreFail = "AppliedManifestSSAIgnoreFieldError"

	ManifestAvailableReasonAvailable          = "ResourceAvailable"
	ManifestAvailableReasonNotAvailable       = "ResourceNotAvailable"
	ManifestAvailableReasonFetchFailed        = "FetchingResourceFailed"
	ManifestAvailableReasonIncompleteResource = "IncompleteResourceMeta"

	StatusFeedbackSyncedReasonSynced   = "StatusFeedbackSynced"
	StatusFeedbackSyncedReasonFailed   = "StatusFeedbackSyncFailed"
	StatusFeedbackSyncedReasonNoValues = "NoStatusFeedbackSynced"

	ConditionRuleEvaluated       = "ConditionRuleEvaluated"
	ConditionRuleInvalid         = "ConditionRuleInvalid"
	ConditionRuleExpressionError = "ConditionRuleExpressionError"
	ConditionRuleInternalError   = "ConditionRuleInternalError"
)

// Messages that users see in the documentation and in status.
const (
	WorkAppliedMessageComplete        = "Apply manifest work complete"
	WorkAvailableMessageAvailable     = "All resources are available"
	ManifestAppliedMessageComplete    = "Apply manifest complete"
	ManifestAvailableMessageAvailable = "Resource is available"
)
