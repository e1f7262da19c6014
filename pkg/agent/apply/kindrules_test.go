package apply

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

var (
	webhooksGVR       = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingwebhookconfigurations"}
	mutatingGVR       = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "mutatingwebhookconfigurations"}
	crdsGVR           = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	apiServicesGVR    = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
	clusterRolesGVR   = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}
	namespacesGVR     = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	podsGVR           = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	serviceAcctsGVR   = schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}
	secretsGVR        = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	storageClassesGVR = schema.GroupVersionResource{Group: "storage.k8s.io", Version: "v1", Resource: "storageclasses"}
)

// served is a manifest as the API server returns it once the agent applied
// it: server-set metadata, the owner reference to ownerA, then edit's changes
// (what other controllers and users added).
func served(t *testing.T, manifest string, edit func(obj map[string]any)) *unstructured.Unstructured {
	t.Helper()
	obj := decode(t, manifest)
	obj.SetUID("uid-live")
	obj.SetResourceVersion("42")
	obj.SetOwnerReferences([]metav1.OwnerReference{ownerA})
	if edit != nil {
		edit(obj.Object)
	}
	return obj
}

// set sets the value at path in obj, creating maps on the way; a path step
// that is a number indexes a list.
func set(t *testing.T, obj map[string]any, value any, path ...any) {
	t.Helper()
	var cur any = obj
	for i, p := range path {
		last := i == len(path)-1
		switch key := p.(type) {
		case string:
			m := cur.(map[string]any)
			if last {
				m[key] = value
				return
			}
			if _, ok := m[key]; !ok {
				m[key] = map[string]any{}
			}
			cur = m[key]
		case int:
			l := cur.([]any)
			if last {
				l[key] = value
				return
			}
			cur = l[key]
		}
	}
}

func value(t *testing.T, obj *unstructured.Unstructured, path ...any) any {
	t.Helper()
	var cur any = obj.Object
	for _, p := range path {
		switch key := p.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil
			}
			cur = m[key]
		case int:
			l, ok := cur.([]any)
			if !ok || key >= len(l) {
				return nil
			}
			cur = l[key]
		}
	}
	return cur
}

const (
	webhookManifest = `{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
  "metadata": {"name": "policy", "annotations": {"cert-manager.io/inject-ca-from": "policy/serving"}},
  "webhooks": [
    {"name": "a.policy.example.com", "sideEffects": "None", "admissionReviewVersions": ["v1"],
     "clientConfig": {"service": {"namespace": "policy", "name": "webhook", "path": "/a"}}},
    {"name": "b.policy.example.com", "sideEffects": "None", "admissionReviewVersions": ["v1"],
     "clientConfig": {"service": {"namespace": "policy", "name": "webhook", "path": "/b"}}}
  ]}`
	mutatingManifest = `{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
  "metadata": {"name": "defaults"},
  "webhooks": [{"name": "a.defaults.example.com", "sideEffects": "None", "admissionReviewVersions": ["v1"],
     "clientConfig": {"caBundle": "T1VSUw==", "url": "https://defaults.example.com/a"}}]}`
	crdManifest = `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "widgets.example.com"},
  "spec": {"group": "example.com", "scope": "Namespaced",
    "names": {"kind": "Widget", "plural": "widgets"},
    "conversion": {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"],
      "clientConfig": {"service": {"namespace": "widgets", "name": "convert"}}}},
    "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]}}`
	apiServiceManifest = `{"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
  "metadata": {"name": "v1beta1.metrics.k8s.io"},
  "spec": {"group": "metrics.k8s.io", "version": "v1beta1", "groupPriorityMinimum": 100, "versionPriority": 100,
    "service": {"namespace": "kube-system", "name": "metrics-server"}}}`
	aggregatedRoleManifest = `{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
  "metadata": {"name": "monitoring"},
  "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"example.com/aggregate-to-monitoring": "true"}}]},
  "rules": []}`
	plainRoleManifest = `{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
  "metadata": {"name": "reader"},
  "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]}`
	namespaceManifest = `{"apiVersion": "v1", "kind": "Namespace",
  "metadata": {"name": "team", "labels": {"team": "a"}}}`
	podManifest = `{"apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "probe", "namespace": "default", "labels": {"app": "probe"}},
  "spec": {"containers": [{"name": "probe", "image": "busybox:1.36"}]}}`
	serviceAccountManifest = `{"apiVersion": "v1", "kind": "ServiceAccount",
  "metadata": {"name": "builder", "namespace": "default", "labels": {"app": "builder"}}}`
	secretManifest = `{"apiVersion": "v1", "kind": "Secret",
  "metadata": {"name": "creds", "namespace": "default"},
  "stringData": {"user": "admin"}, "data": {"password": "czNjcjN0"}}`
	tokenSecretManifest = `{"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/service-account-token",
  "metadata": {"name": "builder-token", "namespace": "default", "annotations": {"kubernetes.io/service-account.name": "builder"}}}`
	trustedCAConfigMapManifest = `{"apiVersion": "v1", "kind": "ConfigMap",
  "metadata": {"name": "trusted-ca", "namespace": "default", "labels": {"config.openshift.io/inject-trusted-cabundle": "true"}},
  "data": {"note": "injected"}}`
	storageClassManifest = `{"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
  "metadata": {"name": "fast", "annotations": {"storageclass.kubernetes.io/is-default-class": "false"}},
  "provisioner": "ebs.csi.aws.com", "parameters": {"type": "gp3"}}`
)

