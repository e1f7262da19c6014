package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// ManifestWorkReplicaSet keeps one ManifestWork, made from a template, in the
// namespace of every cluster that its Placements select. Works of clusters
// that no Placement selects any more are deleted, and so are all its works
// when it is deleted.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=manifestworkreplicasets,shortName=mwrs,scope=Namespaced
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Placement",type=string,JSONPath=`.status.conditions[?(@.type=="PlacementVerified")].reason`
// +kubebuilder:printcolumn:name="Clusters",type=integer,JSONPath=`.status.summary.total`
// +kubebuilder:printcolumn:name="Available",type=integer,JSONPath=`.status.summary.available`
// +kubebuilder:printcolumn:name="Degraded",type=integer,JSONPath=`.status.summary.degraded`
// +kubebuilder:printcolumn:name="RolledOut",type=string,JSONPath=`.status.conditions[?(@.type=="PlacementRolledOut")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type ManifestWorkReplicaSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the work to place and where to place it.
	Spec ManifestWorkReplicaSetSpec `json:"spec,omitempty"`

	// Status is what the controller found and did.
	Status ManifestWorkReplicaSetStatus `json:"status,omitempty"`
}

// ManifestWorkReplicaSetSpec is the template of the works and the Placements
// that choose their clusters.
type ManifestWorkReplicaSetSpec struct {
	// ManifestWorkTemplate is the spec of every ManifestWork made.
	ManifestWorkTemplate workv1.ManifestWorkSpec `json:"manifestWorkTemplate"`

	// PlacementRefs name Placements in the replica set's namespace, each with
	// its rollout strategy. A cluster gets the work if any of them selects it.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:MinItems=1
	// +required
	PlacementRefs []LocalPlacementReference `json:"placementRefs"`

	// CascadeDeletionPolicy is Background (the default: the replica set goes at
	// once, its works after it) or Foreground (the replica set stays until its
	// works are gone).
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:Enum=Background;Foreground
	// +kubebuilder:default=Background
	// +optional
	CascadeDeletionPolicy CascadeDeletionPolicy `json:"cascadeDeletionPolicy,omitempty"`
}

// CascadeDeletionPolicy says when a deleted replica set disappears relative to its works.
type CascadeDeletionPolicy string

const (
	// Background removes the replica set without waiting for its works.
	Background CascadeDeletionPolicy = "Background"
	// Foreground keeps the replica set until all its works are gone.
	Foreground CascadeDeletionPolicy = "Foreground"
)

// LocalPlacementReference names a Placement in the replica set's namespace.
type LocalPlacementReference struct {
	// Name is the Placement's name.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:MinLength=1
	// +required
	Name string `json:"name"`

	// RolloutStrategy paces the clusters of this Placement.
	// +kubebuilder:default={type: All, all: {progressDeadline: None}}
	// +optional
	RolloutStrategy RolloutStrategy `json:"rolloutStrategy"`
}

// ManifestWorkReplicaSetStatus is written by the controller only.
type ManifestWorkReplicaSetStatus struct {
	// Conditions: PlacementVerified, PlacementRolledOut and ManifestworkApplied.
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// Summary counts the works of all placements.
	Summary ManifestWorkReplicaSetSummary `json:"summary"`

	// PlacementsSummary has one entry per placementRef.
	PlacementsSummary []PlacementSummary `json:"placementSummary"`
}

// PlacementSummary is the state of the works of one placementRef.
type PlacementSummary struct {
	// Name is the Placement's name.
	Name string `json:"name"`

	// AvailableDecisionGroups reads "<n>/<m>": n of the Placement's m decision
	// groups have every work available.
	AvailableDecisionGroups string `json:"availableDecisionGroups"`

	// Summary counts the works of this placement.
	Summary ManifestWorkReplicaSetSummary `json:"summary"`
}

// ManifestWorkReplicaSetSummary counts works by their conditions.
type ManifestWorkReplicaSetSummary struct {
	// Total is the number of works that exist.
	Total int `json:"total"`
	// Progressing is the number of works with Progressing=True.
	Progressing int `json:"progressing"`
	// Available is the number of works with Available=True.
	Available int `json:"available"`
	// Degraded is the number of works with Degraded=True.
	Degraded int `json:"degraded"`
	// Applied is the number of works with Applied=True. Its key is "applied";
	// OCM v1.0's schema spelled it "Applied", a key this schema drops.
	Applied int `json:"applied"`
	// DesiredTotal is the number of works the placements call for.
	DesiredTotal int `json:"desiredTotal"`
	// Updated is the number of clusters whose work has the current template.
	Updated int `json:"updated"`
}

// ManifestWorkReplicaSetList is a list of ManifestWorkReplicaSets.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type ManifestWorkReplicaSetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []ManifestWorkReplicaSet `json:"items"`
}
