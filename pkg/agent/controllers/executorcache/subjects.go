package executorcache

import (
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/manifestwork/work/pkg/agent/executor"
	"github.com/manifestwork/work/pkg/serviceaccount"
)

// executorsOf are the executors whose permissions a binding's subjects
// decide: ServiceAccounts by name, users named like ServiceAccounts, and
// AllExecutors for the groups every ServiceAccount belongs to. namespace is
// the binding's, the default of a ServiceAccount subject's namespace.
func executorsOf(namespace string, subjects []rbacv1.Subject) []string {
	var out []string
	for _, s := range subjects {
		switch s.Kind {
		case rbacv1.ServiceAccountKind:
			ns := s.Namespace
			if ns == "" {
				ns = namespace
			}
			out = append(out, serviceaccount.User(ns, s.Name))
		case rbacv1.UserKind:
			if _, _, ok := serviceaccount.Split(s.Name); ok {
				out = append(out, s.Name)
			}
		case rbacv1.GroupKind:
			if serviceaccount.IsGroup(s.Name) { // a binding to it concerns every executor
				return []string{executor.AllExecutors}
			}
		}
	}
	return out
}

// roleRefIndex indexes bindings by the role they grant (executor.RoleKey),
// so that a change of a role finds the executors it concerns.
const roleRefIndex = "roleRef"

func indexRoleBinding(obj any) ([]string, error) {
	b, ok := obj.(*rbacv1.RoleBinding)
	if !ok {
		return nil, nil
	}
	return []string{executor.RoleKey(b.RoleRef.Kind, b.Namespace, b.RoleRef.Name)}, nil
}

func indexClusterRoleBinding(obj any) ([]string, error) {
	b, ok := obj.(*rbacv1.ClusterRoleBinding)
	if !ok {
		return nil, nil
	}
	return []string{executor.RoleKey(b.RoleRef.Kind, "", b.RoleRef.Name)}, nil
}
