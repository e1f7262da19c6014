package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ManifestWork is a set of Kubernetes manifests that the work agent of a managed
// cluster applies there. It lives on the hub, in the namespace named after the
// managed cluster.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced
// +kubebuilder:printcolumn:name="Applied",type=string,JSONPath=`.status.conditions[?(@.type=="Applied")].status`
// +kubebuilder:printcolumn:name="Available",type=string,JSONPath=`.status.conditions[?(@.type=="Available")].status`
// +kubebuilder:printcolumn:name="Healthy",type=string,JSONPath=`.status.conditions[?(@.type=="Healthy")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type ManifestWork struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is what the agent should apply and how.
	// +optional
	Spec ManifestWorkSpec `json:"spec,omitempty"`

	// Status is what the agent reports back.
	// +optional
	Status ManifestWorkStatus `json:"status,omitempty"`
}

// ManifestWorkSpec is the desired state of a ManifestWork.
type ManifestWorkSpec struct {
	// Workload holds the manifests to apply.
	// +optional
	Workload ManifestsTemplate `json:"workload,omitempty"`

	// DeleteOption says what happens to the applied resources when the work is
	// deleted, and whether a finished work is deleted by itself.
	// +optional
	DeleteOption *DeleteOption `json:"deleteOption,omitempty"`

	// ManifestConfigs configure single manifests: feedback, update strategy and
	// condition rules.
	// +optional
	ManifestConfigs []ManifestConfigOption `json:"manifestConfigs,omitempty"`

	// Executor is the identity whose permissions are checked before the agent
	// applies the manifests. Empty means the agent's own identity.
	// +optional
	Executor *ManifestWorkExecutor `json:"executor,omitempty"`
}

// ManifestsTemplate is the list of manifests of a work.
type ManifestsTemplate struct {
	// Manifests are the Kubernetes objects to apply, each a whole object.
	// +optional
	Manifests []Manifest `json:"manifests,omitempty"`
}

// Manifest is one Kubernetes object, kept as raw JSON.
type Manifest struct {
	// The object must carry apiVersion, kind and metadata; the rest is kept as is.
	// +kubebuilder:validation:EmbeddedResource
	// +kubebuilder:pruning:PreserveUnknownFields
	runtime.RawExtension `json:",inline"`
}

// DeletePropagationPolicyType says what happens to applied resources on deletion.
//
// +kubebuilder:validation:Enum=Foreground;Orphan;SelectivelyOrphan
type DeletePropagationPolicyType string

const (
	// DeletePropagationPolicyTypeForeground deletes every applied resource and
	// waits until they are gone before the work is gone. The default.
	DeletePropagationPolicyTypeForeground DeletePropagationPolicyType = "Foreground"
	// DeletePropagationPolicyTypeOrphan leaves every applied resource in place.
	DeletePropagationPolicyTypeOrphan DeletePropagationPolicyType = "Orphan"
	// DeletePropagationPolicyTypeSelectivelyOrphan leaves the resources matched
	// by the orphaning rules in place and deletes the others.
	DeletePropagationPolicyTypeSelectivelyOrphan DeletePropagationPolicyType = "SelectivelyOrphan"
)

// DeleteOption configures deletion of a work and of what it applied.
type DeleteOption struct {
	// PropagationPolicy is Foreground (the default), Orphan or SelectivelyOrphan.
	// +kubebuilder:default=Foreground
	// +optional
	PropagationPolicy DeletePropagationPolicyType `json:"propagationPolicy,omitempty"`

	// SelectivelyOrphan names the resources to keep with SelectivelyOrphan.
	// +optional
	SelectivelyOrphan *SelectivelyOrphan `json:"selectivelyOrphans,omitempty"`

	// TTLSecondsAfterFinished deletes the work this many seconds after its
	// Complete condition became True. Unset means never; 0 means at once.
	// +optional
	TTLSecondsAfterFinished *int64 `json:"ttlSecondsAfterFinished,omitempty"`
}

