package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PlacementDecision holds some of the clusters a Placement selected. A
// Placement's decisions may span several PlacementDecisions, found by the
// label PlacementLabel; each belongs to one decision group.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced
// +kubebuilder:subresource:status
type PlacementDecision struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Status holds the decisions.
	// +optional
	Status PlacementDecisionStatus `json:"status,omitempty"`
}

// Labels of a PlacementDecision.
const (
	// PlacementLabel names the Placement the decisions belong to.
	PlacementLabel = "cluster.open-cluster-management.io/placement"
	// DecisionGroupIndexLabel is the index of the decisions' group.
	DecisionGroupIndexLabel = "cluster.open-cluster-management.io/decision-group-index"
	// DecisionGroupNameLabel is the name of the decisions' group, if it has one.
	DecisionGroupNameLabel = "cluster.open-cluster-management.io/decision-group-name"
)

// PlacementDecisionStatus lists selected clusters.
type PlacementDecisionStatus struct {
	// Decisions are the selected clusters, each at most once per Placement.
	// +kubebuilder:validation:Required
	// +required
	Decisions []ClusterDecision `json:"decisions"`
}

// ClusterDecision is one selected cluster.
type ClusterDecision struct {
	// ClusterName is the ManagedCluster's name (its namespace on the hub).
	// +kubebuilder:validation:Required
	// +required
	ClusterName string `json:"clusterName"`

	// Reason says why the cluster was selected.
	// +kubebuilder:validation:Required
	// +required
	Reason string `json:"reason"`

	// Score is the cluster's score under the Placement's prioritizers.
	// +optional
	Score int64 `json:"score,omitzero"`
}

// PlacementDecisionList is a list of PlacementDecisions.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type PlacementDecisionList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []PlacementDecision `json:"items"`
}
