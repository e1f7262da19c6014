package apply

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// maxUpdateAttempts bounds how often an update is recomputed when another
// writer changed the object between our read and our update (409 Conflict on
// the resourceVersion). Beyond that the error goes back to the caller, which
// requeues the work.
const maxUpdateAttempts = 3

// updateStrategy, the default, creates the object when it is missing and
// replaces it with the manifest when the live object no longer holds it.
type updateStrategy struct{}

func (updateStrategy) Apply(ctx context.Context, client dynamic.Interface, req Request) (Result, error) {
	ctx = withRequestLogger(ctx, req, workv1.UpdateStrategyTypeUpdate)
	rc := resourceClient(client, req)
	desired, err := forCreateOf(req.Desired)
	if err != nil {
		return Result{}, err
	}
	live, created, err := getOrCreate(ctx, rc, req, forCreate(req.withDesired(desired)))
	if err != nil {
		return Result{}, err
	}
	if created {
		return Result{Object: live, Written: true, Differences: &diff.Report{}}, nil
	}
	for attempt := 1; ; attempt++ {
		result, err := updateIfChanged(ctx, rc, req, live)
		if !apierrors.IsConflict(err) || attempt == maxUpdateAttempts {
			return result, err
		}
		klog.FromContext(ctx).V(4).Info("Object changed while updating, reading it again", "attempt", attempt)
		if live, err = rc.Get(ctx, req.Desired.GetName(), metav1.GetOptions{}); err != nil {
			return Result{}, failed(err)
		}
	}
}

// updateIfChanged writes the manifest over live unless live is up to date.
//
// Besides comparing content, it asks whether the work changed since it was
// last applied: a field the work stopped setting is still present on live, so
// content alone would never notice. An object that holds the manifest and
// our owner reference, for a work unchanged since (or not known to have
// changed, as for an object another agent applied), is left alone, whatever
// other actors added to it. So is one of a metadata-only kind: its metadata
// is merged, so a change of the work that it already holds removes nothing.
//
// The comparison lists the differences, which cost nothing more than telling
// whether there are any: when the work did not change, they are the drift
// that the update repairs. How much of the object it holds to the manifest
// is its kind's (enforcementOf), as OCM's agent: the fields the manifest
// sets; ConfigMap and Secret data as a whole; workloads, Jobs and custom
// resources as a whole, compared with what a server-side dry run of the
// update would store. That dry run is the one request the comparison may
// cost, sent only when the object was read at all (its content changed since
// it was last applied, see the manifestwork controller), nothing else
// differs, and the object changed since it was last found holding the
// manifest (Request.InSyncAt): an object taken over from another agent, read
// again at each reconcile until the work's status holds this agent's own
// comparison, costs one dry run, not one per reconcile.
//
// The manifest is first made what the Update strategy keeps of it for its kind
// (kindrules.go): what other controllers own stays as they set it, and a
// change the server would refuse in place recreates the object.
func updateIfChanged(ctx context.Context, rc dynamic.ResourceInterface, req Request, live *unstructured.Unstructured) (Result, error) {
	desired, err := forUpdateOf(req.Desired, live)
	if err != nil {
		return Result{Object: live, Differences: compare(req.Desired, live)}, err
	}
	obj := forUpdate(req.withDesired(desired), live)
	rewrite := workChanged(req) && bodyWritten(desired)
	// mayLeave: live is left as it is when nothing differs.
	mayLeave := !rewrite && ownersWanted(req, live.GetOwnerReferences())
	differences := enforcedDiff(desired, live)
	if mayLeave && differences.InSync() && enforcementOf(desired) == enforceWhole && !unchangedSinceInSync(req, live) {
		stored, err := dryRunDiff(ctx, rc, obj, live)
		if err != nil {
			return Result{Object: live, Differences: differences}, failed(err)
		}
		differences = stored
	}
	if mayLeave && differences.InSync() {
		klog.FromContext(ctx).V(4).Info("Object is up to date")
		return Result{Object: live, Differences: differences}, nil
	}
	if req.Orphaned && !rewrite && differences.InSync() {
		// Orphaned since it was applied: it only loses our owner reference,
		// with a patch of its own, and nothing else changes.
		res, err := settleOwner(ctx, rc, req, live, false)
		res.Differences = differences
		return res, err
	}
	if field := needsRecreate(desired, live); field != "" {
		return recreate(ctx, rc, req, live, obj, differences, field)
	}
	updated, err := rc.Update(ctx, obj, metav1.UpdateOptions{FieldManager: DefaultFieldManager})
	if err != nil {
		// An immutable field rejected with 422 Invalid lands here too; the
		// server's message names the field, so it reaches the user unchanged.
		return Result{Object: live, Differences: differences}, failed(err)
	}
	klog.FromContext(ctx).V(2).Info("Updated object", "resourceVersion", updated.GetResourceVersion())
	return Result{Object: updated, Written: true, Differences: &diff.Report{}, Repaired: repaired(req, differences, live, DefaultFieldManager)}, nil
}

// unchangedSinceInSync tells whether live is as it was when the agent last
// found it holding the desired state (Request.InSyncAt): then it still
// does, whatever a dry run would say.
func unchangedSinceInSync(req Request, live *unstructured.Unstructured) bool {
	return req.InSyncAt != 0 && objectwatch.ContentVersion(live) == req.InSyncAt
}

// enforcedDiff lists the differences of live from desired that the Update
// strategy repairs without asking the server: every field desired sets (of
// a Service, its selector and type only), and for enforceData kinds the
// keys live holds beyond them in data and binaryData.
func enforcedDiff(desired, live *unstructured.Unstructured) *diff.Report {
	switch enforcementOf(desired) {
	case enforceData:
		r := diff.CompareExact(desired, live, dataFields, maxListed)
		return &r
	case enforceSpecFields:
		return diffOf(held(desired), live)
	}
	return diffOf(desired, live)
}

// dryRunDiff lists the differences of live from what the server would store
// for obj, the update the strategy would send: a server-side dry run, which
// fills in the defaults (and what mutating webhooks add) as a real update
// would, so that only what others added or changed remains. Everything but
// metadata and status is compared as a whole.
//
// A dry run the server refuses (an immutable field the manifest leaves to
// the server, a webhook that does not allow dry runs) leaves the comparison
// of the fields the manifest sets: in sync, as the caller found it. Only a
// conflict, live being out of date, goes back to the caller, which reads the
// object again.
func dryRunDiff(ctx context.Context, rc dynamic.ResourceInterface, obj, live *unstructured.Unstructured) (*diff.Report, error) {
	stored, err := rc.Update(ctx, obj.DeepCopy(), metav1.UpdateOptions{FieldManager: DefaultFieldManager, DryRun: []string{metav1.DryRunAll}})
	if apierrors.IsConflict(err) {
		return nil, err
	}
	if err != nil {
		klog.FromContext(ctx).V(2).Info("Cannot tell what the server would store for the manifest; comparing the fields it sets", "err", err)
		return &diff.Report{}, nil
	}
	r := diff.CompareExact(stored, live, nil, maxListed)
	return &r, nil
}
