// +k8s:deepcopy-gen=package,register
// +k8s:defaulter-gen=TypeMeta
// +k8s:openapi-gen=true

// +groupName=kubecontrolplane.config.openshift.io
// Package v1 is the v1 version of the API.
package v1
