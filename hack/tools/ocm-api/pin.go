//go:build tools

// Package ocmapi pins the release of OCM's published API (open-cluster-management.io/api)
// whose CRDs pkg/apis tests our generated CRDs against: work v1 and v1alpha1,
// cluster v1beta1. It is a module of its own so that moving the pin never
// touches hack/tools/go.sum, the key of the test-bed cache.
package ocmapi

import (
	_ "open-cluster-management.io/api/cluster/v1beta1"
	_ "open-cluster-management.io/api/work/v1"
	_ "open-cluster-management.io/api/work/v1alpha1"
)
