package apply

import (
	"context"
	"encoding/json"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
)

// ownerUpkeep is what each strategy does to the owner reference of an object
// it finds in place and does not otherwise write: whether it adds the
// reference the object lacks, and whether it removes the one an orphaned
// object carries. CreateOnly never claims an object someone else created,
// but lets go of one the work orphans; ReadOnly never writes.
var ownerUpkeep = map[workv1.UpdateStrategyType]struct{ adds, removes bool }{
	workv1.UpdateStrategyTypeUpdate:          {adds: true, removes: true},
	workv1.UpdateStrategyTypeServerSideApply: {adds: true, removes: true},
	workv1.UpdateStrategyTypeCreateOnly:      {adds: false, removes: true},
	workv1.UpdateStrategyTypeReadOnly:        {adds: false, removes: false},
}

// OwnersSettled tells whether an object with the owner references refs needs
// no owner patch from req's strategy: it carries req.Owner, or none when the
// work orphans it, or the strategy would not change that (see ownerUpkeep).
// The caller uses it to tell, from a cached copy, that an object unchanged
// since its last apply still needs one, as after the work's deleteOption
// changed.
func OwnersSettled(req Request, refs []metav1.OwnerReference) bool {
	return ownersSettledBy(manifest.StrategyOf(req.Config), req, refs)
}

// ownersSettledBy is OwnersSettled for the strategy t.
func ownersSettledBy(t workv1.UpdateStrategyType, req Request, refs []metav1.OwnerReference) bool {
	upkeep := ownerUpkeep[t]
	if req.Orphaned {
		return !upkeep.removes || !slices.ContainsFunc(refs, req.refersToOwner)
	}
	return !upkeep.adds || hasOwner(refs, req.Owner)
}

// ownersWanted tells whether refs are exactly as req wants them: holding
// req.Owner, or no reference to the AppliedManifestWork when orphaned.
func ownersWanted(req Request, refs []metav1.OwnerReference) bool {
	if req.Orphaned {
		return !slices.ContainsFunc(refs, req.refersToOwner)
	}
	return hasOwner(refs, req.Owner)
}

// ownersFor is refs with more added, then with req.Owner added, or, when
// the work orphans the object, every reference to the AppliedManifestWork
// taken away; nil when none is left. The references of other owners stay.
func ownersFor(req Request, refs []metav1.OwnerReference, more ...metav1.OwnerReference) []metav1.OwnerReference {
	out := unionOwners(refs, more...)
	if req.Orphaned {
		out = slices.DeleteFunc(out, req.refersToOwner)
	} else {
		out = unionOwners(out, req.Owner)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// refersToOwner tells whether ref points at the AppliedManifestWork: by UID,
// or by group, kind and name, which also catches a reference left by an
// earlier AppliedManifestWork of the same name. Only those are ever removed.
func (req Request) refersToOwner(ref metav1.OwnerReference) bool {
	if hasOwner([]metav1.OwnerReference{ref}, req.Owner) {
		return true
	}
	return diff.SameOwnerObject(ref, req.Owner)
}

// settleOwner gives obj the owner reference to the AppliedManifestWork, or
// takes it away when the work orphans obj, with a patch of its own, unless
// obj already is as wanted; written tells whether obj was already written by
// the caller. The reference is never part of a server-side apply body:
// there, every work that applies with the same field manager would take away
// the references of the others, and another field manager applying the same
// object would co-own ours.
//
// The merge patch replaces the whole list, so it carries obj's UID and
// resourceVersion as preconditions; when the object changed meanwhile it is
// read again and the patch decided anew.
func settleOwner(ctx context.Context, rc dynamic.ResourceInterface, req Request, obj *unstructured.Unstructured, written bool) (Result, error) {
	for attempt := 1; ; attempt++ {
		if ownersWanted(req, obj.GetOwnerReferences()) {
			return Result{Object: obj, Written: written}, nil
		}
		data, err := json.Marshal(map[string]any{"metadata": map[string]any{
			"uid":             obj.GetUID(),
			"resourceVersion": obj.GetResourceVersion(),
			"ownerReferences": ownersFor(req, obj.GetOwnerReferences()), // null removes the list
		}})
		if err != nil {
			return Result{Object: obj, Written: written}, failed(err)
		}
		patched, err := rc.Patch(ctx, obj.GetName(), types.MergePatchType, data, metav1.PatchOptions{FieldManager: DefaultFieldManager})
		if err == nil {
			if req.Orphaned {
				klog.FromContext(ctx).V(2).Info("Removed owner reference: the work orphans the object", "owner", req.Owner.Name)
			} else {
				klog.FromContext(ctx).V(2).Info("Added owner reference", "owner", req.Owner.Name)
			}
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
