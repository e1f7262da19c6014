package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The rollout strategy has the wire schema of OCM's RolloutStrategy
// (cluster.open-cluster-management.io/v1alpha1), which OCM's workload APIs
// share. Only ManifestWorkReplicaSet uses it here, so it lives beside it.

// RolloutType is how the clusters of a Placement receive a change.
type RolloutType string

const (
	// All gives every selected cluster the change at once.
	All RolloutType = "All"
	// Progressive gives it to a bounded number of clusters at a time.
	Progressive RolloutType = "Progressive"
	// ProgressivePerGroup gives it to one decision group at a time.
	ProgressivePerGroup RolloutType = "ProgressivePerGroup"
)

// RolloutStrategy is a rollout type and the settings of that type.
type RolloutStrategy struct {
	// Type is All (the default), Progressive or ProgressivePerGroup.
	// +kubebuilder:validation:Enum=All;Progressive;ProgressivePerGroup
	// +kubebuilder:default=All
	// +optional
	Type RolloutType `json:"type,omitempty"`

	// All holds the settings of type All.
	// +optional
	All *RolloutAll `json:"all,omitempty"`

	// Progressive holds the settings of type Progressive.
	// +optional
	Progressive *RolloutProgressive `json:"progressive,omitempty"`

	// ProgressivePerGroup holds the settings of type ProgressivePerGroup.
	// +optional
	ProgressivePerGroup *RolloutProgressivePerGroup `json:"progressivePerGroup,omitempty"`
}

// RolloutConfig are the timing and failure settings every type has.
type RolloutConfig struct {
	// MinSuccessTime is how long a step waits, from its start, before the
	// next one begins, once its clusters have succeeded. Only Progressive and
	// ProgressivePerGroup use it. "0" (the default) waits for nothing more.
	// +kubebuilder:default="0"
	// +optional
	MinSuccessTime metav1.Duration `json:"minSuccessTime,omitempty"`

	// ProgressDeadline is how long a cluster may take to succeed before it
	// counts as failed ("90s", "10m", "2h"). "None" (the default) waits forever.
	// +kubebuilder:validation:Pattern=`^(([0-9])+[h|m|s])|None$`
	// +kubebuilder:default=None
	// +optional
	ProgressDeadline string `json:"progressDeadline,omitempty"`

	// MaxFailures is how many clusters of the current step, as a count or a
	// percentage, may fail before the rollout stops. Progressive counts it
	// over all clusters, ProgressivePerGroup over the current group; mandatory
	// groups allow none. The default is 0.
	// +kubebuilder:validation:Pattern=`^((100|[0-9]{1,2})%|[0-9]+)$`
	// +kubebuilder:validation:XIntOrString
	// +kubebuilder:default=0
	// +optional
	MaxFailures intstr.IntOrString `json:"maxFailures,omitempty"`
}

// MandatoryDecisionGroup names a decision group of a Placement, by name
// (checked first) or by index.
type MandatoryDecisionGroup struct {
	// GroupName matches the label cluster.open-cluster-management.io/decision-group-name
	// of the PlacementDecisions.
	// +optional
	GroupName string `json:"groupName,omitempty"`

	// GroupIndex matches the label cluster.open-cluster-management.io/decision-group-index
	// of the PlacementDecisions.
	// +optional
	GroupIndex int32 `json:"groupIndex,omitempty"`
}

// MandatoryDecisionGroups are rolled out first, and none of their clusters may fail.
type MandatoryDecisionGroups struct {
	// MandatoryDecisionGroups lists the groups, each by name or index.
	// +optional
	MandatoryDecisionGroups []MandatoryDecisionGroup `json:"mandatoryDecisionGroups,omitempty"`
}

// RolloutAll are the settings of type All.
type RolloutAll struct {
	// +optional
	RolloutConfig `json:",inline"`
}

// RolloutProgressive are the settings of type Progressive.
type RolloutProgressive struct {
	// +optional
	RolloutConfig `json:",inline"`

	// +optional
	MandatoryDecisionGroups `json:",inline"`

	// MaxConcurrency is how many clusters, as a count or a percentage of the
	// selected clusters, get the change at a time. Unset, it is the
	// Placement's clustersPerDecisionGroup.
	// +kubebuilder:validation:Pattern=`^((100|[0-9]{1,2})%|[0-9]+)$`
	// +kubebuilder:validation:XIntOrString
	// +optional
	MaxConcurrency intstr.IntOrString `json:"maxConcurrency,omitempty"`
}

// RolloutProgressivePerGroup are the settings of type ProgressivePerGroup.
type RolloutProgressivePerGroup struct {
	// +optional
	RolloutConfig `json:",inline"`

	// +optional
	MandatoryDecisionGroups `json:",inline"`
}