// asServedSecret is secretManifest as the API server stores it.
func asServedSecret(obj map[string]any) {
	delete(obj, "stringData")
	obj["data"] = map[string]any{"user": "YWRtaW4=", "password": "czNjcjN0"}
	obj["type"] = "Opaque"
}

// TestUpdateKeepsWhatOtherControllersOwn applies manifests of the kinds other
// controllers co-own over live objects holding what those controllers added.
func TestUpdateKeepsWhatOtherControllersOwn(t *testing.T) {
	// changed stands for a work edited since the last apply: the object is
	// written even though it holds the manifest.
	changed := &LastApplied{Spec: 1}
	caBundle := "Q0EgQlVORExF"
	tests := []struct {
		name      string
		gvr       schema.GroupVersionResource
		manifest  string
		editWant  func(obj map[string]any) // the work's edit of the manifest
		live      func(obj map[string]any) // nil: the object as applied
		last      *LastApplied
		reactors  []func(*fake.FakeDynamicClient)
		wantVerbs []string
		check     func(t *testing.T, c *fake.FakeDynamicClient, res Result)
		checkErr  func(t *testing.T, err error)
	}{
		{
			name:     "an injected webhook caBundle is in sync: no write",
			gvr:      webhooksGVR,
			manifest: webhookManifest,
			live: func(obj map[string]any) {
				set(t, obj, caBundle, "webhooks", 0, "clientConfig", "caBundle")
				set(t, obj, caBundle, "webhooks", 1, "clientConfig", "caBundle")
			},
			wantVerbs: []string{"get"},
		},
		{
			name:     "a change of the work keeps each webhook's injected caBundle",
			gvr:      webhooksGVR,
			manifest: webhookManifest,
			editWant: func(obj map[string]any) {
				// The work swaps the webhooks' order and changes one path.
				hooks := obj["webhooks"].([]any)
				hooks[0], hooks[1] = hooks[1], hooks[0]
				set(t, obj, "/b2", "webhooks", 0, "clientConfig", "service", "path")
			},
			live: func(obj map[string]any) {
				set(t, obj, caBundle, "webhooks", 0, "clientConfig", "caBundle")
				set(t, obj, "Q0EtQg==", "webhooks", 1, "clientConfig", "caBundle")
			},
			last:      changed,
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				obj := stored(t, c, webhooksGVR, "", "policy")
				assert.Equal(t, "b.policy.example.com", value(t, obj, "webhooks", 0, "name"))
				assert.Equal(t, "/b2", value(t, obj, "webhooks", 0, "clientConfig", "service", "path"))
				assert.Equal(t, "Q0EtQg==", value(t, obj, "webhooks", 0, "clientConfig", "caBundle"))
				assert.Equal(t, caBundle, value(t, obj, "webhooks", 1, "clientConfig", "caBundle"))
			},
		},
		{
			name:     "a caBundle the manifest sets wins",
			gvr:      mutatingGVR,
			manifest: mutatingManifest,
			live: func(obj map[string]any) {
				set(t, obj, caBundle, "webhooks", 0, "clientConfig", "caBundle")
			},
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				assert.Equal(t, "T1VSUw==", value(t, stored(t, c, mutatingGVR, "", "defaults"), "webhooks", 0, "clientConfig", "caBundle"))
			},
		},
		{
			name:     "a CRD keeps the conversion webhook's injected caBundle",
			gvr:      crdsGVR,
			manifest: crdManifest,
			editWant: func(obj map[string]any) { set(t, obj, "Namespaced", "spec", "scope") },
			live: func(obj map[string]any) {
				set(t, obj, caBundle, "spec", "conversion", "webhook", "clientConfig", "caBundle")
			},
			last:      changed,
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				obj := stored(t, c, crdsGVR, "", "widgets.example.com")
				assert.Equal(t, caBundle, value(t, obj, "spec", "conversion", "webhook", "clientConfig", "caBundle"))
			},
		},
		{
			name:      "an APIService keeps its injected caBundle",
			gvr:       apiServicesGVR,
			manifest:  apiServiceManifest,
			live:      func(obj map[string]any) { set(t, obj, caBundle, "spec", "caBundle") },
			last:      changed,
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				assert.Equal(t, caBundle, value(t, stored(t, c, apiServicesGVR, "", "v1beta1.metrics.k8s.io"), "spec", "caBundle"))
			},
		},
		{
			name:     "aggregated ClusterRole rules are the aggregation controller's: no write",
			gvr:      clusterRolesGVR,
			manifest: aggregatedRoleManifest,
			live: func(obj map[string]any) {
				obj["rules"] = []any{map[string]any{"apiGroups": []any{""}, "resources": []any{"pods"}, "verbs": []any{"list"}}}
			},
			wantVerbs: []string{"get"},
		},
		{
			name:     "a change of an aggregated ClusterRole keeps the aggregated rules",
			gvr:      clusterRolesGVR,
			manifest: aggregatedRoleManifest,
			editWant: func(obj map[string]any) { set(t, obj, "ops", "metadata", "labels", "team") },
			live: func(obj map[string]any) {
				obj["rules"] = []any{map[string]any{"apiGroups": []any{""}, "resources": []any{"pods"}, "verbs": []any{"list"}}}
			},
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				obj := stored(t, c, clusterRolesGVR, "", "monitoring")
				assert.Equal(t, "list", value(t, obj, "rules", 0, "verbs", 0))
				assert.Equal(t, "ops", obj.GetLabels()["team"])
			},
		},
		{
			name:      "a ClusterRole without aggregationRule gets the manifest's rules",
			gvr:       clusterRolesGVR,
			manifest:  plainRoleManifest,
			live:      func(obj map[string]any) { set(t, obj, "list", "rules", 0, "verbs", 0) },
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				assert.Equal(t, "get", value(t, stored(t, c, clusterRolesGVR, "", "reader"), "rules", 0, "verbs", 0))
			},
		},
		{
			name:      "a ServiceAccount's spec changes are not written",
			gvr:       serviceAcctsGVR,
			manifest:  serviceAccountManifest,
			editWant:  func(obj map[string]any) { obj["automountServiceAccountToken"] = false },
			wantVerbs: []string{"get"},
		},
		{
			name:     "a ServiceAccount's spec changes are not written, even as a change of the work",
			gvr:      serviceAcctsGVR,
			manifest: serviceAccountManifest,
			editWant: func(obj map[string]any) { obj["imagePullSecrets"] = []any{map[string]any{"name": "from-the-work"}} },
			live: func(obj map[string]any) {
				obj["imagePullSecrets"] = []any{map[string]any{"name": "builder-dockercfg-x1"}}
			},
			last:      changed,
			wantVerbs: []string{"get"},
		},
		{
			name:     "a ServiceAccount's metadata change keeps its secrets and imagePullSecrets",
			gvr:      serviceAcctsGVR,
			manifest: serviceAccountManifest,
			editWant: func(obj map[string]any) {
				set(t, obj, "v2", "metadata", "labels", "version")
				obj["imagePullSecrets"] = []any{map[string]any{"name": "from-the-work"}}
			},
			live: func(obj map[string]any) {
				obj["secrets"] = []any{map[string]any{"name": "builder-token-x1"}}
				obj["imagePullSecrets"] = []any{map[string]any{"name": "builder-dockercfg-x1"}}
			},
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				obj := stored(t, c, serviceAcctsGVR, "default", "builder")
				assert.Equal(t, "v2", obj.GetLabels()["version"])
				assert.Equal(t, []any{map[string]any{"name": "builder-token-x1"}}, obj.Object["secrets"])
				assert.Equal(t, []any{map[string]any{"name": "builder-dockercfg-x1"}}, obj.Object["imagePullSecrets"])
			},
		},
		{
			name:      "a Namespace's spec changes are not written",
			gvr:       namespacesGVR,
			manifest:  namespaceManifest,
			editWant:  func(obj map[string]any) { set(t, obj, []any{"example.com/wait"}, "spec", "finalizers") },
			live:      func(obj map[string]any) { set(t, obj, []any{"kubernetes"}, "spec", "finalizers") },
			wantVerbs: []string{"get"},
		},
		{
			name:     "a Namespace's label change keeps the rest of the live Namespace",
			gvr:      namespacesGVR,
			manifest: namespaceManifest,
			editWant: func(obj map[string]any) { set(t, obj, "b", "metadata", "labels", "team") },
			live: func(obj map[string]any) {
				set(t, obj, []any{"kubernetes"}, "spec", "finalizers")
				set(t, obj, "other", "metadata", "labels", "owner")
			},
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				obj := stored(t, c, namespacesGVR, "", "team")
				assert.Equal(t, map[string]string{"team": "b", "owner": "other"}, obj.GetLabels())
				assert.Equal(t, []any{"kubernetes"}, value(t, obj, "spec", "finalizers"))
			},
		},
		{
			name:      "a Pod's spec changes are not written",
			gvr:       podsGVR,
			manifest:  podManifest,
			editWant:  func(obj map[string]any) { set(t, obj, "busybox:1.37", "spec", "containers", 0, "image") },
			wantVerbs: []string{"get"},
		},
		{
			name:     "a Pod's label change writes metadata only",
			gvr:      podsGVR,
			manifest: podManifest,
			editWant: func(obj map[string]any) {
				set(t, obj, "probe-v2", "metadata", "labels", "app")
				set(t, obj, "busybox:1.37", "spec", "containers", 0, "image")
			},
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				sent := sentObject(t, c, "update")
				assert.Equal(t, "probe-v2", sent.GetLabels()["app"])
				assert.Equal(t, "busybox:1.36", value(t, sent, "spec", "containers", 0, "image"))
				assert.Equal(t, "42", sent.GetResourceVersion())
			},
		},
		{
			name:      "a Secret's stringData equal to its data is in sync: no write",
			gvr:       secretsGVR,
			manifest:  secretManifest,
			live:      asServedSecret,
			wantVerbs: []string{"get"},
		},
		{
			name:      "a Secret's changed stringData is written folded into data",
			gvr:       secretsGVR,
			manifest:  secretManifest,
			editWant:  func(obj map[string]any) { set(t, obj, "root", "stringData", "user") },
			live:      asServedSecret,
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				sent := sentObject(t, c, "update")
				assert.Nil(t, sent.Object["stringData"])
				assert.Equal(t, map[string]any{"user": "cm9vdA==", "password": "czNjcjN0"}, sent.Object["data"])
			},
		},
		{
			name:     "a Secret setting a key in data and stringData differently is refused without a request",
			gvr:      secretsGVR,
			manifest: secretManifest,
			editWant: func(obj map[string]any) { set(t, obj, "other", "stringData", "password") },
			live:     asServedSecret,
			checkErr: func(t *testing.T, err error) {
				var applyErr *Error
				require.ErrorAs(t, err, &applyErr)
				assert.Equal(t, workv1.ManifestAppliedReasonFailed, applyErr.Reason)
				assert.Contains(t, applyErr.Message, `"password"`)
			},
			wantVerbs: nil, // refused before any request
		},
		{
			name:     "a Secret whose type changes is deleted and created anew, keeping its metadata",
			gvr:      secretsGVR,
			manifest: secretManifest,
			editWant: func(obj map[string]any) { obj["type"] = "example.com/basic" },
			live: func(obj map[string]any) {
				asServedSecret(obj)
				set(t, obj, "v", "metadata", "labels", "other")
			},
			wantVerbs: []string{"get", "delete", "create"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, res Result) {
				del, ok := c.Actions()[1].(clienttesting.DeleteActionImpl)
				require.True(t, ok, "the second action is a delete")
				require.NotNil(t, del.DeleteOptions.Preconditions)
				assert.Equal(t, "uid-live", string(*del.DeleteOptions.Preconditions.UID))
				assert.Equal(t, "42", *del.DeleteOptions.Preconditions.ResourceVersion)
				obj := stored(t, c, secretsGVR, "default", "creds")
				assert.Equal(t, "example.com/basic", obj.Object["type"])
				assert.Equal(t, []metav1.OwnerReference{ownerA}, obj.GetOwnerReferences())
				assert.Equal(t, "v", obj.GetLabels()["other"])
				assert.Empty(t, obj.GetResourceVersion(), "no stale resourceVersion is sent with the create")
				assert.True(t, res.Written)
			},
		},
		{
			name:     "a Secret left without type is Opaque: a typed live Secret is recreated",
			gvr:      secretsGVR,
			manifest: secretManifest,
			live: func(obj map[string]any) {
				asServedSecret(obj)
				obj["type"] = "example.com/basic"
			},
			last:      changed,
			wantVerbs: []string{"get", "delete", "create"},
		},
		{
			name:     "a recreate racing another writer reads the object again",
			gvr:      secretsGVR,
			manifest: secretManifest,
			editWant: func(obj map[string]any) { obj["type"] = "example.com/basic" },
			live:     asServedSecret,
			reactors: []func(*fake.FakeDynamicClient){failOnce("delete",
				apierrors.NewConflict(secretsGVR.GroupResource(), "creds", errors.New("precondition failed")))},
			wantVerbs: []string{"get", "delete", "get", "delete", "create"},
		},
		{
			name:     "a recreate held by a finalizer says so",
			gvr:      secretsGVR,
			manifest: secretManifest,
			editWant: func(obj map[string]any) { obj["type"] = "example.com/basic" },
			live: func(obj map[string]any) {
				asServedSecret(obj)
				set(t, obj, []any{"example.com/hold"}, "metadata", "finalizers")
			},
			reactors:  []func(*fake.FakeDynamicClient){failOn("create", apierrors.NewAlreadyExists(secretsGVR.GroupResource(), "creds"))},
			wantVerbs: []string{"get", "delete", "create"},
			checkErr: func(t *testing.T, err error) {
				var applyErr *Error
				require.ErrorAs(t, err, &applyErr)
				assert.Equal(t, workv1.ManifestAppliedReasonFailed, applyErr.Reason)
				assert.Contains(t, applyErr.Message, "still being deleted")
				assert.Contains(t, applyErr.Message, "example.com/hold")
			},
		},
		{
			name:     "an immutable Secret whose data changes is recreated",
			gvr:      secretsGVR,
			manifest: secretManifest,
			editWant: func(obj map[string]any) {
				obj["immutable"] = true
				set(t, obj, "root", "stringData", "user")
			},
			live: func(obj map[string]any) {
				asServedSecret(obj)
				obj["immutable"] = true
			},
			wantVerbs: []string{"get", "delete", "create"},
		},
		{
			name:      "a Secret the work makes immutable stays as created: no write",
			gvr:       secretsGVR,
			manifest:  secretManifest,
			editWant:  func(obj map[string]any) { obj["immutable"] = true },
			live:      asServedSecret,
			wantVerbs: []string{"get"},
		},
		{
			name:     "an immutable Secret whose manifest drops immutable is updated in place, still immutable",
			gvr:      secretsGVR,
			manifest: secretManifest,
			live: func(obj map[string]any) {
				asServedSecret(obj)
				obj["immutable"] = true
			},
			last:      changed,
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				assert.Equal(t, true, value(t, stored(t, c, secretsGVR, "default", "creds"), "immutable"))
			},
		},
		{
			name:      "a ConfigMap the work makes immutable is written without it",
			gvr:       configMapsGVR,
			manifest:  trustedCAConfigMapManifest,
			editWant:  func(obj map[string]any) { obj["immutable"] = true },
			last:      changed,
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				assert.Nil(t, value(t, stored(t, c, configMapsGVR, "default", "trusted-ca"), "immutable"))
			},
		},
		{
			name:     "a service account token Secret keeps the token the cluster filled in",
			gvr:      secretsGVR,
			manifest: tokenSecretManifest,
			editWant: func(obj map[string]any) { set(t, obj, "x", "metadata", "labels", "v") },
			live: func(obj map[string]any) {
				obj["data"] = map[string]any{"token": "dG9rZW4=", "ca.crt": "Y2E=", "namespace": "ZGVmYXVsdA=="}
			},
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				obj := stored(t, c, secretsGVR, "default", "builder-token")
				assert.Equal(t, map[string]any{"token": "dG9rZW4=", "ca.crt": "Y2E=", "namespace": "ZGVmYXVsdA=="}, obj.Object["data"])
			},
		},
		{
			name:      "a ConfigMap asking for the trusted CA bundle keeps it",
			gvr:       configMapsGVR,
			manifest:  trustedCAConfigMapManifest,
			live:      func(obj map[string]any) { set(t, obj, "-----BEGIN CERTIFICATE-----", "data", "ca-bundle.crt") },
			last:      changed,
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				obj := stored(t, c, configMapsGVR, "default", "trusted-ca")
				assert.Equal(t, "-----BEGIN CERTIFICATE-----", value(t, obj, "data", "ca-bundle.crt"))
			},
		},
		{
			name:      "a ConfigMap not asking for the CA bundle gets the manifest's data",
			gvr:       configMapsGVR,
			manifest:  trustedCAConfigMapManifest,
			editWant:  func(obj map[string]any) { delete(obj["metadata"].(map[string]any), "labels") },
			live:      func(obj map[string]any) { set(t, obj, "-----BEGIN CERTIFICATE-----", "data", "ca-bundle.crt") },
			last:      changed,
			wantVerbs: []string{"get", "update"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				assert.Nil(t, value(t, stored(t, c, configMapsGVR, "default", "trusted-ca"), "data", "ca-bundle.crt"))
			},
		},
		{
			name:     "the cluster's default StorageClass annotation is the administrator's: no write",
			gvr:      storageClassesGVR,
			manifest: storageClassManifest,
			live: func(obj map[string]any) {
				set(t, obj, "true", "metadata", "annotations", defaultStorageClassAnnotation)
				obj["reclaimPolicy"], obj["volumeBindingMode"] = "Delete", "Immediate"
			},
			wantVerbs: []string{"get"},
		},
		{
			name:     "a StorageClass whose parameters change is recreated, keeping the default annotation",
			gvr:      storageClassesGVR,
			manifest: storageClassManifest,
			editWant: func(obj map[string]any) { set(t, obj, "io2", "parameters", "type") },
			live: func(obj map[string]any) {
				set(t, obj, "true", "metadata", "annotations", defaultStorageClassAnnotation)
				obj["reclaimPolicy"], obj["volumeBindingMode"] = "Delete", "Immediate"
			},
			wantVerbs: []string{"get", "delete", "create"},
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				obj := stored(t, c, storageClassesGVR, "", "fast")
				assert.Equal(t, "io2", value(t, obj, "parameters", "type"))
				assert.Equal(t, "true", obj.GetAnnotations()[defaultStorageClassAnnotation])
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			live := served(t, tt.manifest, tt.live)
			client := tableClient(live, tt.reactors)
			desired := decode(t, tt.manifest)
			if tt.editWant != nil {
				tt.editWant(desired.Object)
			}
			last := tt.last
			if last == nil {
				last = &LastApplied{Spec: specOf(t, desired, nil)}
			}
			unchanged := desired.DeepCopy()
			res, err := updateStrategy{}.Apply(context.Background(), client, Request{
				Resource: tt.gvr, Desired: desired, Owner: ownerA, Spec: specOf(t, desired, nil), Last: last,
			})
			assert.Equal(t, unchanged, desired, "strategies never modify the manifest")
			checkApply(t, client, res, err, tt.wantVerbs, tt.checkErr, tt.check)
		})
	}
}

