package cli

import (
	"context"
	"fmt"
	"io"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
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

// Undo copies a revision's template back into the replica set's spec, with
// the command as its kubernetes.io/change-cause, in one update of the
// replica set as read; the rollout strategy then rolls it out. The target
// is revision uo.ToRevision, else the newest that is not the current one.
// A template that is the target's already is left alone (exit 0); a
// revision not in the history exits 1. When the replica set changes between
// the read and the update (a conflict), undo reads it again and tries once
// more if its template is still the same; else it exits 2.
func Undo(ctx context.Context, o *Options, uo UndoOptions, name string) error {
	h, rs, revs, err := o.replicaSetRevisions(ctx, name)
	if err != nil {
		return err
	}
	replicaSets := h.work.WorkV1alpha1().ManifestWorkReplicaSets(h.namespace)
	for retried := false; ; retried = true {
		err := undo(ctx, o.Out, rs, revs, uo.ToRevision, func(rs *workv1alpha1.ManifestWorkReplicaSet) error {
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
	}
}

// undo rolls rs back to revision to (0: the previous one) by update, and
// says what it did.
func undo(ctx context.Context, out io.Writer, rs *workv1alpha1.ManifestWorkReplicaSet, revs []*appsv1.ControllerRevision,
	to int64, update func(*workv1alpha1.ManifestWorkReplicaSet) error) error {
	target, err := undoTarget(rs, revs, to)
	if err != nil {
		return err
	}
	in, err := revision.Decode(target)
	if err != nil {
		return exitf(ExitFailed, "%v", err)
	}
	if hash, _ := revision.Hash(in); hash == currentHash(rs) {
		_, err := fmt.Fprintf(out, "manifestworkreplicaset/%s skipped rollback (current template already matches revision %d)\n", rs.Name, target.Revision)
		return err
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

// undoTarget is revision to, else the newest revision whose template is
// not the current one; none exits 1.
func undoTarget(rs *workv1alpha1.ManifestWorkReplicaSet, revs []*appsv1.ControllerRevision, to int64) (*appsv1.ControllerRevision, error) {
	if to != 0 {
		return findRevision(rs, revs, to)
	}
	current := currentHash(rs)
	for _, cr := range revs {
		if cr.Labels[revision.HashLabel] != current {
			return cr, nil
		}
	}
	return nil, exitf(ExitFailed, "manifestworkreplicaset %s/%s has no previous revision to go back to: its only revision, %d, is current",
		rs.Namespace, rs.Name, revs[0].Revision)
}
