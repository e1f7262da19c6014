package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// UndoOptions are the flags of undo.
type UndoOptions struct {
	ToRevision int64 // --to-revision; 0 is the previous revision
}

// Validate refuses a negative --to-revision, with exit code 2.
func (o *UndoOptions) Validate() error {
	if o.ToRevision < 0 {
		return exitf(ExitUsage, "--to-revision must be positive, got %d", o.ToRevision)
	}
	return nil
}

// Undo restores a revision: its template into the replica set's spec, with
// the command as its kubernetes.io/change-cause, in one update of the
// replica set as read, and the WorkOverrides of the replica set as the
// revision recorded them (each changed since updated, each deleted since
// recreated, each created since deleted), written before the replica set;
// the rollout strategy then rolls it out. The target is revision
// uo.ToRevision, else the newest that is not the current one. A replica set
// whose template and overrides are the target's already is left alone
// (exit 0); a revision not in the history exits 1; a user who may not write
// the overrides it must change exits 2 before anything is written. When the
// replica set changes between the read and the update (a conflict), undo
// reads it again and tries once more if its template is still the same;
// else it exits 2.
func Undo(ctx context.Context, o *Options, uo UndoOptions, name string) error {
	h, rs, revs, err := o.replicaSetRevisions(ctx, name)
	if err != nil {
		return err
	}
	overrides, err := h.overrides(ctx, fileObjects{}, rs.Name)
	if err != nil {
		return err
	}
	replicaSets := h.work.WorkV1alpha1().ManifestWorkReplicaSets(h.namespace)
	restore := func(actions []overrideAction) error { return restoreOverrides(ctx, o.Out, h, actions) }
	for retried := false; ; retried = true {
		err := undo(ctx, o.Out, rs, overrides, revs, uo.ToRevision, func(actions []overrideAction) error {
			if err := mayWriteOverrides(ctx, h, actions); err != nil {
				return err
			}
			return restore(actions)
		}, func(rs *workv1alpha1.ManifestWorkReplicaSet) error {
			_, err := replicaSets.Update(ctx, rs, metav1.UpdateOptions{})
			return err
		})
		if !apierrors.IsConflict(err) {
			return usageError(err)
		}
		fresh, gerr := replicaSets.Get(ctx, name, metav1.GetOptions{})
		switch {
		case gerr != nil:
			return usageError(gerr)
		case retried || currentHash(fresh) != currentHash(rs):
			return exitf(ExitUsage, "manifestworkreplicaset %s/%s changed while undo wrote it, and was not rolled back: "+
				"see `work fleet history %s` and run undo again: %v", h.namespace, name, name, err)
		}
		rs = fresh
		restore = func([]overrideAction) error { return nil } // written on the first try
	}
}

// overrideAction is one write that restores an override as a revision
// recorded it: verb is update, create or delete.
type overrideAction struct {
	verb     string
	override *fleetv1alpha1.WorkOverride
}

// overrideActions are the writes that make the live overrides of rs those
// of in, in the order they apply, then the deletions.
func overrideActions(rs *workv1alpha1.ManifestWorkReplicaSet, live []fleetv1alpha1.WorkOverride, in revision.Input) []overrideAction {
	byName := map[string]*fleetv1alpha1.WorkOverride{}
	for i := range live {
		byName[live[i].Name] = &live[i]
	}
	var actions []overrideAction
	kept := map[string]bool{}
	for _, want := range render.Overrides(in, rs.Name, nil) {
		kept[want.Name] = true
		have, ok := byName[want.Name]
		if !ok {
			o := &fleetv1alpha1.WorkOverride{ObjectMeta: metav1.ObjectMeta{Namespace: rs.Namespace, Name: want.Name}, Spec: want.Spec}
			actions = append(actions, overrideAction{verb: "create", override: o})
			continue
		}
		if !equality.Semantic.DeepEqual(have.Spec, want.Spec) {
			o := have.DeepCopy()
			o.Spec = want.Spec
			actions = append(actions, overrideAction{verb: "update", override: o})
		}
	}
	for i := range live {
		if !kept[live[i].Name] {
			actions = append(actions, overrideAction{verb: "delete", override: &live[i]})
		}
	}
	return actions
}