// SelectivelyOrphan lists the resources that survive deletion of the work.
type SelectivelyOrphan struct {
	// OrphaningRules each name one resource to leave in place.
	// +optional
	OrphaningRules []OrphaningRule `json:"orphaningRules,omitempty"`
}

// OrphaningRule identifies one applied resource by group, resource, namespace and name.
type OrphaningRule struct {
	// Group of the resource; empty for the core group.
	// +optional
	Group string `json:"group,omitempty"`
	// Resource is the plural resource name, such as deployments.
	// +required
	Resource string `json:"resource"`
	// Namespace of the resource; empty for cluster-scoped resources.
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// Name of the resource.
	// +required
	Name string `json:"name"`
}

// ManifestWorkExecutor is the identity the agent checks permissions for.
type ManifestWorkExecutor struct {
	// Subject is the executor.
	// +optional
	Subject ManifestWorkExecutorSubject `json:"subject,omitempty"`
}

// ManifestWorkExecutorSubjectType is the kind of executor subject.
//
// +kubebuilder:validation:Enum=ServiceAccount
type ManifestWorkExecutorSubjectType string

// ExecutorSubjectTypeServiceAccount is a ServiceAccount on the managed cluster.
const ExecutorSubjectTypeServiceAccount ManifestWorkExecutorSubjectType = "ServiceAccount"

// ManifestWorkExecutorSubject names the executor.
type ManifestWorkExecutorSubject struct {
	// Type of the subject; only ServiceAccount.
	// +required
	Type ManifestWorkExecutorSubjectType `json:"type"`
	// ServiceAccount is the executor when Type is ServiceAccount.
	// +optional
	ServiceAccount *ManifestWorkSubjectServiceAccount `json:"serviceAccount,omitempty"`
}

// ManifestWorkSubjectServiceAccount is a ServiceAccount on the managed cluster.
type ManifestWorkSubjectServiceAccount struct {
	// Namespace of the ServiceAccount.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)$`
	Namespace string `json:"namespace"`
	// Name of the ServiceAccount.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)$`
	Name string `json:"name"`
}

// ManifestConfigOption configures one manifest of the work, found by its resource identifier.
type ManifestConfigOption struct {
	// ResourceIdentifier selects the manifest this configuration applies to.
	// +required
	ResourceIdentifier ResourceIdentifier `json:"resourceIdentifier"`

	// FeedbackRules say which status values to report back to the hub.
	// +optional
	FeedbackRules []FeedbackRule `json:"feedbackRules,omitempty"`

	// FeedbackScrapeType is Poll (the default) or Watch.
	// +kubebuilder:default=Poll
	// +optional
	FeedbackScrapeType FeedbackScrapeType `json:"feedbackScrapeType,omitempty"`

	// UpdateStrategy says how the agent applies the manifest.
	// +optional
	UpdateStrategy *UpdateStrategy `json:"updateStrategy,omitempty"`

	// ConditionRules compute conditions of the manifest, such as Complete.
	// +listType=map
	// +listMapKey=condition
	// +optional
	ConditionRules []ConditionRule `json:"conditionRules,omitempty"`
}

