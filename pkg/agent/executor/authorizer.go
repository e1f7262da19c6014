package executor

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	authorizationclient "k8s.io/client-go/kubernetes/typed/authorization/v1"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/pkg/serviceaccount"
)

// Authorizer asks the managed cluster, with SubjectAccessReviews, whether an
// executor may do what the agent is about to do for it. With caching on it
// remembers every decision per executor until Invalidate says the RBAC
// objects that grant that executor changed; in a steady state it then sends
// no SubjectAccessReview at all.
type Authorizer struct {
	reviews authorizationclient.SubjectAccessReviewInterface
	cache   *decisions // nil without caching
	epoch   atomic.Uint64
}

// New returns an Authorizer that sends SubjectAccessReviews with client and,
// when caching, remembers their answers.
func New(client authorizationclient.SubjectAccessReviewInterface, caching bool) *Authorizer {
	a := &Authorizer{reviews: client}
	if caching {
		a.cache = &decisions{byUser: map[string]map[Access]bool{}}
	}
	return a
}

// MayApply returns nil when the work names no executor or its executor may
// apply obj (as resource gvr) with the strategy; orphaned says the work does
// not own obj. Otherwise the error says what OCM's agent says of a denied
// executor (applyDeniedError); the log names every verb it lacks.
func (a *Authorizer) MayApply(ctx context.Context, e *workv1.ManifestWorkExecutor, gvr schema.GroupVersionResource,
	obj *unstructured.Unstructured, strategy workv1.UpdateStrategyType, orphaned bool) error {
	user, err := User(e)
	if err != nil || user == "" {
		return err
	}
	denied, err := a.check(ctx, user, applyAccesses(gvr, obj, strategy, orphaned))
	if err != nil || len(denied) == 0 {
		return err
	}
	return applyDeniedError(gvr, obj.GetNamespace(), obj.GetName(), denied)
}

// MayDelete returns nil when the work names no executor or its executor may
// delete the object.
func (a *Authorizer) MayDelete(ctx context.Context, e *workv1.ManifestWorkExecutor, gvr schema.GroupVersionResource, namespace, name string) error {
	user, err := User(e)
	if err != nil || user == "" {
		return err
	}
	denied, err := a.check(ctx, user, []Access{{Verb: "delete", Group: gvr.Group, Resource: gvr.Resource, Namespace: namespace, Name: name}})
	if err != nil || len(denied) == 0 {
		return err
	}
	return deniedError(user, denied)
}

// check asks about every access and returns those denied, so that a denial
// names all that is missing.
func (a *Authorizer) check(ctx context.Context, user string, accesses []Access) ([]Access, error) {
	var denied []Access
	for _, access := range accesses {
		ok, err := a.allowed(ctx, user, access)
		if err != nil {
			return nil, err
		}
		if !ok {
			denied = append(denied, access)
		}
	}
	if len(denied) > 0 {
		klog.FromContext(ctx).V(2).Info("Executor not allowed", "executor", user, "denied", describeAccesses(denied))
	}
	return denied, nil
}

func (a *Authorizer) allowed(ctx context.Context, user string, access Access) (bool, error) {
	epoch := a.epoch.Load()
	if a.cache != nil {
		if ok, found := a.cache.get(user, access); found {
			metrics.ExecutorCacheHits.Inc()
			return ok, nil
		}
	}
	ok, err := a.review(ctx, user, access)
	if err != nil {
		return false, err
	}
	// A decision made while the RBAC objects changed may be stale already:
	// only one made within a single epoch is remembered.
	if a.cache != nil {
		a.cache.put(user, access, ok, func() bool { return a.epoch.Load() == epoch })
	}
	return ok, nil
}

// review sends one SubjectAccessReview for a ServiceAccount executor, with
// the groups the API server gives every ServiceAccount.
func (a *Authorizer) review(ctx context.Context, user string, access Access) (bool, error) {
	sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
		User:   user,
		Groups: serviceaccount.Groups(user),
		ResourceAttributes: &authorizationv1.ResourceAttributes{
			Verb: access.Verb, Group: access.Group, Resource: access.Resource,
			Namespace: access.Namespace, Name: access.Name,
		},
	}}
	got, err := a.reviews.Create(ctx, sar, metav1.CreateOptions{})
	if err != nil {
		metrics.SubjectAccessReviews.WithLabelValues(metrics.ReviewError).Inc()
		return false, fmt.Errorf("checking whether executor %s may %s %s: %w", user, access.Verb, access.on(), err)
	}
	allowed := got.Status.Allowed && !got.Status.Denied
	result := metrics.ReviewDenied
	if allowed {
		result = metrics.ReviewAllowed
	}
	metrics.SubjectAccessReviews.WithLabelValues(result).Inc()
	return allowed, nil
}

// Invalidate forgets the decisions about user, or about every executor
// when user is "" or AllExecutors. Every call starts a new epoch, which also
// tells callers that a denial may no longer hold.
func (a *Authorizer) Invalidate(user string) {
	if a.cache == nil {
		a.epoch.Add(1)
		return
	}
	a.cache.forget(user, func() { a.epoch.Add(1) })
}

// Epoch counts the Invalidate calls so far.
func (a *Authorizer) Epoch() uint64 { return a.epoch.Load() }

// AllExecutors is the user that Invalidate reads as every executor.
const AllExecutors = "*"

// decisions are the remembered answers, per executor.
type decisions struct {
	mu     sync.RWMutex
	byUser map[string]map[Access]bool
}

func (d *decisions) get(user string, access Access) (allowed, found bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	allowed, found = d.byUser[user][access]
	return allowed, found
}

// put remembers a decision if current, checked under the lock that forget
// holds while it starts a new epoch, says it is still of the current epoch.
func (d *decisions) put(user string, access Access, allowed bool, current func() bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !current() {
		return
	}
	m := d.byUser[user]
	if m == nil {
		m = map[Access]bool{}
		d.byUser[user] = m
	}
	m[access] = allowed
}

func (d *decisions) forget(user string, newEpoch func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	newEpoch()
	if user == "" || user == AllExecutors {
		clear(d.byUser)
		return
	}
	delete(d.byUser, user)
}
