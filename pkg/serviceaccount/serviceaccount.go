// Package serviceaccount names the user a ServiceAccount authenticates as, and
// the groups the API server puts that user in, as Kubernetes defines them: the
// hub's admission and the agent's executor checks must agree on both.
package serviceaccount

import "strings"

const (
	userPrefix = "system:serviceaccount:"
	// allGroup holds every ServiceAccount; namespaceGroupPrefix, followed by
	// a namespace, those of that namespace; authenticatedGroup every user
	// the API server authenticated.
	allGroup             = "system:serviceaccounts"
	namespaceGroupPrefix = "system:serviceaccounts:"
	authenticatedGroup   = "system:authenticated"
)

// User is the user name of the ServiceAccount namespace/name.
func User(namespace, name string) string {
	return userPrefix + namespace + ":" + name
}

// Split returns the namespace and name of a ServiceAccount's user name; ok is
// false for any other user.
func Split(user string) (namespace, name string, ok bool) {
	rest, found := strings.CutPrefix(user, userPrefix)
	if !found {
		return "", "", false
	}
	namespace, name, ok = strings.Cut(rest, ":")
	return namespace, name, ok && namespace != "" && name != ""
}

// Groups are the groups the API server puts user in when it is a
// ServiceAccount's; RBAC bindings to these groups grant it too.
func Groups(user string) []string {
	groups := []string{allGroup, authenticatedGroup}
	if namespace, _, ok := Split(user); ok {
		groups = append(groups, namespaceGroupPrefix+namespace)
	}
	return groups
}

// IsGroup tells whether group is one of those the API server puts
// ServiceAccounts in: every ServiceAccount's, a namespace's, or every
// authenticated user's.
func IsGroup(group string) bool {
	return group == allGroup || group == authenticatedGroup || strings.HasPrefix(group, namespaceGroupPrefix)
}
