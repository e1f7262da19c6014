// Package executorcache keeps the agent's executor permission decisions in
// step with RBAC on the managed cluster. It watches Roles, ClusterRoles and
// their bindings; when one changes it finds the executors it concerns, drops
// what the agent remembers about them and has their works retried at once,
// so that a denied manifest is applied as soon as a grant arrives.
package executorcache

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	"github.com/openshift/library-go/pkg/operator/events"
	rbacv1 "k8s.io/api/rbac/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	rbacinformers "k8s.io/client-go/informers/rbac/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/executor"
	"github.com/manifestwork/work/pkg/metrics"
)

// ControllerName names the controller in logs, events and its queue.
const ControllerName = "ExecutorCacheController"

// Invalidator forgets the decisions about an executor, or about all of them
// for executor.AllExecutors. Referring names the executors whose decisions
// about a binding rest on the rules of a role (kind Role or ClusterRole)
// the binding refers to.
type Invalidator interface {
	Invalidate(user string)
	Referring(kind, namespace, name string) []string
}

// Deps are the controller's collaborators.
type Deps struct {
	RBAC        rbacinformers.Interface // RBAC objects of the managed cluster
	Invalidator Invalidator
	// Changed is told, after the decisions were dropped, which executor's
	// permissions may have changed (executor.AllExecutors for all).
	Changed  func(ctx context.Context, user string)
	Recorder events.Recorder
}

type controller struct {
	Deps
	roleBindings        cache.Indexer
	clusterRoleBindings cache.Indexer
	queue               func(keys ...string)
	logger              klog.Logger
}

// New returns the controller, ready to Run. It adds indexes to the binding
// informers, so it must be called before they start.
func New(d Deps) (factory.Controller, error) {
	syncCtx := factory.NewSyncContext(ControllerName, d.Recorder)
	c := &controller{Deps: d, logger: klog.Background().WithName(ControllerName)}
	c.queue = func(keys ...string) {
		for _, k := range keys {
			syncCtx.Queue().Add(k)
		}
	}
	rb, crb := d.RBAC.RoleBindings().Informer(), d.RBAC.ClusterRoleBindings().Informer()
	if err := rb.AddIndexers(cache.Indexers{roleRefIndex: indexRoleBinding}); err != nil {
		return nil, fmt.Errorf("indexing RoleBindings: %w", err)
	}
	if err := crb.AddIndexers(cache.Indexers{roleRefIndex: indexClusterRoleBinding}); err != nil {
		return nil, fmt.Errorf("indexing ClusterRoleBindings: %w", err)
	}
	c.roleBindings, c.clusterRoleBindings = rb.GetIndexer(), crb.GetIndexer()
	roles, clusterRoles := d.RBAC.Roles().Informer(), d.RBAC.ClusterRoles().Informer()
	for _, inf := range []cache.SharedIndexInformer{rb, crb, roles, clusterRoles} {
		if _, err := inf.AddEventHandler(c.handler()); err != nil {
			return nil, err
		}
	}
	return factory.New().
		WithSyncContext(syncCtx).
		WithBareInformers(rb, crb, roles, clusterRoles).
		WithSync(metrics.InstrumentSync(ControllerName, c.sync)).
		ToController(ControllerName, d.Recorder), nil
}

// settleDelay is how long after an RBAC change the decisions about its
// executors are dropped once more. The API server authorizes from its own
// watch of the RBAC objects, which may see a change a moment after the agent
// does: a review sent in between answers as before the change, and that
// answer must not stay.
const settleDelay = time.Second

// settlePrefix marks the queue key of the second pass after a change.
const settlePrefix = "settle:"

// sync drops the decisions about one executor and passes the news on; after
// a change it does so again a moment later.
func (c *controller) sync(ctx context.Context, syncCtx factory.SyncContext) error {
	key := syncCtx.QueueKey()
	user, settling := strings.CutPrefix(key, settlePrefix)
	if !settling {
		syncCtx.Queue().AddAfter(settlePrefix+user, settleDelay)
	}
	klog.FromContext(ctx).V(2).Info("RBAC changed; forgetting executor decisions", "executor", user, "settling", settling)
	c.Invalidator.Invalidate(user)
	if c.Changed != nil {
		c.Changed(ctx, user)
	}
	return nil
}

// handler queues the executors an RBAC change concerns. The objects listed
// when the informers start change nothing: nothing was decided before.
func (c *controller) handler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, initial bool) {
			if !initial {
				c.queue(c.executors(obj)...)
			}
		},
		UpdateFunc: func(old, obj any) {
			if grantsSame(old, obj) {
				return // a resync, or a change of metadata or status only
			}
			c.queue(c.executors(old)...)
			c.queue(c.executors(obj)...)
		},
		DeleteFunc: func(obj any) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			c.queue(c.executors(obj)...)
		},
	}
}

// grantsSame tells whether an update leaves what an RBAC object grants, and
// to whom, as it was.
func grantsSame(old, obj any) bool {
	switch o := old.(type) {
	case *rbacv1.Role:
		n, ok := obj.(*rbacv1.Role)
		return ok && apiequality.Semantic.DeepEqual(o.Rules, n.Rules)
	case *rbacv1.ClusterRole:
		n, ok := obj.(*rbacv1.ClusterRole)
		return ok && apiequality.Semantic.DeepEqual(o.Rules, n.Rules)
	case *rbacv1.RoleBinding:
		n, ok := obj.(*rbacv1.RoleBinding)
		return ok && o.RoleRef == n.RoleRef && apiequality.Semantic.DeepEqual(o.Subjects, n.Subjects)
	case *rbacv1.ClusterRoleBinding:
		n, ok := obj.(*rbacv1.ClusterRoleBinding)
		return ok && o.RoleRef == n.RoleRef && apiequality.Semantic.DeepEqual(o.Subjects, n.Subjects)
	}
	return false
}

// executors are the executors whose permissions an RBAC object decides: the
// subjects of a binding, or of every binding of a role and those whose
// bindings in works refer to the role (whether they may create such a
// binding depends on the role's rules).
func (c *controller) executors(obj any) []string {
	switch o := obj.(type) {
	case *rbacv1.RoleBinding:
		return executorsOf(o.Namespace, o.Subjects)
	case *rbacv1.ClusterRoleBinding:
		return executorsOf("", o.Subjects)
	case *rbacv1.Role:
		return append(c.boundTo(executor.RoleKey("Role", o.Namespace, o.Name)), c.Invalidator.Referring("Role", o.Namespace, o.Name)...)
	case *rbacv1.ClusterRole:
		return append(c.boundTo(executor.RoleKey("ClusterRole", "", o.Name)), c.Invalidator.Referring("ClusterRole", "", o.Name)...)
	}
	c.logger.Error(nil, "Ignoring an event of an unexpected type", "type", fmt.Sprintf("%T", obj))
	return nil
}

// boundTo are the executors of every binding that grants the role.
func (c *controller) boundTo(role string) []string {
	var out []string
	for _, indexer := range []cache.Indexer{c.roleBindings, c.clusterRoleBindings} {
		objs, err := indexer.ByIndex(roleRefIndex, role)
		if err != nil {
			c.logger.Error(err, "Cannot look up the bindings of a role", "role", role)
			return []string{executor.AllExecutors}
		}
		for _, obj := range objs {
			out = append(out, c.executors(obj)...)
		}
	}
	return out
}
