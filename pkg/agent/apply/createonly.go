package apply

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// createOnlyStrategy creates the object when it is missing and never touches
// it afterwards, whatever its content: another work or controller may take
// the object over.
type createOnlyStrategy struct{}

func (createOnlyStrategy) Apply(ctx context.Context, client dynamic.Interface, req Request) (Result, error) {
	ctx = withRequestLogger(ctx, req, workv1.UpdateStrategyTypeCreateOnly)
	rc := resourceClient(client, req)
	live, created, err := getOrCreate(ctx, rc, req, forCreate(req))
	switch {
	case err != nil:
		return Result{}, err
	case created:
		return Result{Object: live, Written: true, Differences: &diff.Report{}}, nil
	case ownersSettledBy(workv1.UpdateStrategyTypeCreateOnly, req, live.GetOwnerReferences()):
		// Never repaired, but reported.
		return Result{Object: live, Differences: compare(req.Desired, live)}, nil
	}
	// Created while the work owned it, and orphaned since: it only loses
	// our owner reference.
	res, err := settleOwner(ctx, rc, req, live, false)
	if res.Object != nil {
		res.Differences = compare(req.Desired, res.Object)
	}
	return res, err
}

// getOrCreate returns the live object, creating obj when there is none;
// created tells which happened. With KnownAbsent it trusts the cache and
// creates straight away; when the cache was behind, or another actor created
// the object since, AlreadyExists sends it back to reading the object.
func getOrCreate(ctx context.Context, rc dynamic.ResourceInterface, req Request, obj *unstructured.Unstructured) (live *unstructured.Unstructured, created bool, err error) {
	if !req.KnownAbsent {
		live, err = rc.Get(ctx, obj.GetName(), metav1.GetOptions{})
		if err == nil {
			return live, false, nil
		}
		if !apierrors.IsNotFound(err) {
			return nil, false, failed(err)
		}
	}
	live, err = rc.Create(ctx, obj, metav1.CreateOptions{FieldManager: DefaultFieldManager})
	if err == nil {
		klog.FromContext(ctx).V(2).Info("Created object")
		return live, true, nil
	}
	if !apierrors.IsAlreadyExists(err) {
		return nil, false, failed(err)
	}
	klog.FromContext(ctx).V(4).Info("Object already exists, reading it")
	live, err = rc.Get(ctx, obj.GetName(), metav1.GetOptions{})
	if err != nil {
		return nil, false, failed(err)
	}
	return live, false, nil
}

// withRequestLogger names the object in every log line of one apply.
func withRequestLogger(ctx context.Context, req Request, strategy workv1.UpdateStrategyType) context.Context {
	logger := klog.FromContext(ctx).WithValues(
		"strategy", strategy,
		"resource", req.Resource.String(),
		"namespace", req.Desired.GetNamespace(),
		"name", req.Desired.GetName(),
	)
	return klog.NewContext(ctx, logger)
}
