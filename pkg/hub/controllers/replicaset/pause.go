package replicaset

import (
	"fmt"
	"strings"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

// PausedAnnotation pauses a replica set's rollout while its value is "true":
// no work is created, updated or deleted on any cluster until it is removed
// (or set to anything else). The works already there stay as they are.
const PausedAnnotation = "work.manifestwork.io/rollout-paused"

// ConditionRolloutPaused is True while the rollout is paused, and absent
// otherwise. Its message counts the clusters that wait.
const ConditionRolloutPaused = "RolloutPaused"

// ReasonPaused is the reason of RolloutPaused.
const ReasonPaused = "Paused"

// maxNamed is how many clusters a condition message names before it counts
// the rest.
const maxNamed = 10

func isPaused(rs *workv1alpha1.ManifestWorkReplicaSet) bool {
	return rs.Annotations[PausedAnnotation] == "true"
}

// pausedCondition is RolloutPaused while paused, saying what waits, and
// absent otherwise.
func pausedCondition(d deployment) condition {
	if !d.paused {
		return absent(ConditionRolloutPaused)
	}
	return trueIf(ConditionRolloutPaused, true, ReasonPaused, pausedMessage(d))
}

// pausedMessage says how far the rollout got and what waits for the resume.
func pausedMessage(d deployment) string {
	current, selected := 0, 0
	var waiting []string
	for _, p := range d.placements {
		current += len(p.clusters)
		selected += len(p.clusters) + len(p.waiting)
		waiting = append(waiting, p.waiting...)
	}
	msg := fmt.Sprintf("The annotation %s is \"true\": %d of %d selected clusters have the current template;"+
		" no work is created, updated or deleted until it is removed", PausedAnnotation, current, selected)
	if len(waiting) > 0 {
		msg += "; waiting: " + named(waiting)
	}
	if len(d.kept) > 0 {
		msg += "; kept, though no placement selects them: " + named(d.kept)
	}
	return msg
}

// named lists the first maxNamed names and counts the others.
func named(names []string) string {
	shown := names[:min(len(names), maxNamed)]
	s := strings.Join(shown, ", ")
	if more := len(names) - len(shown); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// rolledOutMessage is the message of PlacementRolledOut while the rollout
// has not reached every cluster: empty as in OCM, unless it is paused,
// stopped, aborted or waiting at a gate. Its reason stays OCM's Progressing, which OCM's clients match on.
func rolledOutMessage(d deployment, stopped bool) string {
	var parts []string
	if d.paused {
		parts = append(parts, "Paused: see the condition "+ConditionRolloutPaused)
	}
	if stopped {
		parts = append(parts, "Stopped by failures: see the condition "+ConditionRolloutStopped)
	}
	if d.abort.held {
		parts = append(parts, "Aborted: see the condition "+ConditionRolloutAborted)
	}
	for _, p := range d.placements {
		if p.wait != nil && p.wait.waiting {
			parts = append(parts, "Waiting at a gate: see the condition "+ConditionRolloutWaiting)
			break
		}
	}
	return strings.Join(parts, "; ")
}
