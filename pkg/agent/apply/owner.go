package apply

import (
	"context"
	"encoding/json"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"
)

// addOwner gives obj the owner reference to the AppliedManifestWork with a
// patch of its own, unless it already carries it; written tells whether obj
// was already written by the caller. The reference is never part of a
// server-side apply body: there, every work that applies with the same field
// manager would take away the references of the others, and another field
// manager applying the same object would co-own ours.
//
// The merge patch replaces the whole list, so it carries obj's UID and
// resourceVersion as preconditions; when the object changed meanwhile it is
// read again and the patch decided anew.
func addOwner(ctx context.Context, rc dynamic.ResourceInterface, req Request, obj *unstructured.Unstructured, written bool) (Result, error) {
	for attempt := 1; ; attempt++ {
		if hasOwner(obj.GetOwnerReferences(), req.Owner) {
			return Result{Object: obj, Written: written}, nil
		}
		data, err := json.Marshal(map[string]any{"metadata": map[string]any{
			"uid":             obj.GetUID(),
			"resourceVersion": obj.GetResourceVersion(),
			"ownerReferences": unionOwners(obj.GetOwnerReferences(), req.Owner),
		}})
		if err != nil {
			return Result{Object: obj, Written: written}, failed(err)
		}
		patched, err := rc.Patch(ctx, obj.GetName(), types.MergePatchType, data, metav1.PatchOptions{FieldManager: DefaultFieldManager})
		if err == nil {
			klog.FromContext(ctx).V(2).Info("Added owner reference", "owner", req.Owner.Name)
			return Result{Object: patched, Written: true}, nil
		}
		if !apierrors.IsConflict(err) || attempt == maxUpdateAttempts {
			return Result{Object: obj, Written: written}, failed(err)
		}
		if obj, err = rc.Get(ctx, obj.GetName(), metav1.GetOptions{}); err != nil {
			return Result{Written: written}, failed(err)
		}
	}
}
