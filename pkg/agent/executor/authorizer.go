package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	authorizationclient "k8s.io/client-go/kubernetes/typed/authorization/v1"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
	"github.com/manifestwork/work/pkg/serviceaccount"
)

// Authorizer asks the managed cluster whether an executor may do what the
// agent is about to do for it: SubjectAccessReviews for the verbs, and for
// RBAC objects a server-side dry run as the executor, so that the API
// server's escalation rules decide. With caching on it remembers every
// decision per executor until Invalidate says the RBAC objects that grant
// that executor changed (or, for a binding, the role it refers to); in a
// steady state it then sends no request at all.
type Authorizer struct {
	reviews authorizationclient.SubjectAccessReviewInterface
	dryRuns *DryRuns
	cache   *decisions // nil without caching
	epoch   atomic.Uint64
	// referring are the executors whose dry runs of a binding referred to
	// each role (by RoleKey): a change of that role may change the answer.
	referring referrers
}

// New returns an Authorizer that sends SubjectAccessReviews with client,
// makes the dry runs of RBAC objects with dryRuns and, when caching,
// remembers their answers.
func New(client authorizationclient.SubjectAccessReviewInterface, dryRuns *DryRuns, caching bool) *Authorizer {
	a := &Authorizer{reviews: client, dryRuns: dryRuns, referring: referrers{byRole: map[string]map[string]bool{}}}
	if caching {
		a.cache = &decisions{byUser: map[string]map[Access]decision{}}
	}
	return a
}

// MayApply returns nil when the work names no executor or its executor may
// apply obj (as resource gvr) with the strategy; orphaned says the work does
// not own obj. Otherwise the error says what OCM's agent says of a denied
// executor (applyDeniedError), and for an RBAC object what the API server
// said; the log names every verb it lacks.
func (a *Authorizer) MayApply(ctx context.Context, e *workv1.ManifestWorkExecutor, gvr schema.GroupVersionResource,
	obj *unstructured.Unstructured, strategy workv1.UpdateStrategyType, orphaned bool) error {
	user, err := User(e)
	if err != nil || user == "" {
		return err
	}
	denied, err := a.check(ctx, user, applyAccesses(gvr, obj, strategy, orphaned))
	if err != nil {
		return err
	}
	if len(denied) > 0 {
		return applyDeniedError(gvr, obj.GetNamespace(), obj.GetName(), nil)
	}
	if !needsDryRun(gvr.GroupResource(), strategy) {
		return nil
	}
	return a.dryRun(ctx, user, gvr, obj)
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
	if d, found := a.cache.get(user, access); found {
		metrics.ExecutorCacheHits.Inc()
		return d.allowed, nil
	}
	ok, err := a.review(ctx, user, access)
	if err != nil {
		return false, err
	}
	a.remember(user, access, decision{allowed: ok}, epoch)
	return ok, nil
}

