package executor_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/manifestwork/work/pkg/agent/executor"
	"github.com/manifestwork/work/pkg/agent/executor/executortest"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

const executor1 = "system:serviceaccount:default:executor1"

var (
	configMaps   = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	roles        = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"}
	roleBindings = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"}
)

func executorOf(t *testing.T) *workv1.ManifestWorkExecutor {
	t.Helper()
	return fixture.NewWork("cluster1", "w").WithExecutor("default", "executor1").Build().Spec.Executor
}

func toUnstructured(t *testing.T, obj runtime.Object) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	require.NoError(t, err)
	return &unstructured.Unstructured{Object: m}
}

func TestUser(t *testing.T) {
	user, err := executor.User(nil)
	require.NoError(t, err)
	assert.Empty(t, user, "no executor: the agent acts as itself")

	user, err = executor.User(executorOf(t))
	require.NoError(t, err)
	assert.Equal(t, executor1, user)

	for _, tc := range []struct {
		subject workv1.ManifestWorkExecutorSubject
		message string
	}{
		{workv1.ManifestWorkExecutorSubject{Type: "User"}, "only support ServiceAccount type for the executor"},
		{workv1.ManifestWorkExecutorSubject{Type: workv1.ExecutorSubjectTypeServiceAccount}, "the executor service account is nil"},
		{workv1.ManifestWorkExecutorSubject{Type: workv1.ExecutorSubjectTypeServiceAccount, ServiceAccount: &workv1.ManifestWorkSubjectServiceAccount{Name: "x"}},
			"executor of type ServiceAccount needs spec.executor.subject.serviceAccount with namespace and name"},
	} {
		_, err = executor.User(&workv1.ManifestWorkExecutor{Subject: tc.subject})
		assert.EqualError(t, err, tc.message, "OCM's words where OCM has some")
	}
}

// TestMayApplyAsksTheVerbsOfOCM: an executor needs the verbs OCM's agent asks
// for (create, update, patch, get, and delete for an object the work owns),
// whatever the strategy but ReadOnly, and a denial reads as OCM's does.
func TestMayApplyAsksTheVerbsOfOCM(t *testing.T) {
	cm := toUnstructured(t, fixture.ConfigMap("team", "settings", nil))
	for _, tc := range []struct {
		name     string
		strategy workv1.UpdateStrategyType
		orphaned bool
		verbs    []string
	}{
		{"default", "", false, []string{"create", "update", "patch", "get", "delete"}},
		{"Update", workv1.UpdateStrategyTypeUpdate, false, []string{"create", "update", "patch", "get", "delete"}},
		{"Update orphaned", workv1.UpdateStrategyTypeUpdate, true, []string{"create", "update", "patch", "get"}},
		{"CreateOnly", workv1.UpdateStrategyTypeCreateOnly, false, []string{"create", "update", "patch", "get", "delete"}},
		{"ServerSideApply orphaned", workv1.UpdateStrategyTypeServerSideApply, true, []string{"create", "update", "patch", "get"}},
		{"ServerSideApply", workv1.UpdateStrategyTypeServerSideApply, false, []string{"create", "update", "patch", "get", "delete"}},
		{"ReadOnly", workv1.UpdateStrategyTypeReadOnly, false, []string{"get"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rbac := executortest.NewRBAC()
			err := rbac.Authorizer(false).MayApply(context.Background(), executorOf(t), configMaps, cm, tc.strategy, tc.orphaned)
			require.ErrorIs(t, err, executor.ErrDenied)
			assert.Equal(t, "not allowed to apply the resource  configmaps, team settings, will try again in 1m0s", err.Error())

			for i := range tc.verbs {
				rbac := executortest.NewRBAC()
				for j, verb := range tc.verbs {
					if j != i {
						rbac.Grant(executor1, verb, "", "configmaps")
					}
				}
				assert.ErrorIs(t, rbac.Authorizer(false).MayApply(context.Background(), executorOf(t), configMaps, cm, tc.strategy, tc.orphaned),
					executor.ErrDenied, "without %s", tc.verbs[i])
				rbac.Grant(executor1, tc.verbs[i], "", "configmaps")
				assert.NoError(t, rbac.Authorizer(false).MayApply(context.Background(), executorOf(t), configMaps, cm, tc.strategy, tc.orphaned))
			}
		})
	}
}

func role(namespace, name string, rules ...rbacv1.PolicyRule) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
		"metadata": map[string]any{"namespace": namespace, "name": name},
		"rules":    rulesOf(rules),
	}}
}