// ResourceIdentifier identifies one object by group, resource, namespace and name.
type ResourceIdentifier struct {
	// Group of the resource; empty for the core group.
	// +optional
	Group string `json:"group,omitempty"`
	// Resource is the plural resource name, such as deployments.
	// +required
	Resource string `json:"resource"`
	// Name of the object.
	// +required
	Name string `json:"name"`
	// Namespace of the object; empty for cluster-scoped resources.
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// FeedbackScrapeType is how the agent collects feedback values.
//
// +kubebuilder:validation:Enum=Poll;Watch
type FeedbackScrapeType string

const (
	// FeedbackPollType reads the object every --status-sync-interval.
	FeedbackPollType FeedbackScrapeType = "Poll"
	// FeedbackWatchType watches the object and reports changes at once.
	FeedbackWatchType FeedbackScrapeType = "Watch"
)

// FeedbackType is the kind of feedback rule.
//
// +kubebuilder:validation:Enum=WellKnownStatus;JSONPaths
type FeedbackType string

const (
	// WellKnownStatusType reports the predefined values of well-known kinds.
	WellKnownStatusType FeedbackType = "WellKnownStatus"
	// JSONPathsType reports the values selected by JSONPath expressions.
	JSONPathsType FeedbackType = "JSONPaths"
)

// FeedbackRule selects status values of a manifest to report back.
type FeedbackRule struct {
	// Type is WellKnownStatus or JSONPaths.
	// +required
	Type FeedbackType `json:"type"`
	// JsonPaths are the named paths to read when Type is JSONPaths.
	// +listType=map
	// +listMapKey=name
	// +optional
	JsonPaths []JsonPath `json:"jsonPaths,omitempty"` //nolint:revive // wire name
}

// JsonPath is one named JSONPath expression.
type JsonPath struct { //nolint:revive // wire name
	// Name of the reported value.
	// +required
	Name string `json:"name"`
	// Version is the API version to read the object in; empty means the manifest's.
	// +optional
	Version string `json:"version,omitempty"`
	// Path is a Kubernetes JSONPath, such as .status.readyReplicas.
	// +required
	Path string `json:"path"`
}

// UpdateStrategyType is how the agent writes a manifest to the managed cluster.
//
// +kubebuilder:validation:Enum=Update;CreateOnly;ServerSideApply;ReadOnly
type UpdateStrategyType string

const (
	// UpdateStrategyTypeUpdate creates the object, or updates it when it differs. The default.
	UpdateStrategyTypeUpdate UpdateStrategyType = "Update"
	// UpdateStrategyTypeCreateOnly creates the object and never changes it afterwards.
	UpdateStrategyTypeCreateOnly UpdateStrategyType = "CreateOnly"
	// UpdateStrategyTypeServerSideApply applies the object with server-side apply.
	UpdateStrategyTypeServerSideApply UpdateStrategyType = "ServerSideApply"
	// UpdateStrategyTypeReadOnly never writes; the object is only read.
	UpdateStrategyTypeReadOnly UpdateStrategyType = "ReadOnly"
)

// UpdateStrategy configures how a manifest is applied.
type UpdateStrategy struct {
	// Type is Update (the default), CreateOnly, ServerSideApply or ReadOnly.
	// +kubebuilder:default=Update
	// +required
	Type UpdateStrategyType `json:"type"`
	// ServerSideApply configures the ServerSideApply strategy.
	// +optional
	ServerSideApply *ServerSideApplyConfig `json:"serverSideApply,omitempty"`
}

// ServerSideApplyConfig configures server-side apply of a manifest.
type ServerSideApplyConfig struct {
	// Force takes over fields owned by other managers.
	// +optional
	Force bool `json:"force"`
	// FieldManager is the field manager name; it must start with work-agent.
	// +kubebuilder:default=work-agent
	// +kubebuilder:validation:Pattern=`^work-agent`
	// +optional
	FieldManager string `json:"fieldManager,omitempty"`
	// IgnoreFields are fields the agent leaves alone once the object exists.
	// +listType=map
	// +listMapKey=condition
	// +optional
	IgnoreFields []IgnoreField `json:"ignoreFields,omitempty"`
}

// IgnoreFieldsCondition says when ignored fields are left alone.
//
// +kubebuilder:validation:Enum=OnSpokePresent;OnSpokeChange
type IgnoreFieldsCondition string

const (
	// IgnoreFieldsConditionOnSpokePresent ignores the fields whenever the object exists.
	IgnoreFieldsConditionOnSpokePresent IgnoreFieldsCondition = "OnSpokePresent"
	// IgnoreFieldsConditionOnSpokeChange ignores changes made on the managed
	// cluster, but applies changes of the work itself.
	IgnoreFieldsConditionOnSpokeChange IgnoreFieldsCondition = "OnSpokeChange"
)

// IgnoreField lists fields to ignore under one condition.
type IgnoreField struct {
	// Condition is OnSpokePresent (the default) or OnSpokeChange.
	// +kubebuilder:default=OnSpokePresent
	// +required
	Condition IgnoreFieldsCondition `json:"condition"`
	// JSONPaths of the fields, such as .data.
	// +optional
	JSONPaths []string `json:"jsonPaths,omitempty"`
	// JSONPointers (RFC 6901) of the fields, such as /data.
	// +optional
	JSONPointers []string `json:"jsonPointers,omitempty"`
	// JQPathExpressions of the fields, such as .data.key.
	// +optional
	JQPathExpressions []string `json:"jqPathExpressions,omitempty"`
}

// ConditionRuleType is the kind of condition rule.
//
// +kubebuilder:validation:Enum=WellKnownConditions;CEL
type ConditionRuleType string

const (
	// WellKnownConditionsType uses the built-in rules of well-known kinds.
	WellKnownConditionsType ConditionRuleType = "WellKnownConditions"
	// CELConditionExpressionsType evaluates CEL expressions.
	CELConditionExpressionsType ConditionRuleType = "CEL"
)

// ConditionRule computes one condition of a manifest.
type ConditionRule struct {
	// Condition is the type of the condition to set, such as Complete.
	// +required
	Condition string `json:"condition"`
	// Type is WellKnownConditions or CEL.
	// +required
	Type ConditionRuleType `json:"type"`
	// CelExpressions must all be true for the condition to be True. Each sees
	// the live object as `object`.
	// +optional
	CelExpressions []string `json:"celExpressions,omitempty"`
	// Message is the condition message when no messageExpression is set.
	// +optional
	Message string `json:"message,omitempty"`
	// MessageExpression is a CEL expression for the message; it sees `object`
	// and the bool `result`.
	// +optional
	MessageExpression string `json:"messageExpression,omitempty"`
}

// ManifestWorkStatus is what the agent reports about a ManifestWork.
type ManifestWorkStatus struct {
	// Conditions of the whole work: Applied, Available, Progressing, Degraded,
	// Complete, Deleting and those aggregated from condition rules.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// ResourceStatus holds the status of each manifest.
	// +optional
	ResourceStatus ManifestResourceStatus `json:"resourceStatus,omitempty"`
}

// ManifestResourceStatus holds the status of each manifest of a work.
type ManifestResourceStatus struct {
	// Manifests are the per-manifest statuses.
	// +optional
	Manifests []ManifestCondition `json:"manifests,omitempty"`
}

// ManifestCondition is the status of one manifest.
type ManifestCondition struct {
	// ResourceMeta identifies the manifest.
	// +required
	ResourceMeta ManifestResourceMeta `json:"resourceMeta"`
	// StatusFeedbacks are the values collected by the feedback rules.
	// +optional
	StatusFeedbacks StatusFeedbackResult `json:"statusFeedback,omitempty"`
	// Conditions of this manifest: Applied, Available, StatusFeedbackSynced and
	// those of its condition rules.
	// +listType=map
	// +listMapKey=type
	// +required
	Conditions []metav1.Condition `json:"conditions"`
}

// ManifestResourceMeta identifies a manifest by its index and its resource.
type ManifestResourceMeta struct {
	// Ordinal is the index of the manifest in spec.workload.manifests.
	// +required
	Ordinal int32 `json:"ordinal"`
	// Group of the resource.
	// +optional
	Group string `json:"group"`
	// Version of the resource.
	// +optional
	Version string `json:"version"`
	// Kind of the resource.
	// +optional
	Kind string `json:"kind"`
	// Resource is the plural resource name.
	// +optional
	Resource string `json:"resource"`
	// Name of the object.
	// +optional
	Name string `json:"name"`
	// Namespace of the object.
	// +optional
	Namespace string `json:"namespace"`
}

// StatusFeedbackResult holds the feedback values of a manifest.
type StatusFeedbackResult struct {
	// Values are the collected values, by name.
	// +listType=map
	// +listMapKey=name
	// +optional
	Values []FeedbackValue `json:"values,omitempty"`
}

// FeedbackValue is one named feedback value.
type FeedbackValue struct {
	// Name of the value, such as ReadyReplicas.
	// +required
	Name string `json:"name"`
	// Value is the typed value.
	// +required
	Value FieldValue `json:"fieldValue"`
}

// ValueType is the type of a feedback value.
//
// +kubebuilder:validation:Enum=Integer;String;Boolean;JsonRaw
type ValueType string

const (
	// Integer is a 64-bit integer value.
	Integer ValueType = "Integer"
	// String is a string value.
	String ValueType = "String"
	// Boolean is a boolean value.
	Boolean ValueType = "Boolean"
	// JsonRaw is a JSON document as a string.
	JsonRaw ValueType = "JsonRaw" //nolint:revive // wire name
)

// FieldValue is a typed feedback value; exactly the field that Type names is set.
type FieldValue struct {
	// Type is Integer, String, Boolean or JsonRaw.
	// +required
	Type ValueType `json:"type"`
	// Integer value.
	// +optional
	Integer *int64 `json:"integer,omitempty"`
	// String value.
	// +optional
	String *string `json:"string,omitempty"`
	// Boolean value.
	// +optional
	Boolean *bool `json:"boolean,omitempty"`
	// JsonRaw is a JSON document, at most 1024 bytes.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	JsonRaw *string `json:"jsonRaw,omitempty"` //nolint:revive // wire name
}

// ManifestWorkList is a list of ManifestWorks.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type ManifestWorkList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []ManifestWork `json:"items"`
}

