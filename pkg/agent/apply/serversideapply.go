package apply

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// DefaultFieldManager is the field manager of server-side apply when the
// manifestConfig names none.
const DefaultFieldManager = "work-agent"

// serverSideApplyStrategy applies the manifest with server-side apply, so
// the server merges it field by field and reports fields that other
// managers own as conflicts.
type serverSideApplyStrategy struct{}

// applyOptions are the server-side apply settings of a manifestConfig.
type applyOptions struct {
	fieldManager string
	force        bool
	ignoreFields []workv1.IgnoreField
}

// applyOptionsOf reads the serverSideApply block.
//
// Force defaults to false when the block is absent. The documented
// behaviour depends on it: a work that only says "type: ServerSideApply"
// must report a conflict when an HPA or another work with its own field
// manager owns a field it sets (spec: "Resource Race and Adoption"); forcing
// would silently take the field over and make the two fight instead. Users
// who want to take fields over say force: true.
func applyOptionsOf(config *workv1.ManifestConfigOption) applyOptions {
	opts := applyOptions{fieldManager: DefaultFieldManager}
	if config == nil || config.UpdateStrategy == nil || config.UpdateStrategy.ServerSideApply == nil {
		return opts
	}
	ssa := config.UpdateStrategy.ServerSideApply
	opts.force = ssa.Force
	opts.ignoreFields = ssa.IgnoreFields
	if ssa.FieldManager != "" {
		opts.fieldManager = ssa.FieldManager
	}
	return opts
}

func (serverSideApplyStrategy) Apply(ctx context.Context, client dynamic.Interface, req Request) (Result, error) {
	ctx = withRequestLogger(ctx, req, workv1.UpdateStrategyTypeServerSideApply)
	opts := applyOptionsOf(req.Config)
	rules, err := parseIgnoreFields(opts.ignoreFields)
	if err != nil {
		return Result{}, err
	}
	configHash, err := ConfigSpecHash(req.Desired, req.Config)
	if err != nil {
		return Result{}, failed(err)
	}
	live, err := readLive(ctx, client, req)
	switch {
	case apierrors.IsNotFound(err):
		live = nil // the apply creates it
	case err != nil:
		return Result{}, failed(err)
	}

	body := withoutServerSetMetadata(req.Desired)
	if live != nil {
		workUnchanged := live.GetAnnotations()[workv1.ConfigSpecHashAnnotation] == configHash
		keepLiveValues(ctx, body, live, rules, workUnchanged)
		if workUnchanged && upToDate(body, live, req.Owner) {
			klog.FromContext(ctx).V(4).Info("Object is up to date")
			return Result{Object: live}, nil
		}
	}
	if err := stampForApply(body, live, req, configHash); err != nil {
		return Result{Object: live}, failed(err)
	}
	return patch(ctx, client, req, body, opts, live)
}

// stampForApply adds the owner reference and both hash annotations to body.
//
// An apply sets the whole list of owner references its manager owns, and
// every work applies with the same default manager; sending only our
// reference would take away the one of another work sharing the object, so
// live's references are sent along.
func stampForApply(body, live *unstructured.Unstructured, req Request, configHash string) error {
	objectHash, err := ObjectHash(req.Desired)
	if err != nil {
		return err
	}
	var owners []metav1.OwnerReference
	if live != nil {
		owners = live.GetOwnerReferences()
	}
	body.SetOwnerReferences(unionOwners(owners, append(body.GetOwnerReferences(), req.Owner)...))
	setAnnotation(body, workv1.ObjectHashAnnotation, objectHash)
	setAnnotation(body, workv1.ConfigSpecHashAnnotation, configHash)
	return nil
}

// patch sends body as an apply patch. live, possibly nil, is what the
// result holds when the patch fails.
func patch(ctx context.Context, client dynamic.Interface, req Request, body *unstructured.Unstructured, opts applyOptions, live *unstructured.Unstructured) (Result, error) {
	data, err := body.MarshalJSON()
	if err != nil {
		return Result{Object: live}, failed(err)
	}
	applied, err := resourceClient(client, req).Patch(ctx, body.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{
		FieldManager: opts.fieldManager,
		Force:        &opts.force,
	})
	if err != nil {
		// A conflict's message from the server lists the conflicting
		// managers and fields, which is what the user needs to resolve it.
		return Result{Object: live}, failed(err)
	}
	klog.FromContext(ctx).V(2).Info("Applied object", "fieldManager", opts.fieldManager, "force", opts.force)
	return Result{Object: applied, Written: true}, nil
}
