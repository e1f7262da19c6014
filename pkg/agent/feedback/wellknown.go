package feedback

import workv1 "github.com/manifestwork/work/pkg/apis/work/v1"

// wellKnownValue is one predefined feedback value of a well-known kind.
type wellKnownValue struct {
	name string
	path string
	typ  workv1.ValueType
}

// groupKind keys the well-known table; the version is ignored so that every
// served version of a kind reports the same values.
type groupKind struct {
	group string
	kind  string
}

func intValue(name, field string) wellKnownValue {
	return wellKnownValue{name: name, path: ".status." + field, typ: workv1.Integer}
}

func conditionStatus(name, condition string) wellKnownValue {
	return wellKnownValue{
		name: name,
		path: `.status.conditions[?(@.type=="` + condition + `")].status`,
		typ:  workv1.String,
	}
}

// wellKnownStatus is the data behind the WellKnownStatus rule. The names of
// the Deployment, DaemonSet, Job and Pod values are part of the API and must
// not change; entries may only be added.
var wellKnownStatus = map[groupKind][]wellKnownValue{
	{group: "apps", kind: "Deployment"}: {
		intValue("ReadyReplicas", "readyReplicas"),
		intValue("Replicas", "replicas"),
		intValue("AvailableReplicas", "availableReplicas"),
	},
	{group: "apps", kind: "DaemonSet"}: {
		intValue("NumberReady", "numberReady"),
		intValue("DesiredNumberScheduled", "desiredNumberScheduled"),
		intValue("NumberAvailable", "numberAvailable"),
	},
	{group: "apps", kind: "StatefulSet"}: {
		intValue("ReadyReplicas", "readyReplicas"),
		intValue("Replicas", "replicas"),
		intValue("AvailableReplicas", "availableReplicas"),
		intValue("CurrentReplicas", "currentReplicas"),
		intValue("UpdatedReplicas", "updatedReplicas"),
	},
	{group: "apps", kind: "ReplicaSet"}: {
		intValue("ReadyReplicas", "readyReplicas"),
		intValue("Replicas", "replicas"),
		intValue("AvailableReplicas", "availableReplicas"),
	},
	{group: "batch", kind: "Job"}: {
		conditionStatus("JobComplete", "Complete"),
		intValue("JobSucceeded", "succeeded"),
	},
	{group: "", kind: "Pod"}: {
		conditionStatus("PodReady", "Ready"),
		{name: "PodPhase", path: ".status.phase", typ: workv1.String},
	},
}