// AppliedManifestWork records, on the managed cluster, what the agent applied
// for one ManifestWork. Its name is <hubHash>-<manifestWorkName>.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:printcolumn:name="Work",type=string,JSONPath=`.spec.manifestWorkName`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type AppliedManifestWork struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec names the ManifestWork and the hub it came from.
	// +optional
	Spec AppliedManifestWorkSpec `json:"spec,omitempty"`

	// Status lists the resources applied.
	// +optional
	Status AppliedManifestWorkStatus `json:"status,omitempty"`
}

// AppliedManifestWorkSpec names the ManifestWork and the hub it came from.
type AppliedManifestWorkSpec struct {
	// HubHash is the lowercase hex SHA-256 of the hub's kube-apiserver URL.
	// +required
	HubHash string `json:"hubHash"`
	// AgentID identifies the agent that applied the work.
	// +optional
	AgentID string `json:"agentID,omitempty"`
	// ManifestWorkName is the name of the ManifestWork on the hub.
	// +required
	ManifestWorkName string `json:"manifestWorkName"`
}

// AppliedManifestWorkStatus lists the resources an AppliedManifestWork owns.
type AppliedManifestWorkStatus struct {
	// AppliedResources are the applied objects, with their UIDs.
	// +optional
	AppliedResources []AppliedManifestResourceMeta `json:"appliedResources,omitempty"`
	// EvictionStartTime is set while an AppliedManifestWork whose ManifestWork
	// is gone waits to be evicted.
	// +optional
	EvictionStartTime *metav1.Time `json:"evictionStartTime,omitempty"`
}

// AppliedManifestResourceMeta identifies one applied object.
type AppliedManifestResourceMeta struct {
	ResourceIdentifier `json:",inline"`
	// Version of the resource.
	// +required
	Version string `json:"version"`
	// UID of the object the agent applied.
	// +optional
	UID string `json:"uid,omitempty"`
}

// AppliedManifestWorkList is a list of AppliedManifestWorks.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type AppliedManifestWorkList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []AppliedManifestWork `json:"items"`
}