func rulesOf(rules []rbacv1.PolicyRule) []any {
	var out []any
	for _, r := range rules {
		m, _ := runtime.DefaultUnstructuredConverter.ToUnstructured(&r)
		out = append(out, m)
	}
	return out
}

func binding(resource schema.GroupVersionResource, namespace, name, roleKind, roleName string) *unstructured.Unstructured {
	kind := map[string]string{"rolebindings": "RoleBinding", "clusterrolebindings": "ClusterRoleBinding"}[resource.Resource]
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind,
		"metadata": map[string]any{"namespace": namespace, "name": name},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": roleKind, "name": roleName},
		"subjects": []any{map[string]any{"kind": "ServiceAccount", "namespace": "team", "name": "reader"}},
	}}
}

var (
	getConfigMaps       = rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}}
	getSecrets          = rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get"}}
	clusterRoleBindings = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"}
)

// An RBAC object is checked as the API server would check the executor
// writing it: SubjectAccessReviews for the verbs, then a dry-run create as
// the executor, whose escalation rules decide. A role granting what the
// executor holds needs no escalate, a binding to such a role no bind; what
// the API server refuses is refused with OCM's words and the server's reason.
func TestMayApplyRBACObjectsAsTheAPIServerWould(t *testing.T) {
	const escalation = "not allowed to apply the resource rbac.authorization.k8s.io %s, team %s, error: permission escalation: " +
		`user "` + executor1 + `" is attempting to grant RBAC permissions not currently held: %s, will try again in 1m0s`
	for _, tc := range []struct {
		name     string
		gvr      schema.GroupVersionResource
		obj      *unstructured.Unstructured
		strategy workv1.UpdateStrategyType
		grants   []string // verb/resource beyond the write verbs on roles and bindings and get configmaps
		noWrites bool     // without the write verbs on roles and bindings
		want     string   // the denial, "" when allowed; "error: ..." for an error that is no denial
		dryRuns  int
	}{
		{name: "role granting what the executor holds", gvr: roles, obj: role("team", "reader", getConfigMaps), dryRuns: 1},
		{name: "role granting more", gvr: roles, obj: role("team", "reader", getConfigMaps, getSecrets), dryRuns: 1,
			want: fmt.Sprintf(escalation, "roles", "reader", `{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`)},
		{name: "role granting more, with escalate", gvr: roles, obj: role("team", "reader", getSecrets), grants: []string{"escalate/roles"}, dryRuns: 1},
		{name: "role read only", gvr: roles, obj: role("team", "reader", getSecrets), strategy: workv1.UpdateStrategyTypeReadOnly},
		{name: "binding to a role the executor holds", gvr: roleBindings, obj: binding(roleBindings, "team", "readers", "Role", "reader"), dryRuns: 1},
		{name: "binding to a cluster role it does not hold", gvr: roleBindings, obj: binding(roleBindings, "team", "readers", "ClusterRole", "secrets-reader"), dryRuns: 1,
			want: fmt.Sprintf(escalation, "rolebindings", "readers", `{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`)},
		{name: "binding to it with bind", gvr: roleBindings, obj: binding(roleBindings, "team", "readers", "ClusterRole", "secrets-reader"),
			grants: []string{"bind/clusterroles"}, dryRuns: 1},
		{name: "binding to a missing role", gvr: clusterRoleBindings, obj: binding(clusterRoleBindings, "", "readers", "ClusterRole", "missing"), dryRuns: 1,
			want: `error: creating clusterrolebindings.rbac.authorization.k8s.io "readers" as executor ` + executor1 +
				` in a dry run: clusterroles.rbac.authorization.k8s.io "missing" not found`},
		{name: "role without the verbs on roles", gvr: roles, obj: role("team", "reader", getConfigMaps), noWrites: true,
			want: "not allowed to apply the resource rbac.authorization.k8s.io roles, team reader, will try again in 1m0s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rbac := executortest.NewRBAC()
			rbac.Grant(executor1, "get", "", "configmaps")
			rbac.Role("Role", "team", "reader", getConfigMaps)
			rbac.Role("ClusterRole", "", "secrets-reader", getSecrets)
			if !tc.noWrites {
				for _, resource := range []string{"roles", "rolebindings", "clusterrolebindings"} {
					for _, verb := range []string{"get", "create", "update", "patch", "delete"} {
						rbac.Grant(executor1, verb, "rbac.authorization.k8s.io", resource)
					}
				}
			}
			for _, g := range tc.grants {
				verb, resource, _ := strings.Cut(g, "/")
				rbac.Grant(executor1, verb, "rbac.authorization.k8s.io", resource)
			}
			err := rbac.Authorizer(false).MayApply(context.Background(), executorOf(t), tc.gvr, tc.obj, tc.strategy, false)
			switch {
			case tc.want == "":
				assert.NoError(t, err)
			case strings.HasPrefix(tc.want, "error: "):
				require.Error(t, err)
				assert.NotErrorIs(t, err, executor.ErrDenied)
				assert.Equal(t, strings.TrimPrefix(tc.want, "error: "), err.Error())
			default:
				require.ErrorIs(t, err, executor.ErrDenied)
				assert.Equal(t, tc.want, err.Error())
			}
			assert.Len(t, rbac.DryRuns(), tc.dryRuns)
			for _, d := range rbac.DryRuns() {
				assert.Equal(t, executor1, d.User, "as the executor")
			}
		})
	}
}

