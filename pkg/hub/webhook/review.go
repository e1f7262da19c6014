package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/admission"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// manifestWorkKind is the kind this webhook reviews.
var manifestWorkKind = schema.GroupKind{Group: workv1.GroupName, Kind: "ManifestWork"}

// reviewer decides on ManifestWork and WorkOverride writes.
type reviewer struct {
	sars                  SubjectAccessReviews
	manifestLimit         int
	nilExecutorValidating bool
}

// review decides on one request: an UPDATE that leaves spec as it was is
// allowed at once; any other CREATE or UPDATE must carry valid manifests and
// an executor the requesting user may execute as. It never returns nil.
func (r *reviewer) review(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	resp := r.decide(ctx, req)
	resp.UID = req.UID
	if !resp.Allowed {
		klog.FromContext(ctx).V(2).Info("Denied a write", "kind", req.Kind.Kind,
			"namespace", req.Namespace, "name", req.Name, "operation", req.Operation,
			"user", req.UserInfo.Username, "reason", resp.Result.Reason, "message", resp.Result.Message)
	}
	return resp
}

func (r *reviewer) decide(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	switch (schema.GroupKind{Group: req.Kind.Group, Kind: req.Kind.Kind}) {
	case manifestWorkKind:
	case overrideKind:
		return decideOverride(req)
	default:
		return deny(http.StatusBadRequest, metav1.StatusReasonBadRequest,
			fmt.Sprintf("this webhook reviews only %s and %s, not %s; check the rules of its ValidatingWebhookConfiguration",
				manifestWorkKind, overrideKind, schema.GroupKind{Group: req.Kind.Group, Kind: req.Kind.Kind}))
	}
	work := &workv1.ManifestWork{}
	if done := specWrite(req, work, manifestWorkKind.Kind); done != nil {
		return done // finalizers, labels, annotations, deletion: no execute-as needed
	}

	if err := admission.Validate(work, admission.Options{ManifestLimit: r.manifestLimit}); err != nil {
		return refuse(err)
	}
	executor, err := executorOf(work, r.nilExecutorValidating)
	if err != nil {
		return refuse(err)
	}
	if executor == nil {
		return allow()
	}
	return r.authorize(ctx, req, work, executor)
}

// specWrite decodes the object of a CREATE or UPDATE of spec into obj, and
// is nil then: the write is to be reviewed. Otherwise it is the answer:
// allowed for status writes, deletions and updates that leave spec as it
// was; refused for an object that cannot be read.
func specWrite(req *admissionv1.AdmissionRequest, obj any, kind string) *admissionv1.AdmissionResponse {
	if req.SubResource != "" || (req.Operation != admissionv1.Create && req.Operation != admissionv1.Update) {
		return allow() // status writes and deletions carry no spec to check
	}
	if err := json.Unmarshal(req.Object.Raw, obj); err != nil {
		return deny(http.StatusBadRequest, metav1.StatusReasonBadRequest, "cannot decode the "+kind+": "+err.Error())
	}
	if req.Operation == admissionv1.Update {
		same, err := sameSpec(req.OldObject.Raw, req.Object.Raw)
		if err != nil {
			return deny(http.StatusBadRequest, metav1.StatusReasonBadRequest, "cannot compare the "+kind+" with its previous version: "+err.Error())
		}
		if same {
			return allow()
		}
	}
	return nil
}

// defaultExecutor is the executor OCM checks a work without one as, when
// NilExecutorValidating is on: the agent's own service account, with no
// namespace.
var defaultExecutor = workv1.ManifestWorkSubjectServiceAccount{Name: "klusterlet-work-sa"}

// executorOf is the service account a work's executor stands for, or nil
// when the work names none and NilExecutorValidating is off. An executor
// without one is refused with OCM's message.
func executorOf(work *workv1.ManifestWork, nilExecutorValidating bool) (*workv1.ManifestWorkSubjectServiceAccount, error) {
	if work.Spec.Executor == nil {
		if nilExecutorValidating {
			return &defaultExecutor, nil
		}
		return nil, nil
	}
	sa := work.Spec.Executor.Subject.ServiceAccount
	if sa == nil {
		return nil, apierrors.NewBadRequest(admission.MessageNoServiceAccount)
	}
	return sa, nil
}

// sameSpec reports whether two encodings of a ManifestWork have equal specs,
// compared as JSON values so that key order and spacing do not matter.
func sameSpec(oldRaw, newRaw []byte) (bool, error) {
	var before, after struct {
		Spec any `json:"spec"`
	}
	if err := json.Unmarshal(oldRaw, &before); err != nil {
		return false, err
	}
	if err := json.Unmarshal(newRaw, &after); err != nil {
		return false, err
	}
	return reflect.DeepEqual(before.Spec, after.Spec), nil
}

// refuse answers with the status of an API error.
func refuse(err error) *admissionv1.AdmissionResponse {
	status := apierrors.NewInternalError(err).ErrStatus
	if s, ok := err.(apierrors.APIStatus); ok {
		status = s.Status()
	}
	return &admissionv1.AdmissionResponse{Allowed: false, Result: &status}
}

func allow() *admissionv1.AdmissionResponse { return &admissionv1.AdmissionResponse{Allowed: true} }

func deny(code int32, reason metav1.StatusReason, message string) *admissionv1.AdmissionResponse {
	return &admissionv1.AdmissionResponse{Allowed: false, Result: &metav1.Status{
		Status: metav1.StatusFailure, Code: code, Reason: reason, Message: message,
	}}
}