// remember keeps a decision made in epoch, when caching. One made while the
// RBAC objects changed may be stale already: only one made within a single
// epoch is remembered.
func (a *Authorizer) remember(user string, access Access, d decision, epoch uint64) {
	a.cache.put(user, access, d, func() bool { return a.epoch.Load() == epoch })
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

// dryRunVerb marks the remembered answer of a dry run among the verbs.
const dryRunVerb = "create (dry run)"

// dryRun creates obj as user in a server-side dry run: nil when it would be
// created (or exists: the API server checks escalation before existence),
// the denial of the apply, saying why (escalationReason), when the API
// server refuses it. Another failure is returned as an error, never
// remembered: it does not say what the executor may do.
//
// The answer depends on the executor's rights, on the object's content
// (rbacDigest) and, for a binding, on the rules of the role it refers to.
// It is remembered per object with its digest, so a changed manifest is
// tried again; the executor is noted as referring to that role, so that a
// change of the role reaches it (Referring) as a change of its own rights.
func (a *Authorizer) dryRun(ctx context.Context, user string, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) error {
	if a.dryRuns == nil {
		return fmt.Errorf("cannot check executor %s for %s %q: no dry runs as executors configured", user, gvr.Resource, obj.GetName())
	}
	gr := gvr.GroupResource()
	access := Access{Verb: dryRunVerb, Group: gvr.Group, Resource: gvr.Resource, Namespace: obj.GetNamespace(), Name: obj.GetName()}
	digest := rbacDigest(gr, obj)
	if role := roleRefOf(gr, obj); role != "" {
		a.referring.add(role, user)
	}
	deny := func(refused string) error { return applyDeniedError(gvr, obj.GetNamespace(), obj.GetName(), &refused) }
	epoch := a.epoch.Load()
	if d, found := a.cache.get(user, access); found && digest != "" && d.digest == digest {
		metrics.ExecutorCacheHits.Inc()
		if d.allowed {
			return nil
		}
		return deny(d.refused)
	}
	err := a.dryRuns.create(ctx, user, gvr, obj)
	switch {
	case err == nil || apierrors.IsAlreadyExists(err):
		metrics.ExecutorDryRuns.WithLabelValues(metrics.ReviewAllowed).Inc()
		if digest != "" {
			a.remember(user, access, decision{allowed: true, digest: digest}, epoch)
		}
		return nil
	case apierrors.IsForbidden(err) && !impersonationRefused(err):
		metrics.ExecutorDryRuns.WithLabelValues(metrics.ReviewDenied).Inc()
		refused, escalation := escalationReason(err)
		klog.FromContext(ctx).V(2).Info("Executor not allowed by the API server", "executor", user,
			"resource", gr.String(), "namespace", obj.GetNamespace(), "name", obj.GetName(), "err", err.Error())
		if escalation && digest != "" {
			// Only the escalation rules' refusal is about the executor's
			// rights; another (a webhook's, a namespace being deleted) may
			// change without an RBAC change, so it is asked again next time.
			a.remember(user, access, decision{digest: digest, refused: refused}, epoch)
		}
		return deny(refused)
	default:
		metrics.ExecutorDryRuns.WithLabelValues(metrics.ReviewError).Inc()
		return fmt.Errorf("creating %s %q as executor %s in a dry run: %w", gr.String(), obj.GetName(), user, err)
	}
}

// impersonationRefused tells a Forbidden answer that refuses the agent,
// not the executor: the agent lacks impersonate on the executor's
// ServiceAccount. Its deployment needs fixing; the executor is not denied.
func impersonationRefused(err error) bool {
	return strings.Contains(err.Error(), "cannot impersonate")
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

// Referring are the executors for which a binding that refers to the role
// named by kind ("Role" or "ClusterRole"), namespace and name was tried in a
// dry run: a change of that role's rules may change whether they may
// create the binding, as a change of their own rights would.
func (a *Authorizer) Referring(kind, namespace, name string) []string {
	return a.referring.of(RoleKey(kind, namespace, name))
}

// Epoch counts the Invalidate calls so far.
func (a *Authorizer) Epoch() uint64 { return a.epoch.Load() }

// AllExecutors is the user that Invalidate reads as every executor.
const AllExecutors = "*"

// decision is a remembered answer: of a review (allowed), or of a dry run
// of an object with the digest (allowed, or refused saying why).
type decision struct {
	allowed bool
	digest  string
	refused string
}

// decisions are the remembered answers, per executor. A nil *decisions
// remembers nothing.
type decisions struct {
	mu     sync.RWMutex
	byUser map[string]map[Access]decision
}

func (d *decisions) get(user string, access Access) (decision, bool) {
	if d == nil {
		return decision{}, false
	}
	d.mu.RLock()
	defer d.mu.RUnlock()
	got, found := d.byUser[user][access]
	return got, found
}

// put remembers a decision if current, checked under the lock that forget
// holds while it starts a new epoch, says it is still of the current epoch.
func (d *decisions) put(user string, access Access, got decision, current func() bool) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !current() {
		return
	}
	m := d.byUser[user]
	if m == nil {
		m = map[Access]decision{}
		d.byUser[user] = m
	}
	m[access] = got
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

// referrers are the executors that referred to each role in a binding's dry
// run. They are few (the roles bindings in works refer to, times their
// executors) and kept for the agent's life.
type referrers struct {
	mu     sync.Mutex
	byRole map[string]map[string]bool
}

func (r *referrers) add(role, user string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	users := r.byRole[role]
	if users == nil {
		users = map[string]bool{}
		r.byRole[role] = users
	}
	users[user] = true
}

func (r *referrers) of(role string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for user := range r.byRole[role] {
		out = append(out, user)
	}
	slices.Sort(out)
	return out
}
