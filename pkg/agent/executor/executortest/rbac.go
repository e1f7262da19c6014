package executortest

import (
	"fmt"
	"sort"
	"sync"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/manifestwork/work/pkg/agent/executor"
)

// RBAC is a fake authorizer for executors: a clientset whose
// SubjectAccessReviews allow exactly the grants made with Grant, and fake
// clients, one per impersonated executor, whose dry-run creates of RBAC
// objects follow the API server's escalation rules on those grants. Both
// count.
type RBAC struct {
	Client *kubefake.Clientset

	mu      sync.Mutex
	grants  map[grant]bool
	roles   map[string][]rbacv1.PolicyRule // by executor.RoleKey
	reviews int
	dryRuns []DryRun
}

// DryRun is a dry-run create the fake answered.
type DryRun struct {
	User, Resource, Namespace, Name string
	Allowed                         bool
}

// grant is a verb on a resource for a user, in every namespace and name.
type grant struct {
	user, verb, group, resource string
}

// NewRBAC returns an RBAC that grants nothing yet.
func NewRBAC() *RBAC {
	r := &RBAC{Client: kubefake.NewClientset(), grants: map[grant]bool{}, roles: map[string][]rbacv1.PolicyRule{}}
	r.Client.PrependReactor("create", "subjectaccessreviews", func(action clienttesting.Action) (bool, runtime.Object, error) {
		sar := action.(clienttesting.CreateAction).GetObject().(*authorizationv1.SubjectAccessReview).DeepCopy()
		sar.Status.Allowed = r.allows(sar.Spec)
		return true, sar, nil
	})
	return r
}

// Grant allows user the verb on a resource in every namespace and name.
func (r *RBAC) Grant(user, verb, group, resource string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.grants[grant{user: user, verb: verb, group: group, resource: resource}] = true
}

// Revoke takes a grant back.
func (r *RBAC) Revoke(user, verb, group, resource string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.grants, grant{user: user, verb: verb, group: group, resource: resource})
}

// Role makes a role (kind Role or ClusterRole) with rules exist, for the
// bindings that refer to it.
func (r *RBAC) Role(kind, namespace, name string, rules ...rbacv1.PolicyRule) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.roles[executor.RoleKey(kind, namespace, name)] = rules
}

// Reviews counts the SubjectAccessReviews sent so far.
func (r *RBAC) Reviews() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reviews
}

// DryRuns are the dry-run creates answered so far.
func (r *RBAC) DryRuns() []DryRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]DryRun(nil), r.dryRuns...)
}

// Authorizer returns an executor.Authorizer asking this RBAC.
func (r *RBAC) Authorizer(caching bool) *executor.Authorizer {
	return executor.New(r.Client.AuthorizationV1().SubjectAccessReviews(), executor.DryRunsWith(r.clientFor), caching)
}

func (r *RBAC) allows(spec authorizationv1.SubjectAccessReviewSpec) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reviews++
	a := spec.ResourceAttributes
	if a == nil {
		return false
	}
	return r.granted(spec.User, a.Verb, a.Group, a.Resource)
}

func (r *RBAC) granted(user, verb, group, resource string) bool {
	return r.grants[grant{user: user, verb: verb, group: group, resource: resource}]
}

// clientFor is a fake dynamic client acting as user: its creates must be
// dry runs, and are answered as the API server answers them.
func (r *RBAC) clientFor(user string) (dynamic.Interface, error) {
	client := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())
	client.PrependReactor("create", "*", func(action clienttesting.Action) (bool, runtime.Object, error) {
		create := action.(clienttesting.CreateActionImpl)
		if len(create.CreateOptions.DryRun) != 1 || create.CreateOptions.DryRun[0] != metav1.DryRunAll {
			return true, nil, fmt.Errorf("a create as executor %s that is not a dry run", user)
		}
		obj := create.GetObject()
		raw, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			return true, nil, err
		}
		err = r.escalation(user, action.GetResource(), action.GetNamespace(), raw)
		return true, obj, err
	})
	return client, nil
}

// roleResources are the resources of the kinds a binding may refer to.
var roleResources = map[string]string{"Role": "roles", "ClusterRole": "clusterroles"}

// escalation is what the API server's RBAC storage says of user creating
// obj: nil when it may, Forbidden naming the rights it lacks otherwise.
func (r *RBAC) escalation(user string, gvr schema.GroupVersionResource, namespace string, obj map[string]any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var (
		rules   []rbacv1.PolicyRule
		allowed bool
	)
	name, _ := obj["metadata"].(map[string]any)["name"].(string)
	switch gvr.Resource {
	case "roles", "clusterroles":
		var role rbacv1.ClusterRole
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, &role); err != nil {
			return err
		}
		rules, allowed = role.Rules, r.granted(user, "escalate", gvr.Group, gvr.Resource)
	case "rolebindings", "clusterrolebindings":
		var binding rbacv1.RoleBinding
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, &binding); err != nil {
			return err
		}
		ref := binding.RoleRef
		var found bool
		if rules, found = r.roles[executor.RoleKey(ref.Kind, namespace, ref.Name)]; !found {
			r.dryRuns = append(r.dryRuns, DryRun{User: user, Resource: gvr.Resource, Namespace: namespace, Name: name})
			return apierrors.NewNotFound(schema.GroupResource{Group: rbacv1.GroupName, Resource: roleResources[ref.Kind]}, ref.Name)
		}
		allowed = r.granted(user, "bind", rbacv1.GroupName, roleResources[ref.Kind])
	}
	var missing []string
	for _, rule := range rules {
		for _, group := range rule.APIGroups {
			for _, resource := range rule.Resources {
				for _, verb := range rule.Verbs {
					if !r.granted(user, verb, group, resource) {
						missing = append(missing, fmt.Sprintf("{APIGroups:[%q], Resources:[%q], Verbs:[%q]}", group, resource, verb))
					}
				}
			}
		}
	}
	r.dryRuns = append(r.dryRuns, DryRun{User: user, Resource: gvr.Resource, Namespace: namespace, Name: name, Allowed: allowed || len(missing) == 0})
	if allowed || len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	msg := fmt.Sprintf("user %q (groups=[\"system:serviceaccounts\" \"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:", user)
	for _, m := range missing {
		msg += "\n" + m
	}
	return apierrors.NewForbidden(gvr.GroupResource(), name, fmt.Errorf("%s", msg))
}
