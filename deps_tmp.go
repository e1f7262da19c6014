//go:build deps

// Package deps keeps dependencies vendored until code imports them. Temporary.
package deps

import (
	_ "github.com/google/cel-go/cel"
	_ "github.com/google/cel-go/common/types"
	_ "github.com/openshift/library-go/pkg/controller/factory"
	_ "github.com/openshift/library-go/pkg/operator/events"
	_ "github.com/openshift/library-go/pkg/operator/resource/resourceapply"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/pflag"
	_ "github.com/stretchr/testify/require"
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	_ "k8s.io/apimachinery/pkg/runtime"
	_ "k8s.io/apiserver/pkg/cel/library"
	_ "k8s.io/client-go/discovery/cached/memory"
	_ "k8s.io/client-go/discovery/fake"
	_ "k8s.io/client-go/dynamic/dynamicinformer"
	_ "k8s.io/client-go/dynamic/fake"
	_ "k8s.io/client-go/kubernetes"
	_ "k8s.io/client-go/kubernetes/fake"
	_ "k8s.io/client-go/metadata"
	_ "k8s.io/client-go/metadata/fake"
	_ "k8s.io/client-go/metadata/metadatainformer"
	_ "k8s.io/client-go/restmapper"
	_ "k8s.io/client-go/testing"
	_ "k8s.io/client-go/tools/leaderelection"
	_ "k8s.io/client-go/util/jsonpath"
	_ "k8s.io/client-go/util/workqueue"
	_ "k8s.io/component-base/featuregate"
	_ "k8s.io/component-base/logs/api/v1"
	_ "k8s.io/component-base/metrics/legacyregistry"
	_ "k8s.io/klog/v2"
	_ "sigs.k8s.io/controller-runtime/pkg/envtest"
)
