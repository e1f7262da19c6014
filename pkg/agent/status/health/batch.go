package health

import "fmt"

var jobRule = Rule{
	Resource: "jobs",
	Fields: [][]string{
		{"spec", "suspend"}, {"spec", "completions"},
		{"status", "conditions"}, {"status", "active"}, {"status", "succeeded"}, {"status", "failed"},
	},
	Judge: judgeJob,
}

// judgeJob: a Job that completed is healthy, one that failed is degraded, a
// suspended one is healthy (it waits on purpose), a running one progresses.
func judgeJob(o Object) Verdict {
	for _, t := range []string{"Failed", "FailureTarget"} {
		if c := o.Condition(t); c.Is("True") {
			return degraded("Job failed: %s", detail("%s (%s)", c.Reason, c.Message))
		}
	}
	for _, t := range []string{"Complete", "SuccessCriteriaMet"} {
		if c := o.Condition(t); c.Is("True") {
			return healthy("Job completed (%d succeeded)", o.Int("status", "succeeded"))
		}
	}
	if o.Bool("spec", "suspend") || o.Condition("Suspended").Is("True") {
		return healthy("Job is suspended")
	}
	active, succeeded, failed := o.Int("status", "active"), o.Int("status", "succeeded"), o.Int("status", "failed")
	progress := fmt.Sprintf("%d active, %d succeeded", active, succeeded)
	if o.Has("spec", "completions") {
		progress = fmt.Sprintf("%d active, %d of %d succeeded", active, succeeded, o.Int("spec", "completions"))
	}
	if failed > 0 {
		progress += fmt.Sprintf(", %d failed", failed)
	}
	return progressing("Job is running: %s", progress)
}

var podRule = Rule{
	Resource: "pods",
	Fields: [][]string{
		{"spec", "restartPolicy"},
		{"status", "phase"}, {"status", "reason"}, {"status", "message"}, {"status", "conditions"},
		{"status", "containerStatuses"}, {"status", "initContainerStatuses"},
	},
	Judge: judgePod,
}

// degradedWaiting are the reasons a container waits for that do not resolve
// by waiting longer.
var degradedWaiting = map[string]bool{
	"CrashLoopBackOff": true, "ImagePullBackOff": true, "ErrImagePull": true, "InvalidImageName": true,
	"CreateContainerConfigError": true, "CreateContainerError": true, "RunContainerError": true,
}

func judgePod(o Object) Verdict {
	phase := o.String("status", "phase")
	if phase == "Failed" {
		return degraded("Pod failed: %s", detail("%s (%s)", o.String("status", "reason"), o.String("status", "message")))
	}
	for _, list := range []string{"initContainerStatuses", "containerStatuses"} {
		for _, c := range o.Maps("status", list) {
			reason := c.String("state", "waiting", "reason")
			if degradedWaiting[reason] {
				return degraded("Container %s is waiting: %s", c.String("name"), detail("%s (%s)", reason, c.String("state", "waiting", "message")))
			}
		}
	}
	switch phase {
	case "Succeeded":
		return healthy("Pod succeeded")
	case "Running":
		if o.Condition("Ready").Is("True") {
			return healthy("Pod is running and ready")
		}
		containers := o.Maps("status", "containerStatuses")
		ready := 0
		for _, c := range containers {
			if c.Bool("ready") {
				ready++
			}
		}
		return progressing("Pod is running; %d of %d containers ready", ready, len(containers))
	case "":
		return progressing("Pod has no phase yet")
	}
	if scheduled := o.Condition("PodScheduled"); scheduled.Is("False") {
		return progressing("Pod is %s: %s", phase, scheduled.Explain())
	}
	return progressing("Pod is %s", phase)
}
