// Package v1alpha1 holds the fleet.manifestwork.io/v1alpha1 API, a group of
// ours beside OCM's: RolloutApproval, the approval a gated decision group of
// a ManifestWorkReplicaSet waits for before its clusters get a revision, and
// WorkOverride, the per-cluster changes to the works a replica set writes.
//
// +k8s:deepcopy-gen=package
// +kubebuilder:validation:Optional
// +groupName=fleet.manifestwork.io
package v1alpha1