// With caching, a dry run's answer is remembered for the object's content:
// the same object asks nothing, a changed one asks again, and so does any
// object once the executor's RBAC changed. A binding's executor is known
// to refer to its role, whose changes the executorcache controller then
// passes on.
func TestCachedDryRunsFollowTheObject(t *testing.T) {
	ctx := context.Background()
	rbac := executortest.NewRBAC()
	for _, verb := range []string{"get", "create", "update", "patch", "delete"} {
		rbac.Grant(executor1, verb, "rbac.authorization.k8s.io", "roles")
		rbac.Grant(executor1, verb, "rbac.authorization.k8s.io", "rolebindings")
	}
	rbac.Grant(executor1, "get", "", "configmaps")
	rbac.Role("ClusterRole", "", "secrets-reader", getSecrets)
	a := rbac.Authorizer(true)

	reader := role("team", "reader", getConfigMaps)
	require.NoError(t, a.MayApply(ctx, executorOf(t), roles, reader, "", false))
	require.NoError(t, a.MayApply(ctx, executorOf(t), roles, reader, "", false))
	assert.Len(t, rbac.DryRuns(), 1, "the same object: remembered")
	reviews := rbac.Reviews()

	relabelled := reader.DeepCopy()
	relabelled.SetLabels(map[string]string{"team": "a"})
	require.NoError(t, a.MayApply(ctx, executorOf(t), roles, relabelled, "", false))
	assert.Len(t, rbac.DryRuns(), 1, "labels decide nothing")

	wider := role("team", "reader", getConfigMaps, getSecrets)
	require.ErrorIs(t, a.MayApply(ctx, executorOf(t), roles, wider, "", false), executor.ErrDenied)
	require.ErrorIs(t, a.MayApply(ctx, executorOf(t), roles, wider, "", false), executor.ErrDenied)
	assert.Len(t, rbac.DryRuns(), 2, "new rules: asked once, the denial remembered")
	assert.Equal(t, reviews, rbac.Reviews(), "the verbs were decided already")

	rbac.Grant(executor1, "get", "", "secrets")
	a.Invalidate(executor1)
	require.NoError(t, a.MayApply(ctx, executorOf(t), roles, wider, "", false))
	assert.Len(t, rbac.DryRuns(), 3, "asked again after an RBAC change")

	assert.Empty(t, a.Referring("ClusterRole", "", "secrets-reader"))
	require.NoError(t, a.MayApply(ctx, executorOf(t), roleBindings, binding(roleBindings, "team", "readers", "ClusterRole", "secrets-reader"), "", false))
	assert.Equal(t, []string{executor1}, a.Referring("ClusterRole", "", "secrets-reader"))
	assert.Empty(t, a.Referring("Role", "team", "secrets-reader"))
}

func TestNoExecutorSendsNoReview(t *testing.T) {
	rbac := executortest.NewRBAC()
	cm := toUnstructured(t, fixture.ConfigMap("team", "settings", nil))
	a := rbac.Authorizer(false)
	require.NoError(t, a.MayApply(context.Background(), nil, configMaps, cm, "", false))
	assert.Zero(t, rbac.Reviews())
}

