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

	"github.com/manifestwork/work/pkg/agent/apply"
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

	_, err = executor.User(&workv1.ManifestWorkExecutor{Subject: workv1.ManifestWorkExecutorSubject{Type: workv1.ExecutorSubjectTypeServiceAccount}})
	var applyErr *apply.Error
	require.ErrorAs(t, err, &applyErr)
	assert.Contains(t, applyErr.Message, "needs spec.executor.subject.serviceAccount")
}

func TestMayApplyChecksTheVerbsOfEachStrategy(t *testing.T) {
	cm := toUnstructured(t, fixture.ConfigMap("team", "settings", nil))
	for _, tc := range []struct {
		strategy workv1.UpdateStrategyType
		verbs    string
	}{
		{"", "get, create, update"},
		{workv1.UpdateStrategyTypeUpdate, "get, create, update"},
		{workv1.UpdateStrategyTypeCreateOnly, "get, create"},
		{workv1.UpdateStrategyTypeServerSideApply, "get, create, patch"},
		{workv1.UpdateStrategyTypeReadOnly, "get"},
	} {
		t.Run(string(tc.strategy), func(t *testing.T) {
			rbac := executortest.NewRBAC()
			err := rbac.Authorizer(false).MayApply(context.Background(), executorOf(t), configMaps, cm, tc.strategy)
			require.ErrorIs(t, err, executor.ErrDenied)
			assert.Equal(t, "executor "+executor1+" is not allowed to "+tc.verbs+
				` configmaps "settings" in namespace "team" on the managed cluster; grant it with RBAC there and the agent retries at once`, err.Error())

			for _, verb := range []string{"get", "create", "update", "patch"} {
				rbac.Grant(executor1, verb, "", "configmaps")
			}
			require.NoError(t, rbac.Authorizer(false).MayApply(context.Background(), executorOf(t), configMaps, cm, tc.strategy))
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
		for _, verb := range []string{"get", "create", "update"} {
			rbac.Grant(executor1, verb, "rbac.authorization.k8s.io", resource)
		}
	}
	a := rbac.Authorizer(false)

	err := a.MayApply(context.Background(), executorOf(t), roles, role, "")
	require.ErrorIs(t, err, executor.ErrDenied)
	assert.Contains(t, err.Error(), `not allowed to escalate roles.rbac.authorization.k8s.io "reader" in namespace "team"`)

	err = a.MayApply(context.Background(), executorOf(t), roleBindings, binding, "")
	require.ErrorIs(t, err, executor.ErrDenied)
	assert.Contains(t, err.Error(), `not allowed to bind clusterroles.rbac.authorization.k8s.io "view" in namespace "team"`,
		"bind is checked on the role the binding refers to, in the binding's namespace")

	rbac.Grant(executor1, "escalate", "rbac.authorization.k8s.io", "roles")
	rbac.Grant(executor1, "bind", "rbac.authorization.k8s.io", "clusterroles")
	assert.NoError(t, a.MayApply(context.Background(), executorOf(t), roles, role, ""))
	assert.NoError(t, a.MayApply(context.Background(), executorOf(t), roleBindings, binding, ""))
	assert.NoError(t, a.MayApply(context.Background(), executorOf(t), roles, role, workv1.UpdateStrategyTypeReadOnly),
		"reading a role escalates nothing")
}

func TestNoExecutorSendsNoReview(t *testing.T) {
	rbac := executortest.NewRBAC()
	cm := toUnstructured(t, fixture.ConfigMap("team", "settings", nil))
	a := rbac.Authorizer(false)
	require.NoError(t, a.MayApply(context.Background(), nil, configMaps, cm, ""))
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
	}{{caching: false, wantRepeated: 3}, {caching: true, wantRepeated: 0}} {
		rbac := executortest.NewRBAC()
		a := rbac.Authorizer(tc.caching)
		require.Error(t, a.MayApply(ctx, executorOf(t), configMaps, cm, ""))
		require.Equal(t, 3, rbac.Reviews(), "get, create and update")
		require.Error(t, a.MayApply(ctx, executorOf(t), configMaps, cm, ""))
		assert.Equal(t, 3+tc.wantRepeated, rbac.Reviews(), "caching=%v", tc.caching)

		for _, verb := range []string{"get", "create", "update"} {
			rbac.Grant(executor1, verb, "", "configmaps")
		}
		epoch := a.Epoch()
		a.Invalidate("system:serviceaccount:default:someone-else")
		if tc.caching {
			assert.Error(t, a.MayApply(ctx, executorOf(t), configMaps, cm, ""), "another executor's change keeps the decisions")
		}
		a.Invalidate(executor1)
		assert.Equal(t, epoch+2, a.Epoch())
		assert.NoError(t, a.MayApply(ctx, executorOf(t), configMaps, cm, ""))
		before := rbac.Reviews()
		assert.NoError(t, a.MayApply(ctx, executorOf(t), configMaps, cm, ""))
		assert.Equal(t, tc.wantRepeated, rbac.Reviews()-before, "caching=%v", tc.caching)

		a.Invalidate(executor.AllExecutors)
		before = rbac.Reviews()
		assert.NoError(t, a.MayApply(ctx, executorOf(t), configMaps, cm, ""))
		assert.Equal(t, 3, rbac.Reviews()-before, "everything is forgotten")
	}
}

func TestReviewErrorIsNotADenial(t *testing.T) {
	rbac := executortest.NewRBAC()
	rbac.Client.PrependReactor("create", "subjectaccessreviews", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, errors.New("connection refused")
	})
	cm := toUnstructured(t, fixture.ConfigMap("team", "settings", nil))
	err := rbac.Authorizer(true).MayApply(context.Background(), executorOf(t), configMaps, cm, "")
	require.Error(t, err)
	assert.NotErrorIs(t, err, executor.ErrDenied)
	assert.Contains(t, err.Error(), "checking whether executor "+executor1+" may get configmaps")
}
