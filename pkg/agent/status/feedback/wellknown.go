package feedback

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// statusField is the well-known value name read from .status.<field>.
func statusField(name, field string) workv1.JsonPath {
	return workv1.JsonPath{Name: name, Path: ".status." + field}
}

// conditionStatus is the well-known value name read from the status of the
// object's condition of the given type.
func conditionStatus(name, condition string) workv1.JsonPath {
	return workv1.JsonPath{Name: name, Path: `.status.conditions[?(@.type=="` + condition + `")].status`}
}

// wellKnownStatus is the data behind the WellKnownStatus rule: exactly the
// kinds, versions, names and order of OCM's agent, since clients read the
// values by name. A kind missing here has no well-known status.
var wellKnownStatus = map[schema.GroupVersionKind][]workv1.JsonPath{
	{Group: "apps", Version: "v1", Kind: "Deployment"}: {
		statusField("ReadyReplicas", "readyReplicas"),
		statusField("Replicas", "replicas"),
		statusField("AvailableReplicas", "availableReplicas"),
	},
	{Group: "apps", Version: "v1", Kind: "DaemonSet"}: {
		statusField("NumberReady", "numberReady"),
		statusField("DesiredNumberScheduled", "desiredNumberScheduled"),
		statusField("NumberAvailable", "numberAvailable"),
	},
	{Group: "batch", Version: "v1", Kind: "Job"}: {
		conditionStatus("JobComplete", "Complete"),
		statusField("JobSucceeded", "succeeded"),
	},
	{Group: "", Version: "v1", Kind: "Pod"}: {
		conditionStatus("PodReady", "Ready"),
		statusField("PodPhase", "phase"),
	},
}
