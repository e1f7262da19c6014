//go:build tools

// Package ocmapi pins the release of OCM's published API (open-cluster-management.io/api)
// whose CRDs pkg/apis/work/v1 tests our generated CRDs against. It is a module of its own
// so that moving the pin never touches hack/tools/go.sum, the key of the test-bed cache.
package ocmapi

import _ "open-cluster-management.io/api/work/v1"
