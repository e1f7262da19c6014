package apply

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// recreate replaces live by obj when the API server would refuse to change
// field in place (a Secret's type): it deletes live, on condition that it is
// still the object read, and creates obj, which carries live's metadata as an
// update would, our owner reference included.
//
// A live object changed or replaced since it was read fails the delete with
// a Conflict, which sends the caller back to reading it. A live object held
// by finalizers outlives the delete; the create then fails with a message
// that says so, and a later sync tries again.
func recreate(ctx context.Context, rc dynamic.ResourceInterface, req Request, live, obj *unstructured.Unstructured, differences *diff.Report, field string) (Result, error) {
	logger := klog.FromContext(ctx)
	keep := Result{Object: live, Differences: differences}
	preconditions := metav1.Preconditions{}
	if uid := live.GetUID(); uid != "" {
		preconditions.UID = &uid
	}
	if rv := live.GetResourceVersion(); rv != "" {
		preconditions.ResourceVersion = &rv
	}
	err := rc.Delete(ctx, live.GetName(), metav1.DeleteOptions{Preconditions: &preconditions})
	switch {
	case apierrors.IsConflict(err):
		return keep, err
	case err != nil && !apierrors.IsNotFound(err):
		return keep, failed(err)
	}
	logger.V(2).Info("Deleted object to create it anew", "field", field, "uid", live.GetUID())

	obj = obj.DeepCopy()
	obj.SetResourceVersion("")
	obj.SetUID(types.UID(""))
	created, err := rc.Create(ctx, obj, metav1.CreateOptions{FieldManager: DefaultFieldManager})
	if apierrors.IsAlreadyExists(err) {
		return Result{Differences: differences}, &Error{
			Reason: workv1.ManifestAppliedReasonFailed,
			Message: fmt.Sprintf("%s %q cannot change %s in place; it was deleted to be created anew and is still being deleted (finalizers %v)",
				live.GetKind(), live.GetName(), field, live.GetFinalizers()),
			Err: err,
		}
	}
	if err != nil {
		return Result{Differences: differences}, failed(err)
	}
	logger.V(2).Info("Created object anew", "field", field, "uid", created.GetUID())
	return Result{Object: created, Written: true, Differences: &diff.Report{}, Repaired: repaired(req, differences, live, DefaultFieldManager)}, nil
}
