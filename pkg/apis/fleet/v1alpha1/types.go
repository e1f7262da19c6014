package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// RolloutApproval is the approval one decision group of a
// ManifestWorkReplicaSet waits for before its clusters get one revision.
// The replica set's controller creates it, owned by the replica set, when
// the rollout reaches the gated group; an approver sets its Approved
// condition through the status subresource (`work fleet approve`). An
// approval opens the gate only for the revision hash its spec names.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=rolloutapprovals,shortName=approval,scope=Namespaced
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="ReplicaSet",type=string,JSONPath=`.spec.replicaSet`
// +kubebuilder:printcolumn:name="Group",type=string,JSONPath=`.spec.group`
// +kubebuilder:printcolumn:name="Revision",type=integer,JSONPath=`.spec.revision`
// +kubebuilder:printcolumn:name="Approved",type=string,JSONPath=`.status.conditions[?(@.type=="Approved")].status`
// +kubebuilder:printcolumn:name="By",type=string,JSONPath=`.status.approvedBy`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type RolloutApproval struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec names the replica set, group and revision approved; written by
	// the controller only.
	Spec RolloutApprovalSpec `json:"spec,omitempty"`

	// Status is the approver's answer.
	Status RolloutApprovalStatus `json:"status,omitempty"`
}

// RolloutApprovalSpec names what the approval lets through.
type RolloutApprovalSpec struct {
	// ReplicaSet is the name of the ManifestWorkReplicaSet, in the
	// approval's namespace.
	// +kubebuilder:validation:Required
	// +required
	ReplicaSet string `json:"replicaSet"`

	// Placement is the name of the replica set's placement whose group waits.
	// +kubebuilder:validation:Required
	// +required
	Placement string `json:"placement"`

	// Group is the decision group that waits: its name, or its index when
	// it has no name.
	// +kubebuilder:validation:Required
	// +required
	Group string `json:"group"`

	// Revision is the number of the revision when the approval was created.
	Revision int64 `json:"revision,omitempty"`

	// RevisionHash is the hash of the revision approved: the approval lets
	// this revision only through.
	// +kubebuilder:validation:Required
	// +required
	RevisionHash string `json:"revisionHash"`
}

// RolloutApprovalStatus records the approval.
type RolloutApprovalStatus struct {
	// Conditions hold Approved, True once approved.
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// ApprovedBy is the user name of the approver.
	ApprovedBy string `json:"approvedBy,omitempty"`

	// ApprovedAt is when the approval was given.
	ApprovedAt *metav1.Time `json:"approvedAt,omitempty"`
}

// ConditionApproved is the condition an approver sets True.
const ConditionApproved = "Approved"

// ReasonApproved is the reason `work fleet approve` gives Approved.
const ReasonApproved = "Approved"

// RolloutApprovalList is a list of RolloutApprovals.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type RolloutApprovalList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	// Items are the approvals.
	Items []RolloutApproval `json:"items"`
}
