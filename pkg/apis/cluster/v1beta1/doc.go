// Package v1beta1 holds Placement and PlacementDecision of
// cluster.open-cluster-management.io/v1beta1, with OCM's wire schema.
// ManifestWorkReplicaSet reads them to find its clusters; OCM's placement
// controller, or a user on a hub without it, writes them.
//
// Fields are optional unless marked required, as in OCM's schema.
//
// +k8s:deepcopy-gen=package
// +kubebuilder:validation:Optional
// +groupName=cluster.open-cluster-management.io
package v1beta1
