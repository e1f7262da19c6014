// Package v1alpha1 contains API Schema definitions for the cluster v1alpha1 API group
// +k8s:deepcopy-gen=package,register
// +k8s:openapi-gen=true

// +kubebuilder:validation:Optional
// +groupName=cluster.open-cluster-management.io
package v1alpha1
