// +k8s:deepcopy-gen=package,register
// +k8s:defaulter-gen=TypeMeta
// +k8s:openapi-gen=true

// +groupName=config.openshift.io
// Package v1alpha2 is the v1alpha2 version of the API.
package v1alpha2