// TestCompareFollowsKindRules checks that every strategy's comparison sees
// an object holding what other controllers own as in sync.
func TestCompareFollowsKindRules(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		live     func(obj map[string]any)
		inSync   bool
	}{
		{name: "stringData folded into data", manifest: secretManifest, live: asServedSecret, inSync: true},
		{name: "stringData differing from data", manifest: secretManifest, live: func(obj map[string]any) {
			asServedSecret(obj)
			set(t, obj, "cm9vdA==", "data", "user")
		}},
		{name: "aggregated rules", manifest: aggregatedRoleManifest, live: func(obj map[string]any) {
			obj["rules"] = []any{map[string]any{"verbs": []any{"list"}}}
		}, inSync: true},
		{name: "a typed Secret where the manifest says none", manifest: secretManifest, live: func(obj map[string]any) {
			asServedSecret(obj)
			obj["type"] = "example.com/basic"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.inSync, compare(decode(t, tt.manifest), served(t, tt.manifest, tt.live)).InSync())
		})
	}
}

// TestKindRulesSurviveMalformedManifests feeds the rules manifests whose
// fields have the wrong shapes: they are compared as they are, nothing panics.
func TestKindRulesSurviveMalformedManifests(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		edit     func(obj map[string]any)
	}{
		{name: "a webhook that is not an object", manifest: webhookManifest, edit: func(obj map[string]any) { obj["webhooks"] = []any{"a", int64(1)} }},
		{name: "a webhook name that is an object", manifest: webhookManifest, edit: func(obj map[string]any) {
			set(t, obj, map[string]any{"x": "y"}, "webhooks", 0, "name")
		}},
		{name: "webhooks that are not a list", manifest: webhookManifest, edit: func(obj map[string]any) { obj["webhooks"] = "none" }},
		{name: "stringData that is a list", manifest: secretManifest, edit: func(obj map[string]any) { obj["stringData"] = []any{"x"} }},
		{name: "a stringData value that is a number", manifest: secretManifest, edit: func(obj map[string]any) { set(t, obj, int64(1), "stringData", "user") }},
		{name: "a token Secret whose data is a string", manifest: tokenSecretManifest, edit: func(obj map[string]any) { obj["data"] = "x" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			desired := decode(t, tt.manifest)
			tt.edit(desired.Object)
			live := served(t, webhookManifest, nil)
			live.SetKind(desired.GetKind())
			assert.NotPanics(t, func() {
				_ = compare(desired, live)
				_, _ = forUpdateOf(desired, live)
				_, _ = forCreateOf(desired)
			})
		})
	}
}

// TestCreateFoldsStringData checks that a Secret is created as it will be
// compared, and that a conflicting one is not created at all.
func TestCreateFoldsStringData(t *testing.T) {
	client := newClient()
	_, err := updateStrategy{}.Apply(context.Background(), client, Request{Resource: secretsGVR, Desired: decode(t, secretManifest), Owner: ownerA})
	require.NoError(t, err)
	sent := sentObject(t, client, "create")
	assert.Equal(t, map[string]any{"user": "YWRtaW4=", "password": "czNjcjN0"}, sent.Object["data"])
	assert.Equal(t, "Opaque", sent.Object["type"])

	conflicting := decode(t, secretManifest)
	set(t, conflicting.Object, "other", "stringData", "password")
	client = newClient()
	_, err = updateStrategy{}.Apply(context.Background(), client, Request{Resource: secretsGVR, Desired: conflicting, Owner: ownerA})
	require.Error(t, err)
	assert.Empty(t, verbs(client))
}
