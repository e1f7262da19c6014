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

// Apply never fails, as in OCM, whose ReadOnly does not even read the
// object: the manifest is Applied whatever the read finds. A missing object
// is applied without an object, and its Available condition, False, tells
// that it does not exist. An object the agent cannot read (it may not, or the
// server failed) is applied without a comparison (Result.Unread), and its
// Available condition, Unknown (FetchingResourceFailed), carries the
// server's message.
func (readOnlyStrategy) Apply(ctx context.Context, client dynamic.Interface, req Request) (Result, error) {
	live, err := readLive(ctx, client, req)
	switch {
	case apierrors.IsNotFound(err):
		return Result{}, nil
	case err != nil:
		return Result{Unread: err}, nil
	}
	// The compliance check: does the cluster still hold what the manifest says?
	return Result{Object: live, Differences: compare(req.Desired, live)}, nil
}
