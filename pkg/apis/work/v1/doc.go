// Package v1 holds the work.open-cluster-management.io/v1 API: ManifestWork on
// the hub and AppliedManifestWork on the managed cluster.
//
// +k8s:deepcopy-gen=package
// +groupName=work.open-cluster-management.io
package v1
