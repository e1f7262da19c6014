package webhook

import (
	"context"

	admissionv1 "k8s.io/api/admission/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/admission"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/serviceaccount"
)

const (
	// executeAsVerb is the virtual verb that lets a hub user name an executor.
	executeAsVerb = "execute-as"
	// manifestWorksResource is the resource the verb is granted on.
	manifestWorksResource = "manifestworks"
)

// SubjectAccessReviews creates SubjectAccessReviews on the hub; the
// AuthorizationV1().SubjectAccessReviews() of a clientset is one.
type SubjectAccessReviews interface {
	Create(ctx context.Context, sar *authorizationv1.SubjectAccessReview, opts metav1.CreateOptions) (*authorizationv1.SubjectAccessReview, error)
}

// authorize allows the write if the requesting user may execute as executor
// in the work's namespace, and refuses it otherwise, also when the hub cannot
// answer; both refusals are OCM's: BadRequest, with its messages.
func (r *reviewer) authorize(ctx context.Context, req *admissionv1.AdmissionRequest, work *workv1.ManifestWork, executor *workv1.ManifestWorkSubjectServiceAccount) *admissionv1.AdmissionResponse {
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
			Name:      serviceaccount.User(executor.Namespace, executor.Name),
		},
	}}
	if len(user.Extra) > 0 {
		sar.Spec.Extra = make(map[string]authorizationv1.ExtraValue, len(user.Extra))
		for k, v := range user.Extra {
			sar.Spec.Extra[k] = authorizationv1.ExtraValue(v)
		}
	}
	got, err := r.sars.Create(ctx, sar, metav1.CreateOptions{})
	if err != nil {
		klog.FromContext(ctx).V(2).Info("Cannot check execute-as, refusing the write", "user", user.Username,
			"executor", sar.Spec.ResourceAttributes.Name, "err", err)
		return refuse(apierrors.NewBadRequest(err.Error()))
	}
	if got.Status.Allowed {
		return allow()
	}
	if got.Status.EvaluationError != "" {
		klog.FromContext(ctx).V(2).Info("The authorizer reported an error on execute-as", "user", user.Username,
			"executor", sar.Spec.ResourceAttributes.Name, "err", got.Status.EvaluationError)
	}
	return refuse(apierrors.NewBadRequest(admission.ExecutorNotAllowed(user.Username, executor.Namespace, executor.Name, work.Namespace)))
}
