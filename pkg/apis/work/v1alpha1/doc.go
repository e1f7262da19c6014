// Package v1alpha1 holds the work.open-cluster-management.io/v1alpha1 API:
// ManifestWorkReplicaSet, which puts one ManifestWork on every cluster that
// its Placements select, and rolls changes out by a strategy.
//
// Fields are optional unless marked required, as in OCM's schema.
//
// +k8s:deepcopy-gen=package
// +kubebuilder:validation:Optional
// +groupName=work.open-cluster-management.io
package v1alpha1
