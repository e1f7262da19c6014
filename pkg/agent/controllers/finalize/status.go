package finalize

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/openshift/library-go/pkg/controller/factory"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/manifestwork/work/pkg/agent/queuekeys"
	"github.com/manifestwork/work/pkg/agent/status/stalled"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Reasons of the Events the finalize controllers record on a ManifestWork
// being deleted, all of type Normal.
const (
	// EventDeletionStarted: the agent began to clean up after the work.
	EventDeletionStarted = "DeletionStarted"
	// EventWaitingForResources: the set of objects the deletion waits for
	// changed; the message names them.
	EventWaitingForResources = "WaitingForResources"
	// EventResourcesCleanedUp: cleanup is done and the work is released.
	EventResourcesCleanedUp = "ResourcesCleanedUp"
)

// The reason of the Deleting condition of a work being deleted, and how its
// message begins: OCM's agent's, from v1.1 on (v1.0.0 sets no Deleting
// condition). Ours goes on to say what the deletion waits for.
const (
	ReasonWorkDeleting = "WorkDeleting"
	MessageDeleting    = "ManifestWork is being deleted"
)

const (
	// pollInterval is how often a deletion that is waiting is looked at again
	// when no watch event comes first.
	pollInterval = 5 * time.Second
	// settleInterval is how soon objects whose deletion was just requested
	// are looked at again: most are gone by then.
	settleInterval = time.Second
	// maxNamed is how many waited-for objects the Deleting message names.
	maxNamed = 5
)

// requeue puts the key back in the queue after a reconcile that must wait,
// quietly after a conflict (queuekeys.RetryConflict). Other errors go to the
// queue's backoff.
func requeue(ctx context.Context, syncCtx factory.SyncContext, after time.Duration, err error) error {
	if queuekeys.RetryConflict(ctx, syncCtx, err) {
		return nil
	}
	if err == nil && after > 0 {
		syncCtx.Queue().AddAfter(syncCtx.QueueKey(), after)
	}
	return err
}

// jittered spreads requeues so that many works deleted together are not
// polled in lockstep.
func jittered(d time.Duration) time.Duration {
	return wait.Jitter(d, 0.5)
}

// deletingCondition is the Deleting condition of a work, in OCM's words,
// followed by waiting: what its deletion waits for.
func deletingCondition(work *workv1.ManifestWork, waiting string) metav1.Condition {
	message := MessageDeleting
	if waiting != "" {
		message += "; " + waiting
	}
	return metav1.Condition{
		Type: workv1.WorkDeleting, Status: metav1.ConditionTrue, ObservedGeneration: work.Generation,
		Reason: ReasonWorkDeleting, Message: message,
	}
}

// waitingMessage names the objects a deletion waits for, the first maxNamed
// of them.
func waitingMessage(names []string) string {
	shown := names
	if len(shown) > maxNamed {
		shown = shown[:maxNamed]
	}
	msg := "waiting for " + strings.Join(shown, ", ")
	if more := len(names) - len(shown); more > 0 {
		msg += fmt.Sprintf(" and %d more", more)
	}
	return msg + " to be deleted"
}

// setDeleting writes the work's Deleting condition unless it already says
// the same. A Stalled condition goes with it: it is about applying the
// work, which is over; the Deleting condition says what the deletion waits
// for. It returns the work as it now is and whether it wrote.
func setDeleting(ctx context.Context, writer *workwriter.Writer, work *workv1.ManifestWork,
	cond metav1.Condition) (*workv1.ManifestWork, bool, error) {
	status := *work.Status.DeepCopy()
	apimeta.SetStatusCondition(&status.Conditions, cond)
	apimeta.RemoveStatusCondition(&status.Conditions, stalled.ConditionType)
	updated, err := writer.Status(ctx, work, status)
	if err != nil {
		return nil, false, fmt.Errorf("setting the Deleting condition: %w", err)
	}
	if updated == nil {
		return work, false, nil
	}
	return updated, true, nil
}

// withoutFinalizer is the merge patch that removes finalizer from an
// AppliedManifestWork whose finalizers and resourceVersion are given.
func withoutFinalizer(finalizers []string, resourceVersion, finalizer string) ([]byte, error) {
	var remaining any // null clears the list
	if rest := slices.DeleteFunc(slices.Clone(finalizers), func(f string) bool { return f == finalizer }); len(rest) > 0 {
		remaining = rest
	}
	return json.Marshal(map[string]any{"metadata": map[string]any{
		"finalizers":      remaining,
		"resourceVersion": resourceVersion,
	}})
}
