package health

import (
	"fmt"
	"strings"
)

// Rules of the workload controllers: each waits until its controller has
// seen the latest spec and the desired replicas are updated, ready and
// available.

var deploymentRule = Rule{
	Resource: "deployments",
	Fields: [][]string{
		{"spec", "replicas"}, {"spec", "paused"},
		{"status", "observedGeneration"}, {"status", "replicas"}, {"status", "updatedReplicas"},
		{"status", "readyReplicas"}, {"status", "availableReplicas"}, {"status", "conditions"},
	},
	Judge: judgeDeployment,
}

func judgeDeployment(o Object) Verdict {
	if msg, pending := o.generationPending(); pending {
		return progressing("Deployment is %s", msg)
	}
	progress := o.Condition("Progressing")
	if progress.Is("False") && progress.Reason == "ProgressDeadlineExceeded" {
		return degraded("Rollout exceeded its progress deadline: %s", progress.Message)
	}
	if failure := o.Condition("ReplicaFailure"); failure.Is("True") {
		return degraded("Cannot create pods: %s", failure.Explain())
	}
	desired := o.IntOr(1, "spec", "replicas")
	total, updated := o.Int("status", "replicas"), o.Int("status", "updatedReplicas")
	available := o.Int("status", "availableReplicas")
	waitingOn := ""
	if rs := quoted(progress.Message); rs != "" {
		waitingOn = "rollout waiting on ReplicaSet " + rs
	}
	paused := ""
	if o.Bool("spec", "paused") {
		paused = "rollout is paused"
	}
	switch {
	case updated < desired:
		return progressing("%s", joinSentences(fmt.Sprintf("%d of %d replicas updated", updated, desired), waitingOn, paused))
	case total > updated:
		return progressing("%s", joinSentences(fmt.Sprintf("%d old replicas are pending termination", total-updated), waitingOn, paused))
	case available < desired:
		return progressing("%s", joinSentences(fmt.Sprintf("%d of %d replicas available", available, desired), waitingOn, paused))
	}
	return healthy("%s", joinSentences(fmt.Sprintf("%d of %d replicas updated and available", available, desired), paused))
}

// quoted returns the first double-quoted word of a message, such as the
// ReplicaSet in `ReplicaSet "hello-7d9f" is progressing.`.
func quoted(message string) string {
	_, rest, ok := strings.Cut(message, `"`)
	if !ok {
		return ""
	}
	word, _, ok := strings.Cut(rest, `"`)
	if !ok {
		return ""
	}
	return word
}

var statefulSetRule = Rule{
	Resource: "statefulsets",
	Fields: [][]string{
		{"spec", "replicas"}, {"spec", "updateStrategy"},
		{"status", "observedGeneration"}, {"status", "replicas"}, {"status", "readyReplicas"},
		{"status", "availableReplicas"}, {"status", "updatedReplicas"},
		{"status", "currentRevision"}, {"status", "updateRevision"},
	},
	Judge: judgeStatefulSet,
}

func judgeStatefulSet(o Object) Verdict {
	if msg, pending := o.generationPending(); pending {
		return progressing("StatefulSet is %s", msg)
	}
	desired := o.IntOr(1, "spec", "replicas")
	ready, available := o.Int("status", "readyReplicas"), o.Int("status", "availableReplicas")
	if o.String("spec", "updateStrategy", "type") != "OnDelete" {
		partition := o.Int("spec", "updateStrategy", "rollingUpdate", "partition")
		wantUpdated := max(desired-partition, 0)
		updated := o.Int("status", "updatedReplicas")
		if updated < wantUpdated {
			return progressing("%d of %d replicas updated to revision %s", updated, wantUpdated, o.String("status", "updateRevision"))
		}
	}
	if v, waiting := replicasWaiting(desired, ready, available); waiting {
		return v
	}
	return healthy("%d of %d replicas ready and available", available, desired)
}

// replicasWaiting is the verdict while fewer than the desired replicas are
// ready, or available; false once they all are.
func replicasWaiting(desired, ready, available int64) (Verdict, bool) {
	switch {
	case ready < desired:
		return progressing("%d of %d replicas ready", ready, desired), true
	case available < desired:
		return progressing("%d of %d replicas available", available, desired), true
	}
	return Verdict{}, false
}

var daemonSetRule = Rule{
	Resource: "daemonsets",
	Fields: [][]string{
		{"spec", "updateStrategy", "type"},
		{"status", "observedGeneration"}, {"status", "desiredNumberScheduled"},
		{"status", "updatedNumberScheduled"}, {"status", "numberAvailable"}, {"status", "numberReady"},
	},
	Judge: judgeDaemonSet,
}

func judgeDaemonSet(o Object) Verdict {
	if msg, pending := o.generationPending(); pending {
		return progressing("DaemonSet is %s", msg)
	}
	desired := o.Int("status", "desiredNumberScheduled")
	updated, available := o.Int("status", "updatedNumberScheduled"), o.Int("status", "numberAvailable")
	if o.String("spec", "updateStrategy", "type") != "OnDelete" && updated < desired {
		return progressing("%d of %d pods updated", updated, desired)
	}
	if available < desired {
		return progressing("%d of %d pods available", available, desired)
	}
	return healthy("%d of %d pods available", available, desired)
}

var replicaSetRule = Rule{
	Resource: "replicasets",
	Fields: [][]string{
		{"spec", "replicas"},
		{"status", "observedGeneration"}, {"status", "replicas"}, {"status", "readyReplicas"},
		{"status", "availableReplicas"}, {"status", "conditions"},
	},
	Judge: judgeReplicaSet,
}

func judgeReplicaSet(o Object) Verdict {
	if failure := o.Condition("ReplicaFailure"); failure.Is("True") {
		return degraded("Cannot create pods: %s", failure.Explain())
	}
	if msg, pending := o.generationPending(); pending {
		return progressing("ReplicaSet is %s", msg)
	}
	desired := o.IntOr(1, "spec", "replicas")
	ready, available := o.Int("status", "readyReplicas"), o.Int("status", "availableReplicas")
	if v, waiting := replicasWaiting(desired, ready, available); waiting {
		return v
	}
	return healthy("%d of %d replicas available", available, desired)
}