// mayWriteOverrides asks the hub whether the user may do each action, and
// exits 2 naming what is refused, before anything is written.
func mayWriteOverrides(ctx context.Context, h hub, actions []overrideAction) error {
	var refused []string
	asked := map[string]bool{}
	for _, a := range actions {
		if asked[a.verb] {
			continue
		}
		asked[a.verb] = true
		review, err := h.kube.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authorizationv1.SelfSubjectAccessReview{
			Spec: authorizationv1.SelfSubjectAccessReviewSpec{ResourceAttributes: &authorizationv1.ResourceAttributes{
				Namespace: a.override.Namespace, Verb: a.verb, Group: fleetv1alpha1.GroupName, Resource: "workoverrides"}},
		}, metav1.CreateOptions{})
		if err != nil {
			return usageError(fmt.Errorf("may you %s workoverrides in %s? the hub does not say: %w", a.verb, a.override.Namespace, err))
		}
		if !review.Status.Allowed {
			refused = append(refused, a.verb)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	return exitf(ExitUsage, "undo restores the revision's WorkOverrides too, and you may not %s workoverrides (group %s) in %s: "+
		"nothing was written; ask for these rights, or for someone who has them to run undo", strings.Join(refused, ", "),
		fleetv1alpha1.GroupName, actions[0].override.Namespace)
}

// restoreOverrides does the actions and says each.
func restoreOverrides(ctx context.Context, out io.Writer, h hub, actions []overrideAction) error {
	for _, a := range actions {
		overrides := h.work.FleetV1alpha1().WorkOverrides(a.override.Namespace)
		var err error
		var done string
		switch a.verb {
		case "create":
			_, err = overrides.Create(ctx, a.override, metav1.CreateOptions{})
			done = "recreated as the revision recorded it"
		case "update":
			_, err = overrides.Update(ctx, a.override, metav1.UpdateOptions{})
			done = "restored as the revision recorded it"
		case "delete":
			uid := a.override.UID
			err = overrides.Delete(ctx, a.override.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
			done = "deleted: the revision has no such override"
		}
		if err != nil {
			return fmt.Errorf("%s workoverride %s/%s: %w", a.verb, a.override.Namespace, a.override.Name, err)
		}
		if _, err := fmt.Fprintf(out, "workoverride/%s %s\n", a.override.Name, done); err != nil {
			return err
		}
	}
	return nil
}

// undo rolls rs back to revision to (0: the previous one): it restores the
// revision's overrides with restore, then its template by update, and says
// what it did.
func undo(ctx context.Context, out io.Writer, rs *workv1alpha1.ManifestWorkReplicaSet, overrides []fleetv1alpha1.WorkOverride,
	revs []*appsv1.ControllerRevision, to int64, restore func([]overrideAction) error, update func(*workv1alpha1.ManifestWorkReplicaSet) error) error {
	target, err := undoTarget(rs, overrides, revs, to)
	if err != nil {
		return err
	}
	in, err := revision.Decode(target)
	if err != nil {
		return exitf(ExitFailed, "%v", err)
	}
	if hash, _ := revision.Hash(in); hash == currentHash(rs, overrides...) {
		_, err := fmt.Fprintf(out, "manifestworkreplicaset/%s skipped rollback (current template already matches revision %d)\n", rs.Name, target.Revision)
		return err
	}
	if actions := overrideActions(rs, overrides, in); len(actions) > 0 {
		if err := restore(actions); err != nil {
			return err
		}
	}
	changed := rs.DeepCopy()
	changed.Spec.ManifestWorkTemplate = in.ManifestWorkTemplate
	metav1.SetMetaDataAnnotation(&changed.ObjectMeta, ChangeCauseAnnotation,
		fmt.Sprintf("work fleet undo %s --to-revision %d", rs.Name, target.Revision))
	if err := update(changed); err != nil {
		return err
	}
	paused := ""
	if rs.Annotations[replicaset.PausedAnnotation] == "true" {
		paused = " (paused: it rolls out once resumed)"
	}
	_, err = fmt.Fprintf(out, "manifestworkreplicaset/%s rolled back to revision %d%s\n", rs.Name, target.Revision, paused)
	return err
}

// undoTarget is revision to, else the newest revision that is not the
// current one; none exits 1.
func undoTarget(rs *workv1alpha1.ManifestWorkReplicaSet, overrides []fleetv1alpha1.WorkOverride, revs []*appsv1.ControllerRevision,
	to int64) (*appsv1.ControllerRevision, error) {
	if to != 0 {
		return findRevision(rs, revs, to)
	}
	current := currentHash(rs, overrides...)
	for _, cr := range revs {
		if cr.Labels[revision.HashLabel] != current {
			return cr, nil
		}
	}
	return nil, exitf(ExitFailed, "manifestworkreplicaset %s/%s has no previous revision to go back to: its only revision, %d, is current",
		rs.Namespace, rs.Name, revs[0].Revision)
}
