// Package executor decides whether the executor a ManifestWork names may do
// on the managed cluster what the agent is about to do on its behalf.
//
// A work whose spec.executor names a ServiceAccount is applied by the agent
// with its own credentials, but only after SubjectAccessReviews on the
// managed cluster have shown that the ServiceAccount could have done each
// write itself, and, for an RBAC object, after a server-side dry run as the
// ServiceAccount has shown that the API server's escalation rules let it
// write that object, as OCM's agent checks. A work without executor is
// applied as the agent. Deleting is not checked: the agent deletes what a
// work owns as itself, as OCM's agent does, so that a work whose executor
// lost its rights can still be deleted.
package executor

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/serviceaccount"
)

// User is the user name the executor of a work acts as on the managed
// cluster, "" when the work names no executor (the agent acts as itself).
// An executor the agent cannot act for fails with OCM's words.
func User(e *workv1.ManifestWorkExecutor) (string, error) {
	if e == nil || e.Subject.Type == "" && e.Subject.ServiceAccount == nil {
		return "", nil
	}
	if e.Subject.Type != workv1.ExecutorSubjectTypeServiceAccount {
		return "", fmt.Errorf("only support %s type for the executor", workv1.ExecutorSubjectTypeServiceAccount)
	}
	sa := e.Subject.ServiceAccount
	if sa == nil {
		return "", errors.New("the executor service account is nil")
	}
	if sa.Namespace == "" || sa.Name == "" {
		// The API refuses such a work; one that got through anyway is not
		// reviewed as a user without namespace or name.
		return "", errors.New("executor of type ServiceAccount needs spec.executor.subject.serviceAccount with namespace and name")
	}
	return serviceaccount.User(sa.Namespace, sa.Name), nil
}

// Access is one request the executor must be allowed: a verb on a resource,
// for one object.
type Access struct {
	Verb      string
	Group     string
	Resource  string
	Namespace string
	Name      string
}

// on describes the object of an access for people, as
// `configmaps "web" in namespace "default"`.
func (a Access) on() string {
	resource := schema.GroupResource{Group: a.Group, Resource: a.Resource}.String()
	if a.Namespace == "" {
		return fmt.Sprintf("%s %q", resource, a.Name)
	}
	return fmt.Sprintf("%s %q in namespace %q", resource, a.Name, a.Namespace)
}

// describeAccesses lists accesses per object, in order, as
// `get, create configmaps "web" in namespace "default"`.
func describeAccesses(accesses []Access) string {
	byObject := map[string][]string{}
	var objects []string
	for _, a := range accesses {
		o := a.on()
		if _, seen := byObject[o]; !seen {
			objects = append(objects, o)
		}
		byObject[o] = append(byObject[o], a.Verb)
	}
	parts := make([]string, len(objects))
	for i, o := range objects {
		parts[i] = strings.Join(byObject[o], ", ") + " " + o
	}
	return strings.Join(parts, "; ")
}

// RetryWithin is how long at the latest the agent waits before it applies a
// manifest denied to its executor again (at once when RBAC changes); the
// manifestwork controller's backoff never exceeds it. The denial's message
// says so, in the words of OCM's agent.
const RetryWithin = time.Minute

// applyDeniedError is the denial of an apply, worded as OCM's agent words it
// so that the manifest's Applied condition reads the same: the object's
// group, resource, namespace and name, and when the agent tries again. A
// refusal of the API server's escalation rules (refused, from a dry run as
// the executor) is OCM's "permission escalation", followed by what the API
// server said the executor lacks.
func applyDeniedError(gvr schema.GroupVersionResource, namespace, name string, refused *string) error {
	message := fmt.Sprintf("not allowed to apply the resource %s %s, %s %s", gvr.Group, gvr.Resource, namespace, name)
	if refused != nil {
		message += ", error: permission escalation"
		if *refused != "" {
			message += ": " + *refused
		}
	}
	return &denial{message: message + ", will try again in " + RetryWithin.String()}
}

// maxMissing is how many of the rights the API server says an executor
// lacks a denial names.
const maxMissing = 5

// escalationReason is what a Forbidden answer to a dry run as the executor
// says, on one line and without the executor's groups: for the escalation
// rules, as `user "…" is attempting to grant RBAC permissions not currently
// held: {…}; {…}`, naming at most maxMissing rights. escalation tells the
// refusal came from those rules (and so from the executor's rights alone).
func escalationReason(err error) (reason string, escalation bool) {
	var status apierrors.APIStatus
	message := err.Error()
	if errors.As(err, &status) && status.Status().Message != "" {
		message = status.Status().Message
	}
	if _, after, found := strings.Cut(message, " is forbidden: "); found {
		message = after
	}
	message = groupsList.ReplaceAllString(message, "")
	escalation = strings.Contains(message, "is attempting to grant RBAC permissions not currently held") ||
		strings.Contains(message, "must have cluster-admin privileges to use the aggregationRule")
	head, rights, found := strings.Cut(message, ":\n")
	if !found {
		return strings.Join(strings.Fields(message), " "), escalation
	}
	lines := strings.Split(rights, "\n")
	if len(lines) > maxMissing {
		lines = append(lines[:maxMissing:maxMissing], fmt.Sprintf("and %d more", len(lines)-maxMissing))
	}
	return head + ": " + strings.Join(lines, "; "), escalation
}

// groupsList is the executor's groups in the API server's refusal: the same
// for every ServiceAccount of a namespace, and noise in a condition.
var groupsList = regexp.MustCompile(` \(groups=\[[^\]]*\]\)`)

// ErrDenied is wrapped by every error that says the executor lacks a permission.
var ErrDenied = errors.New("executor not allowed")

// denial is an error that says the executor lacks a permission. Its message
// is all the manifest's Applied condition shows; it wraps ErrDenied.
type denial struct{ message string }

func (d *denial) Error() string { return d.message }

func (d *denial) Unwrap() error { return ErrDenied }
