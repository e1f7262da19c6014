package apply

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// DefaultFieldManager is the field manager of the agent's writes: of
// server-side apply when the manifestConfig names none, and of every create,
// update and owner patch. Naming it, rather than leaving the API server to
// derive it from the client's user agent, keeps the agent's own writes out
// of the writers a drift report names.
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

// OwnWriter tells whether writer, an object's last field manager (see
// objectwatch.LastWriter), is the agent writing for a manifest with config:
// the agent's own field manager, or the one its server-side apply config
// names.
func OwnWriter(config *workv1.ManifestConfigOption, writer string) bool {
	return writer != "" && (writer == DefaultFieldManager || writer == applyOptionsOf(config).fieldManager)
}

func (serverSideApplyStrategy) Apply(ctx context.Context, client dynamic.Interface, req Request) (Result, error) {
	ctx = withRequestLogger(ctx, req, workv1.UpdateStrategyTypeServerSideApply)
	opts := applyOptionsOf(req.Config)
	rules, err := parseIgnoreFields(opts.ignoreFields)
	if err != nil {
		return Result{}, err
	}
	live, err := readLive(ctx, client, req)
	switch {
	case apierrors.IsNotFound(err):
		live = nil // the apply creates it
	case err != nil:
		return Result{}, failed(err)
	}

	// The body is the manifest and nothing else: no annotation and no owner
	// reference of the agent's, so the fields this field manager owns are
	// exactly the fields the manifest sets, and a conflict can only ever
	// name one of them.
	body := withoutServerSetMetadata(req.Desired)
	rc := resourceClient(client, req)
	var before *diff.Report
	if live != nil {
		if err := keepLiveValues(ctx, body, live, rules, req); err != nil {
			return Result{Object: live, Differences: compare(req.Desired, live)}, err
		}
		before = compare(body, live)
		// A removal (diff.RemovedKey) is sent as it is, as OCM's agent
		// sends it, and the API server refuses it: it is never in sync.
		if !workChanged(req) && before.InSync() && !diff.AsksRemovals(body) {
			klog.FromContext(ctx).V(4).Info("Object is up to date")
			res, err := settleOwner(ctx, rc, req, live, false)
			res.Differences = unrepaired(req, rules, res.Object)
			return res, err
		}
	}
	applied, err := patch(ctx, client, req, body, opts)
	if err != nil {
		// A conflict leaves the fields to their other managers: report them.
		res := Result{Object: live}
		if live != nil {
			res.Differences = compare(req.Desired, live)
		}
		return res, err
	}
	res, err := settleOwner(ctx, rc, req, applied, true)
	res.Differences = unrepaired(req, rules, res.Object)
	if before != nil {
		res.Repaired = repaired(req, before, live, opts.fieldManager)
	}
	return res, err
}

// unrepaired is where obj, just applied, differs from the manifest: only in
// fields that ignoreFields keep at their live values.
func unrepaired(req Request, rules []ignoreRule, obj *unstructured.Unstructured) *diff.Report {
	switch {
	case obj == nil:
		return nil
	case len(rules) == 0:
		return &diff.Report{}
	}
	return compare(req.Desired, obj)
}

// patch sends body as an apply patch.
func patch(ctx context.Context, client dynamic.Interface, req Request, body *unstructured.Unstructured, opts applyOptions) (*unstructured.Unstructured, error) {
	data, err := body.MarshalJSON()
	if err != nil {
		return nil, failed(err)
	}
	applied, err := resourceClient(client, req).Patch(ctx, body.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{
		FieldManager: opts.fieldManager,
		Force:        &opts.force,
	})
	if err != nil {
		// A conflict's message from the server lists the conflicting
		// managers and fields, which is what the user needs to resolve it.
		return nil, failed(err)
	}
	klog.FromContext(ctx).V(2).Info("Applied object", "fieldManager", opts.fieldManager, "force", opts.force)
	return applied, nil
}
