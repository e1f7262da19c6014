// +k8s:deepcopy-gen=package,register
// +k8s:conversion-gen=github.com/openshift/origin/pkg/oauth/apis/oauth
// +k8s:defaulter-gen=TypeMeta
// +k8s:openapi-gen=true

// +groupName=oauth.openshift.io
// Package v1 is the v1 version of the API.
package v1
