package executorcache

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/openshift/library-go/pkg/operator/events"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/clock"

	"github.com/manifestwork/work/pkg/agent/executor"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/framework"
)

const (
	executor1 = "system:serviceaccount:default:executor1"
	executor3 = "system:serviceaccount:team:executor3"
)

func TestExecutorsOf(t *testing.T) {
	for _, tc := range []struct {
		name     string
		subjects []rbacv1.Subject
		want     []string
	}{
		{"service account", []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: "default", Name: "executor1"}}, []string{executor1}},
		{"service account in the binding's namespace", []rbacv1.Subject{{Kind: "ServiceAccount", Name: "executor1"}}, []string{"system:serviceaccount:team:executor1"}},
		{"user named as a service account", []rbacv1.Subject{{Kind: "User", Name: executor1}}, []string{executor1}},
		{"other users", []rbacv1.Subject{{Kind: "User", Name: "alice"}, {Kind: "Group", Name: "admins"}}, nil},
		{"all service accounts", []rbacv1.Subject{{Kind: "Group", Name: "system:serviceaccounts"}}, []string{executor.AllExecutors}},
		{"a namespace's service accounts", []rbacv1.Subject{{Kind: "Group", Name: "system:serviceaccounts:team"}}, []string{executor.AllExecutors}},
		{"authenticated", []rbacv1.Subject{{Kind: "Group", Name: "system:authenticated"}}, []string{executor.AllExecutors}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, executorsOf("team", tc.subjects))
		})
	}
}

// recorder is an Invalidator that remembers what it was told; referring
// are the executors whose bindings in works refer to each role.
type recorder struct {
	ct.Calls
	referring map[string][]string
}

func (r *recorder) Invalidate(user string) { r.Add(user) }

func (r *recorder) Referring(kind, namespace, name string) []string {
	return r.referring[executor.RoleKey(kind, namespace, name)]
}

// The controller maps each RBAC change to the executors it concerns: a
// binding's subjects, the subjects of every binding of a changed role; it
// ignores the objects that were there at start and updates that grant
// nothing new.
func TestRBACChangesInvalidateTheirExecutors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	edit := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "edit"},
		Rules: []rbacv1.PolicyRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"configmaps"}}}}
	binding := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "executor1-edit"},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "edit"},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: "executor1"}}}
	client := kubefake.NewClientset(edit, binding)
	informers := kubeinformers.NewSharedInformerFactory(client, 0)
	inv := &recorder{referring: map[string][]string{"Role/team/reader": {executor3}}}
	var changed ct.Calls
	c, err := New(Deps{
		RBAC: informers.Rbac().V1(), Invalidator: inv,
		Changed:  func(_ context.Context, user string) { changed.Add(user) },
		Recorder: events.NewInMemoryRecorder("test", clock.RealClock{}),
	})
	require.NoError(t, err)
	informers.Start(ctx.Done())
	informers.WaitForCacheSync(ctx.Done())
	go c.Run(ctx, 1)

	// Each change is seen twice: at once, and again when the API server's
	// authorizer has surely seen it too.
	var want []string
	waitFor := func(users ...string) {
		t.Helper()
		for _, u := range users {
			want = append(want, u, u)
		}
		framework.Eventually(t, 10*time.Second, func() error {
			if got := inv.List(); !slices.Equal(got, want) {
				return fmt.Errorf("got %v", got)
			}
			return nil
		}, "invalidations %v", want)
	}
	rbac := client.RbacV1()

	// The role's rules change: its binding's executor is concerned.
	edit.Rules[0].Verbs = []string{"get", "create"}
	_, err = rbac.ClusterRoles().Update(ctx, edit, metav1.UpdateOptions{})
	require.NoError(t, err)
	waitFor(executor1)

	// A new binding to every service account concerns every executor.
	_, err = rbac.ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "all"},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "view"},
		Subjects: []rbacv1.Subject{{Kind: "Group", Name: "system:serviceaccounts"}}}, metav1.CreateOptions{})
	require.NoError(t, err)
	waitFor(executor.AllExecutors)

	// Only labels change, of a role and of a binding: nothing is granted
	// differently. The next change, for another executor, is the next one seen.
	edit.Labels = map[string]string{"touched": "yes"}
	_, err = rbac.ClusterRoles().Update(ctx, edit, metav1.UpdateOptions{})
	require.NoError(t, err)
	binding.Labels = map[string]string{"touched": "yes"}
	_, err = rbac.RoleBindings("default").Update(ctx, binding, metav1.UpdateOptions{})
	require.NoError(t, err)
	_, err = rbac.RoleBindings("default").Create(ctx, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "executor2-view"},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "view"},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: "executor2"}}}, metav1.CreateOptions{})
	require.NoError(t, err)
	executor2 := "system:serviceaccount:default:executor2"
	waitFor(executor2)

	// The binding goes: its executor loses what it granted.
	require.NoError(t, rbac.RoleBindings("default").Delete(ctx, binding.Name, metav1.DeleteOptions{}))
	waitFor(executor1)

	// A role no binding grants is created: whether an executor may bind
	// it depends on its rules, so the executor whose binding refers to it
	// is concerned.
	_, err = rbac.Roles("team").Create(ctx, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "reader"},
		Rules: edit.Rules}, metav1.CreateOptions{})
	require.NoError(t, err)
	waitFor(executor3)
	assert.Equal(t, want, changed.List())
}
