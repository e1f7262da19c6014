package webhook

import (
	"context"
	"fmt"
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

const (
	// executeAsVerb is the virtual verb that lets a hub user name an executor.
	executeAsVerb = "execute-as"
	// manifestWorksResource is the resource the verb is granted on.
	manifestWorksResource = "manifestworks"
	// defaultExecutor is the agent's own identity, checked for a work
	// without an executor when NilExecutorValidating is on.
	defaultExecutor = "system:serviceaccount::klusterlet-work-sa"
)

// SubjectAccessReviews creates SubjectAccessReviews on the hub; the
// AuthorizationV1().SubjectAccessReviews() of a clientset is one.
type SubjectAccessReviews interface {
	Create(ctx context.Context, sar *authorizationv1.SubjectAccessReview, opts metav1.CreateOptions) (*authorizationv1.SubjectAccessReview, error)
}

// authorize allows the write if the requesting user may execute as executor
// in the work's namespace, and refuses it otherwise, also when the hub cannot
// answer.
func (r *reviewer) authorize(ctx context.Context, req *admissionv1.AdmissionRequest, work *workv1.ManifestWork, executor string) *admissionv1.AdmissionResponse {
	user := req.UserInfo
	sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
		User:   user.Username,
		Groups: user.Groups,
		UID:    user.UID,
		ResourceAttributes: &authorizationv1.ResourceAttributes{
			Namespace: req.Namespace,
			Verb:      executeAsVerb,
			Group:     workv1.GroupName,
			Resource:  manifestWorksResource,
			Name:      executor,
		},
	}}
	if len(user.Extra) > 0 {
		sar.Spec.Extra = make(map[string]authorizationv1.ExtraValue, len(user.Extra))
		for k, v := range user.Extra {
			sar.Spec.Extra[k] = authorizationv1.ExtraValue(v)
		}
	}
	what := fmt.Sprintf("use executor %s", executor)
	if work.Spec.Executor == nil {
		what = fmt.Sprintf("leave spec.executor empty (NilExecutorValidating checks it as %s)", executor)
	}

	got, err := r.sars.Create(ctx, sar, metav1.CreateOptions{})
	if err != nil {
		return deny(http.StatusInternalServerError, metav1.StatusReasonInternalError,
			fmt.Sprintf("cannot check whether user %q may %s in namespace %s, so the write is refused: SubjectAccessReview failed: %v",
				user.Username, what, req.Namespace, err))
	}
	if got.Status.Allowed {
		return allow()
	}
	msg := fmt.Sprintf(`user %q may not %s in namespace %s: it needs verb %q on %s.%s with resourceNames [%q] (see docs/admission.md)`,
		user.Username, what, req.Namespace, executeAsVerb, manifestWorksResource, workv1.GroupName, executor)
	if got.Status.EvaluationError != "" {
		msg += "; the authorizer reported: " + got.Status.EvaluationError
	}
	resp := deny(http.StatusForbidden, metav1.StatusReasonForbidden, msg)
	resp.Result.Details = &metav1.StatusDetails{Group: workv1.GroupName, Kind: manifestWorksResource, Name: work.Name}
	return resp
}