// With caching, a decision costs one review until RBAC changes for that
// executor; without, every check asks again.
func TestCachingRemembersUntilInvalidated(t *testing.T) {
	cm := toUnstructured(t, fixture.ConfigMap("team", "settings", nil))
	ctx := context.Background()
	for _, tc := range []struct {
		caching      bool
		wantRepeated int
	}{{caching: false, wantRepeated: 5}, {caching: true, wantRepeated: 0}} {
		rbac := executortest.NewRBAC()
		a := rbac.Authorizer(tc.caching)
		require.Error(t, a.MayApply(ctx, executorOf(t), configMaps, cm, "", false))
		require.Equal(t, 5, rbac.Reviews(), "create, update, patch, get and delete")
		require.Error(t, a.MayApply(ctx, executorOf(t), configMaps, cm, "", false))
		assert.Equal(t, 5+tc.wantRepeated, rbac.Reviews(), "caching=%v", tc.caching)

		for _, verb := range []string{"get", "create", "update", "patch", "delete"} {
			rbac.Grant(executor1, verb, "", "configmaps")
		}
		epoch := a.Epoch()
		a.Invalidate("system:serviceaccount:default:someone-else")
		if tc.caching {
			assert.Error(t, a.MayApply(ctx, executorOf(t), configMaps, cm, "", false), "another executor's change keeps the decisions")
		}
		a.Invalidate(executor1)
		assert.Equal(t, epoch+2, a.Epoch())
		assert.NoError(t, a.MayApply(ctx, executorOf(t), configMaps, cm, "", false))
		before := rbac.Reviews()
		assert.NoError(t, a.MayApply(ctx, executorOf(t), configMaps, cm, "", false))
		assert.Equal(t, tc.wantRepeated, rbac.Reviews()-before, "caching=%v", tc.caching)

		a.Invalidate(executor.AllExecutors)
		before = rbac.Reviews()
		assert.NoError(t, a.MayApply(ctx, executorOf(t), configMaps, cm, "", false))
		assert.Equal(t, 5, rbac.Reviews()-before, "everything is forgotten")
	}
}

func TestReviewErrorIsNotADenial(t *testing.T) {
	rbac := executortest.NewRBAC()
	rbac.Client.PrependReactor("create", "subjectaccessreviews", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("connection refused")
	})
	cm := toUnstructured(t, fixture.ConfigMap("team", "settings", nil))
	err := rbac.Authorizer(true).MayApply(context.Background(), executorOf(t), configMaps, cm, "", false)
	require.Error(t, err)
	assert.NotErrorIs(t, err, executor.ErrDenied)
	assert.Contains(t, err.Error(), "checking whether executor "+executor1+" may create configmaps")
}

// An agent without impersonate on the executor's ServiceAccount cannot make
// the dry run: an error of the agent's, not a denial of the executor.
func TestImpersonationRefusedIsNoDenial(t *testing.T) {
	rbac := executortest.NewRBAC()
	for _, verb := range []string{"get", "create", "update", "patch", "delete"} {
		rbac.Grant(executor1, verb, "rbac.authorization.k8s.io", "roles")
	}
	refused := executor.DryRunsWith(func(string) (dynamic.Interface, error) {
		client := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())
		client.PrependReactor("create", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "serviceaccounts"}, "executor1",
				errors.New(`User "system:serviceaccount:open-cluster-management-agent:klusterlet-work-sa" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "default"`))
		})
		return client, nil
	})
	a := executor.New(rbac.Client.AuthorizationV1().SubjectAccessReviews(), refused, true)
	err := a.MayApply(context.Background(), executorOf(t), roles, role("team", "reader", getConfigMaps), "", false)
	require.Error(t, err)
	assert.NotErrorIs(t, err, executor.ErrDenied)
	assert.Contains(t, err.Error(), "cannot impersonate")
}

// A dry run refused by something other than the escalation rules (an
// admission webhook, here one that gives no reason at all) is a denial all
// the same, never taken for an allowed one, and never remembered: it may
// change without any RBAC change, so the next check asks again.
func TestOtherRefusalsOfTheDryRunDenyAndAreAskedAgain(t *testing.T) {
	rbac := executortest.NewRBAC()
	for _, verb := range []string{"get", "create", "update", "patch", "delete"} {
		rbac.Grant(executor1, verb, "rbac.authorization.k8s.io", "roles")
	}
	for _, reason := range []string{`admission webhook "deny.example.com" denied the request: no roles on Fridays`, ""} {
		t.Run(reason, func(t *testing.T) {
			dryRuns := 0
			refusing := executor.DryRunsWith(func(string) (dynamic.Interface, error) {
				client := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())
				client.PrependReactor("create", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
					dryRuns++
					return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "rbac.authorization.k8s.io", Resource: "roles"}, "reader", errors.New(reason))
				})
				return client, nil
			})
			a := executor.New(rbac.Client.AuthorizationV1().SubjectAccessReviews(), refusing, true)
			for range 2 {
				err := a.MayApply(context.Background(), executorOf(t), roles, role("team", "reader", getConfigMaps), "", false)
				require.ErrorIs(t, err, executor.ErrDenied)
				assert.Contains(t, err.Error(), "error: permission escalation")
				assert.Contains(t, err.Error(), reason)
			}
			assert.Equal(t, 2, dryRuns, "asked each time")
		})
	}
}
