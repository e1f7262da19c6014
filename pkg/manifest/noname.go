package manifest

import (
	"errors"

	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// The messages of client-go's two clients for a request without a name.
// OCM's agent sends the request all the same, and the manifest's Applied
// condition shows what the client refused it with.
var (
	errNoNameTyped   = errors.New("resource name may not be empty")
	errNoNameDynamic = errors.New("name is required")
)

// typedByUpdate are the kinds, at the version the manifest names, that OCM's
// Update strategy writes with client-go's typed clients (library-go's
// resourceapply); it writes every other kind, and the other strategies every
// kind, with the dynamic client.
var typedByUpdate = map[schema.GroupVersionKind]bool{
	{Version: "v1", Kind: "Namespace"}:                                                                    true,
	{Version: "v1", Kind: "Service"}:                                                                      true,
	{Version: "v1", Kind: "Pod"}:                                                                          true,
	{Version: "v1", Kind: "ServiceAccount"}:                                                               true,
	{Version: "v1", Kind: "ConfigMap"}:                                                                    true,
	{Version: "v1", Kind: "Secret"}:                                                                       true,
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}:                              true,
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBinding"}:                       true,
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"}:                                     true,
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBinding"}:                              true,
	{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"}:                                         true,
	{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}:                      true,
	{Group: "storage.k8s.io", Version: "v1", Kind: "StorageClass"}:                                        true,
	{Group: "storage.k8s.io", Version: "v1", Kind: "CSIDriver"}:                                           true,
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingWebhookConfiguration"}:        true,
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingWebhookConfiguration"}:          true,
	{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "ValidatingAdmissionPolicy"}:        true,
	{Group: "admissionregistration.k8s.io", Version: "v1beta1", Kind: "ValidatingAdmissionPolicyBinding"}: true,
}

// NoNameError is why a manifest of kind gvk without metadata.name, applied
// with the strategy StrategyOf gives, is not applied: the message OCM's
// agent reports for it.
func NoNameError(gvk schema.GroupVersionKind, strategy workv1.UpdateStrategyType) error {
	if strategy == workv1.UpdateStrategyTypeUpdate && typedByUpdate[gvk] {
		return errNoNameTyped
	}
	return errNoNameDynamic
}
