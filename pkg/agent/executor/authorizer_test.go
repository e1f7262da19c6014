package executor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
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

func TestMayApplyRBACObjectsNeedsEscalateAndBind(t *testing.T) {
	role := toUnstructured(t, &rbacv1.Role{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "reader"},
	})
	binding := toUnstructured(t, &rbacv1.RoleBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "readers"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "view"},
	})
	rbac := executortest.NewRBAC()
	for _, resource := range []string{"roles", "rolebindings"} {
		for _, verb := range []string{"get", "create", "update", "patch", "delete"} {
			rbac.Grant(executor1, verb, "rbac.authorization.k8s.io", resource)
		}
	}
	a := rbac.Authorizer(false)

	err := a.MayApply(context.Background(), executorOf(t), roles, role, "", false)
	require.ErrorIs(t, err, executor.ErrDenied)
	assert.Equal(t, "not allowed to apply the resource rbac.authorization.k8s.io roles, team reader, error: permission escalation, will try again in 1m0s", err.Error())

	err = a.MayApply(context.Background(), executorOf(t), roleBindings, binding, "", false)
	require.ErrorIs(t, err, executor.ErrDenied)
	assert.Equal(t, "not allowed to apply the resource rbac.authorization.k8s.io rolebindings, team readers, error: permission escalation, will try again in 1m0s", err.Error())

	rbac.Grant(executor1, "escalate", "rbac.authorization.k8s.io", "roles")
	assert.NoError(t, a.MayApply(context.Background(), executorOf(t), roles, role, "", false))
	rbac.Grant(executor1, "bind", "rbac.authorization.k8s.io", "roles")
	assert.ErrorIs(t, a.MayApply(context.Background(), executorOf(t), roleBindings, binding, "", false), executor.ErrDenied,
		"bind is checked on the role the binding refers to")
	rbac.Grant(executor1, "bind", "rbac.authorization.k8s.io", "clusterroles")
	assert.NoError(t, a.MayApply(context.Background(), executorOf(t), roleBindings, binding, "", false))
	reader := executortest.NewRBAC()
	reader.Grant(executor1, "get", "rbac.authorization.k8s.io", "roles")
	assert.NoError(t, reader.Authorizer(false).MayApply(context.Background(), executorOf(t), roles, role, workv1.UpdateStrategyTypeReadOnly, false),
		"reading a role escalates nothing")
}

func TestNoExecutorSendsNoReview(t *testing.T) {
	rbac := executortest.NewRBAC()
	cm := toUnstructured(t, fixture.ConfigMap("team", "settings", nil))
	a := rbac.Authorizer(false)
	require.NoError(t, a.MayApply(context.Background(), nil, configMaps, cm, "", false))
	require.NoError(t, a.MayDelete(context.Background(), nil, configMaps, "team", "settings"))
	assert.Zero(t, rbac.Reviews())
}

func TestMayDelete(t *testing.T) {
	rbac := executortest.NewRBAC()
	a := rbac.Authorizer(false)
	err := a.MayDelete(context.Background(), executorOf(t), configMaps, "team", "settings")
	require.ErrorIs(t, err, executor.ErrDenied)
	assert.Contains(t, err.Error(), `not allowed to delete configmaps "settings" in namespace "team"`)
	rbac.Grant(executor1, "delete", "", "configmaps")
	assert.NoError(t, a.MayDelete(context.Background(), executorOf(t), configMaps, "team", "settings"))
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
