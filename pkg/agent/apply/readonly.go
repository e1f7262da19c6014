package apply

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/dynamic"
)

// readOnlyStrategy only reads the object, so that status feedback and
// condition rules can use it; it never writes, and needs only the manifest's
// identifying metadata.
type readOnlyStrategy struct{}

// Apply of a missing object succeeds without an object, as in OCM (whose
// ReadOnly does not even read it): the manifest is Applied, and its
// Available condition, False, tells that the object does not exist.
func (readOnlyStrategy) Apply(ctx context.Context, client dynamic.Interface, req Request) (Result, error) {
	live, err := readLive(ctx, client, req)
	if apierrors.IsNotFound(err) {
		return Result{}, nil
	}
	if err != nil {
		return Result{}, failed(err)
	}
	// The compliance check: does the cluster still hold what the manifest says?
	return Result{Object: live, Differences: compare(req.Desired, live)}, nil
}
