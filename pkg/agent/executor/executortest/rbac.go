package executortest

import (
	"sync"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/manifestwork/work/pkg/agent/executor"
)

// RBAC is a fake authorizer for executors: a clientset whose
// SubjectAccessReviews allow exactly the grants made with Grant, and count.
type RBAC struct {
	Client *kubefake.Clientset

	mu      sync.Mutex
	grants  map[grant]bool
	reviews int
}

// grant is a verb on a resource for a user, in every namespace and name.
type grant struct {
	user, verb, group, resource string
}

// NewRBAC returns an RBAC that grants nothing yet.
func NewRBAC() *RBAC {
	r := &RBAC{Client: kubefake.NewClientset(), grants: map[grant]bool{}}
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

// Reviews counts the SubjectAccessReviews sent so far.
func (r *RBAC) Reviews() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reviews
}

// Authorizer returns an executor.Authorizer asking this RBAC.
func (r *RBAC) Authorizer(caching bool) *executor.Authorizer {
	return executor.New(r.Client.AuthorizationV1().SubjectAccessReviews(), caching)
}

func (r *RBAC) allows(spec authorizationv1.SubjectAccessReviewSpec) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reviews++
	a := spec.ResourceAttributes
	if a == nil {
		return false
	}
	return r.grants[grant{user: spec.User, verb: a.Verb, group: a.Group, resource: a.Resource}]
}
