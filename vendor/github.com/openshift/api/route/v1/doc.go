// +k8s:deepcopy-gen=package,register
// +k8s:conversion-gen=github.com/openshift/origin/pkg/route/apis/route
// +k8s:defaulter-gen=TypeMeta
// +k8s:openapi-gen=true

// +groupName=route.openshift.io
// Package v1 is the v1 version of the API.
package v1
