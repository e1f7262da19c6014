// The names of AppliedManifestWorks, and the owner references that tie
// applied objects to them.

package appliedwork

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// HubHash is the lowercase hex SHA-256 of the hub's kube-apiserver URL as the
// hub kubeconfig names it.
func HubHash(hubURL string) string {
	sum := sha256.Sum256([]byte(hubURL))
	return hex.EncodeToString(sum[:])
}

// Agent is who an agent is to its AppliedManifestWorks: the cluster whose
// works it applies, the hub it takes them from (HubHash) and its agent ID.
// Every controller of the agent knows it; it names the records and tells
// which ones the agent answers for.
type Agent struct {
	ClusterName string
	HubHash     string
	AgentID     string
}

// AppliedName is the name of the AppliedManifestWork of the agent's work.
func (a Agent) AppliedName(workName string) string { return Name(a.HubHash, workName) }

// WorkName is the work an AppliedManifestWork of the agent's hub records;
// ok is false for another hub's.
func (a Agent) WorkName(appliedName string) (string, bool) { return WorkName(a.HubHash, appliedName) }

// WorkKey is the queue key of the work an AppliedManifestWork of the
// agent's hub records; ok is false for another hub's.
func (a Agent) WorkKey(appliedName string) (string, bool) {
	return WorkKey(a.ClusterName, a.HubHash, appliedName)
}

// WorkRef is the work of the agent's cluster of that name.
func (a Agent) WorkRef(workName string) cache.ObjectName {
	return cache.NewObjectName(a.ClusterName, workName)
}

// Responsible tells whether the agent answers for an AppliedManifestWork
// (see the function Responsible).
func (a Agent) Responsible(applied *workv1.AppliedManifestWork, workExists func(name string) bool) bool {
	return Responsible(applied, a.HubHash, a.AgentID, workExists)
}

// Name is the name of the AppliedManifestWork of a ManifestWork.
func Name(hubHash, workName string) string {
	return hubHash + "-" + workName
}

// WorkName is the ManifestWork name of an AppliedManifestWork of the given
// hub; ok is false when the AppliedManifestWork belongs to another hub.
func WorkName(hubHash, appliedName string) (name string, ok bool) {
	name, ok = strings.CutPrefix(appliedName, hubHash+"-")
	return name, ok && name != ""
}

// OwnerReference points an applied object at its AppliedManifestWork.
func OwnerReference(applied *workv1.AppliedManifestWork) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: workv1.SchemeGroupVersion.String(),
		Kind:       "AppliedManifestWork",
		Name:       applied.Name,
		UID:        applied.UID,
	}
}

// WorkKey is the queue key (namespace/name) of the ManifestWork an
// AppliedManifestWork of the given hub records; ok is false for another hub's.
func WorkKey(clusterName, hubHash, appliedName string) (key string, ok bool) {
	name, ok := WorkName(hubHash, appliedName)
	if !ok {
		return "", false
	}
	return cache.NewObjectName(clusterName, name).String(), true
}

// ClusterLabel names, on an AppliedManifestWork, the cluster whose work it
// records: the hub namespace of the work. An agent watches only the
// AppliedManifestWorks with its cluster's label (Selector), so that agents
// sharing a managed cluster (of several hubs, or simulated clusters) do not
// each receive every other agent's records. A label is metadata, as the
// apply records annotation is: the schema stays OCM's, and OCM's agent
// leaves it alone.
const ClusterLabel = "work.manifestwork.io/cluster"

// Selector selects the AppliedManifestWorks of a cluster's works.
func Selector(clusterName string) string { return ClusterLabel + "=" + clusterName }

// Unlabelled selects the AppliedManifestWorks without ClusterLabel: written
// by OCM's agent, or by a version of this agent from before the label.
const Unlabelled = "!" + ClusterLabel

// Responsible tells whether the agent of agentID, serving hubHash, answers
// for an AppliedManifestWork: one with its agent ID, including one it
// applied for a hub it no longer points at; and one of its hub without an
// agent ID, or whose work exists in its cluster's namespace (workExists):
// written by an agent it took over from, or before the agent ID changed. A
// record of the same hub with another agent ID and a work elsewhere is
// another agent's on this cluster.
func Responsible(applied *workv1.AppliedManifestWork, hubHash, agentID string, workExists func(name string) bool) bool {
	if agentID != "" && applied.Spec.AgentID == agentID {
		return true
	}
	name, sameHub := WorkName(hubHash, applied.Name)
	if !sameHub {
		return false
	}
	if applied.Spec.AgentID == "" || agentID == "" {
		return true
	}
	if applied.Spec.ManifestWorkName != "" {
		name = applied.Spec.ManifestWorkName
	}
	return workExists(name)
}
