// Package cloudevents delivers ManifestWorks to the agent as CloudEvents,
// the way OCM's agent takes them with --workload-source-driver=mqtt or grpc:
// the wire format (docs/contributors/cloudevents.md), the agent's local copy
// of its works, and the Hub that the agent reaches through the same seam as
// the hub's kube-apiserver. The transports live in the sub-packages mqtt and
// grpc.
package cloudevents

import "strings"

// DataType is the data type of every work event: OCM's "manifestbundles".
const DataType = "io.open-cluster-management.works.v1alpha1.manifestbundles"

// SubResource is the part of a work an event is about.
type SubResource string

const (
	SubResourceSpec   SubResource = "spec"
	SubResourceStatus SubResource = "status"
)

// Action is what an event asks for.
type Action string

const (
	CreateRequest  Action = "create_request"
	UpdateRequest  Action = "update_request"
	DeleteRequest  Action = "delete_request"
	ResyncRequest  Action = "resync_request"
	ResyncResponse Action = "resync_response"
)

// EventType is the type of a work event: the data type, the sub-resource and
// the action, joined by dots.
type EventType struct {
	SubResource SubResource
	Action      Action
}

// String is the type as it travels, as in
// io.open-cluster-management.works.v1alpha1.manifestbundles.spec.create_request.
func (t EventType) String() string {
	return DataType + "." + string(t.SubResource) + "." + string(t.Action)
}

// ParseEventType reads a type as it travels. ok is false for any type that
// is not about works: another data type, a heartbeat, too few parts.
func ParseEventType(s string) (t EventType, ok bool) {
	rest, found := strings.CutPrefix(s, DataType+".")
	if !found {
		return EventType{}, false
	}
	sub, action, found := strings.Cut(rest, ".")
	if !found || sub == "" || action == "" || strings.Contains(action, ".") {
		return EventType{}, false
	}
	return EventType{SubResource: SubResource(sub), Action: Action(action)}, true
}

// The extensions of work events (all lowercase, as CloudEvents requires).
const (
	ExtResourceID        = "resourceid"
	ExtResourceVersion   = "resourceversion"
	ExtClusterName       = "clustername"
	ExtOriginalSource    = "originalsource"
	ExtDeletionTimestamp = "deletiontimestamp"
	ExtSequenceID        = "sequenceid"
	ExtStatusHash        = "statushash"
	ExtMetadata          = "metadata"
)
