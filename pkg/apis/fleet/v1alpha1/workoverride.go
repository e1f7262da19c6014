package v1alpha1

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WorkOverride changes, per cluster, the works a ManifestWorkReplicaSet in
// its namespace writes: its rules, in order, patch or drop manifests of the
// replica set's template for the clusters they select. It lives beside the
// replica set it names, so that whoever owns a region or an environment can
// keep its overrides under its own RBAC while the platform team owns the
// template. Whoever may write a WorkOverride may change any manifest of the
// works the replica set writes to any cluster it reaches.
//
// Several overrides of one replica set apply by priority (the lowest first),
// then by name; within an override, rules apply in order; on the same path,
// the last change wins.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=workoverrides,shortName=wo,scope=Namespaced
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="ReplicaSet",type=string,JSONPath=`.spec.replicaSet`
// +kubebuilder:printcolumn:name="Priority",type=integer,JSONPath=`.spec.priority`
// +kubebuilder:printcolumn:name="Rendered",type=string,JSONPath=`.status.conditions[?(@.type=="Rendered")].status`
// +kubebuilder:printcolumn:name="Failed",type=integer,JSONPath=`.status.failedClusterCount`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type WorkOverride struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec names the replica set and holds the rules.
	// +kubebuilder:validation:Required
	// +required
	Spec WorkOverrideSpec `json:"spec"`
	// Status says whether the rules render for every cluster they select.
	Status WorkOverrideStatus `json:"status,omitempty"`
}

// WorkOverrideSpec is what an override changes, and where.
type WorkOverrideSpec struct {
	// ReplicaSet is the name of the ManifestWorkReplicaSet, in the
	// override's namespace, whose works the override changes.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	ReplicaSet string `json:"replicaSet"`
	// Priority orders the overrides of one replica set: the lowest applies
	// first (so a higher priority wins on the same path), then by name.
	// +kubebuilder:default=0
	Priority int32 `json:"priority,omitempty"`
	// Rules apply in order to each cluster they select.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=64
	// +listType=atomic
	// +required
	Rules []WorkOverrideRule `json:"rules"`
}

// WorkOverrideRule changes the manifests it names, for the clusters it
// selects: either patches them or drops them.
//
// +kubebuilder:validation:XValidation:rule="(has(self.patches) && size(self.patches) > 0) != (has(self.drop) && self.drop)",message="a rule has either patches or drop: true, not both"
type WorkOverrideRule struct {
	// Clusters selects the clusters the rule applies to.
	// +kubebuilder:validation:Required
	// +required
	Clusters ClusterSelector `json:"clusters"`
	// Manifests names the manifests of the template the rule changes: a
	// manifest is changed when any entry names it.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=32
	// +listType=atomic
	// +required
	Manifests []ManifestSelector `json:"manifests"`
	// Patches are JSON patch operations (RFC 6902: add, replace, remove)
	// applied in order to each manifest named. Their values may hold
	// variables: ${cluster.name}, ${cluster.labels['KEY']},
	// ${cluster.claims['NAME']}; $${ is a literal ${.
	// +kubebuilder:validation:MaxItems=64
	// +listType=atomic
	Patches []Patch `json:"patches,omitempty"`
	// Drop removes the manifests named from the works of the clusters
	// selected: their objects are deleted where they were, as the work's
	// deleteOption says.
	Drop bool `json:"drop,omitempty"`
}

// ClusterSelector selects clusters by name, labels and decision group. A
// cluster is selected when it matches every field that is set; at least one
// is set.
//
// +kubebuilder:validation:XValidation:rule="has(self.clusterNames) || has(self.labelSelector) || has(self.decisionGroups)",message="set at least one of clusterNames, labelSelector, decisionGroups"
type ClusterSelector struct {
	// ClusterNames selects the clusters named.
	// +kubebuilder:validation:MaxItems=1000
	// +kubebuilder:validation:items:MaxLength=253
	// +listType=atomic
	ClusterNames []string `json:"clusterNames,omitempty"`
	// LabelSelector selects the clusters whose labels match.
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty"`
	// DecisionGroups selects the clusters of the decision groups named, each
	// as <placement>/<group>, the group by its name or, when it has none, by
	// its index (as the gate annotations name them).
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MaxLength=317
	// +kubebuilder:validation:items:Pattern=`^[^/]+/[^/]+$`
	// +listType=atomic
	DecisionGroups []string `json:"decisionGroups,omitempty"`
}

// ManifestSelector names manifests of the template by group, kind,
// namespace and name; a field that is empty or "*" matches any value (so
// {} names every manifest). Group is that of the manifest's apiVersion, ""
// or "*" for the core group too; matches are exact and case sensitive.
type ManifestSelector struct {
	// Group is the API group.
	// +kubebuilder:validation:MaxLength=253
	Group string `json:"group,omitempty"`
	// Kind is the kind.
	// +kubebuilder:validation:MaxLength=63
	Kind string `json:"kind,omitempty"`
	// Namespace is the manifest's metadata.namespace.
	// +kubebuilder:validation:MaxLength=63
	Namespace string `json:"namespace,omitempty"`
	// Name is the manifest's metadata.name.
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name,omitempty"`
}

// PatchOp is a JSON patch operation.
// +kubebuilder:validation:Enum=add;replace;remove
type PatchOp string

// The operations of a patch.
const (
	PatchAdd     PatchOp = "add"
	PatchReplace PatchOp = "replace"
	PatchRemove  PatchOp = "remove"
)

// Patch is one JSON patch operation (RFC 6902). CEL cannot see a
// schemaless field, so that add and replace have a value is checked at
// rendering (and by admission's webhook), not by the CRD.
type Patch struct {
	// Op is add, replace or remove.
	// +kubebuilder:validation:Required
	// +required
	Op PatchOp `json:"op"`
	// Path is a JSON pointer (RFC 6901) into the manifest, such as
	// /spec/replicas or /metadata/labels/app.kubernetes.io~1name.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^(/([^~]|~[01])*)+$`
	// +required
	Path string `json:"path"`
	// Value is the JSON value add and replace write, with variables.
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Value *apiextensionsv1.JSON `json:"value,omitempty"`
}

// WorkOverrideStatus says whether the override renders for the clusters
// its rules select. It is bounded: it names at most MaxFailedClusters.
type WorkOverrideStatus struct {
	// Conditions hold Rendered: True when every cluster the rules select
	// renders, False (reason RenderFailed) when some cluster does not.
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// FailedClusters are the first clusters, by name, whose render fails.
	// +kubebuilder:validation:MaxItems=10
	// +listType=atomic
	FailedClusters []FailedCluster `json:"failedClusters,omitempty"`
	// FailedClusterCount is how many clusters fail, named or not.
	FailedClusterCount int32 `json:"failedClusterCount,omitempty"`
}

// MaxFailedClusters is how many clusters an override's status names.
const MaxFailedClusters = 10

// FailedCluster is one cluster whose render fails, and why.
type FailedCluster struct {
	// Cluster is the cluster's name.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:MaxLength=253
	// +required
	Cluster string `json:"cluster"`
	// Rule is the index of the rule that fails, from 0.
	Rule int32 `json:"rule"`
	// Reason says what fails: the operation, the path and why.
	// +kubebuilder:validation:MaxLength=1024
	Reason string `json:"reason"`
}

// ConditionRendered says whether the override renders everywhere.
const ConditionRendered = "Rendered"

// ReasonRenderFailed: some cluster's render fails.
const ReasonRenderFailed = "RenderFailed"

// WorkOverrideList is a list of WorkOverrides.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type WorkOverrideList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the overrides.
	Items []WorkOverride `json:"items"`
}
