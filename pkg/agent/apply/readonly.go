package apply

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/dynamic"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// readOnlyStrategy only reads the object, so that status feedback and
// condition rules can use it; it never writes, and needs only the manifest's
// identifying metadata.
type readOnlyStrategy struct{}

func (readOnlyStrategy) Apply(ctx context.Context, client dynamic.Interface, req Request) (Result, error) {
	live, err := readLive(ctx, client, req)
	if apierrors.IsNotFound(err) {
		// Nothing will create the object for a ReadOnly manifest, so say so
		// rather than repeat the server's generic "not found".
		return Result{}, &Error{
			Reason:  workv1.ManifestAppliedReasonFailed,
			Message: fmt.Sprintf("%s %s does not exist (ReadOnly)", req.Desired.GetKind(), objectKey(req)),
			Err:     err,
		}
	}
	if err != nil {
		return Result{}, failed(err)
	}
	// The compliance check: does the cluster still hold what the manifest says?
	return Result{Object: live, Differences: compare(req.Desired, live)}, nil
}

// objectKey is namespace/name, or name for a cluster-scoped object.
func objectKey(req Request) string {
	if ns := req.Desired.GetNamespace(); ns != "" {
		return ns + "/" + req.Desired.GetName()
	}
	return req.Desired.GetName()
}
