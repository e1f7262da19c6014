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

	// WorkHealthy and ManifestHealthy are this agent's health of what was
	// applied, beyond OCM's Available (which only says the object exists).
	// They are additive: OCM's clients ignore them, and the Progressing and
	// Degraded types stay free for users' condition rules.
	WorkHealthy     = "Healthy"
	ManifestHealthy = "Healthy"

	// WorkInSync (of a work and of each manifest) says whether the managed
	// cluster holds every field the manifests set; WorkStalled, that applying
	// the work keeps failing. Both are this agent's, and the hub's replica
	// set controller reads them.
	WorkInSync  = "InSync"
	WorkStalled = "Stalled"
)

// Reasons of the Healthy conditions, of a manifest and of a work.
const (
	// HealthyReasonHealthy: the object is as its kind's rule wants it (True).
	HealthyReasonHealthy = "Healthy"
	// HealthyReasonProgressing: not healthy yet, and still moving (False).
	HealthyReasonProgressing = "Progressing"
	// HealthyReasonDegraded: failed, or stuck until someone acts (False).
	HealthyReasonDegraded = "Degraded"
	// HealthyReasonNoHealthCheck: the object exists and its kind has nothing
	// to judge, such as a ConfigMap (True).
	HealthyReasonNoHealthCheck = "NoHealthCheck"
	// HealthyReasonUnknown: the object could not be read (Unknown).
	HealthyReasonUnknown = "HealthUnknown"
)

// Reasons of work-level conditions.
const (
	WorkAppliedReasonComplete = "AppliedManifestWorkComplete"
	WorkAppliedReasonFailed   = "AppliedManifestWorkFailed"

	WorkAvailableReasonAvailable    = "ResourcesAvailable"
	WorkAvailableReasonNotAvailable = "ResourcesNotAvailable"
	WorkAvailableReasonUnknown      = "ResourcesStatusUnknown"

	// Progressing True: some manifest is not applied yet, or fails to apply.
	WorkProgressingReasonApplying = "Applying"
	// Progressing True: every manifest is applied; some is not healthy yet.
	WorkProgressingReasonRollingOut = "RollingOut"
	// Progressing False: every manifest is applied and healthy.
	WorkProgressingReasonCompleted = "Completed"
	// Progressing False, written by earlier versions of this agent while
	// manifests failed to apply; Degraded reports that now.
	WorkProgressingReasonFailed = "Failed"

	// Degraded True: some manifest's Healthy is False with reason Degraded.
	WorkDegradedReasonManifestsDegraded = "ManifestsDegraded"
	// Degraded True: some manifest has failed to apply for a while (see
	// package stalled), and none is Degraded by its health.
	WorkDegradedReasonApplyStalled = "ApplyStalled"
	// Degraded False.
	WorkDegradedReasonAsExpected = "AsExpected"

	// ConditionRulesAggregated is the reason of work-level conditions
	// aggregated from manifest condition rules, Complete among them.
	ConditionRulesAggregated = "ConditionRulesAggregated"
)

// Reasons of manifest-level conditions.
const (
	ManifestAppliedReasonComplete      = "AppliedManifestComplete"
	ManifestAppliedReasonFailed        = "AppliedManifestFailed"
	ManifestAppliedReasonSSAIgnoreFail = "AppliedManifestSSAIgnoreFieldError"

	ManifestAvailableReasonAvailable    = "ResourceAvailable"
	ManifestAvailableReasonNotAvailable = "ResourceNotAvailable"
	ManifestAvailableReasonFetchFailed  = "FetchingResourceFailed"
	// The spelling is OCM's, which clients match on.
	ManifestAvailableReasonIncompleteResource = "IncompletedResourceMeta"

	StatusFeedbackSyncedReasonSynced  = "StatusFeedbackSynced"
	StatusFeedbackSyncedReasonFailed  = "StatusFeedbackSyncFailed"
	StatusFeedbackSyncedReasonNoRules = "NoStatusFeedbackSynced"

	ConditionRuleEvaluated       = "ConditionRuleEvaluated"
	ConditionRuleInvalid         = "ConditionRuleInvalid"
	ConditionRuleExpressionError = "ConditionRuleExpressionError"
	ConditionRuleInternalError   = "ConditionRuleInternalError"
)

// Messages that users see in the documentation and in status: OCM's, which
// clients match on.
const (
	WorkAppliedMessageComplete = "Apply manifest work complete"
	WorkAppliedMessageFailed   = "Failed to apply manifest work"
	// WorkAvailableMessageNoneAvailable ends with a space in OCM too.
	WorkAvailableMessageAvailable     = "All resources are available"
	WorkAvailableMessageNoneAvailable = "cannot get any available resource "
	ManifestAppliedMessageComplete    = "Apply manifest complete"
	// ManifestAppliedMessageFailed prefixes the error.
	ManifestAppliedMessageFailed            = "Failed to apply manifest: "
	ManifestAvailableMessageAvailable       = "Resource is available"
	ManifestAvailableMessageNotAvailable    = "Resource is not available"
	ManifestAvailableMessageIncompleteMeta  = "Resource meta is incompleted"
	ManifestAvailableMessageFetchFailed     = "Failed to fetch resource: "
	StatusFeedbackSyncedMessageFailedPrefix = "Sync status feedback failed with error "
)
