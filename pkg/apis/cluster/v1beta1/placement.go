package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Placement selects managed clusters from cluster sets. OCM's placement
// controller writes the result into PlacementDecisions and the Placement's
// status; this project only reads both. Its fields are all here so that the
// CRD for hubs without OCM accepts every Placement OCM accepts.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Succeeded",type=string,JSONPath=`.status.conditions[?(@.type=="PlacementSatisfied")].status`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="PlacementSatisfied")].reason`
// +kubebuilder:printcolumn:name="SelectedClusters",type=integer,JSONPath=`.status.numberOfSelectedClusters`
type Placement struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec says which clusters to select and how to group them.
	// +kubebuilder:validation:Required
	// +required
	Spec PlacementSpec `json:"spec"`

	// Status is the selection's outcome.
	// +optional
	Status PlacementStatus `json:"status,omitempty"`
}

// PlacementSpec is the selection of clusters.
type PlacementSpec struct {
	// ClusterSets are the ManagedClusterSets, bound to the namespace, to
	// select from; empty means all bound sets.
	// +optional
	ClusterSets []string `json:"clusterSets,omitempty"`

	// NumberOfClusters caps how many clusters are selected; unset selects all
	// that match.
	// +optional
	NumberOfClusters *int32 `json:"numberOfClusters,omitempty"`

	// Predicates are alternatives: a cluster matching any of them qualifies.
	// +optional
	Predicates []ClusterPredicate `json:"predicates,omitempty"`

	// PrioritizerPolicy orders the qualifying clusters.
	// +optional
	PrioritizerPolicy PrioritizerPolicy `json:"prioritizerPolicy"`

	// SpreadPolicy spreads the selection over topologies.
	// +optional
	SpreadPolicy SpreadPolicy `json:"spreadPolicy,omitempty"`

	// Tolerations let tainted clusters be selected.
	// +optional
	Tolerations []Toleration `json:"tolerations,omitempty"`

	// DecisionStrategy splits the selection into decision groups.
	// +optional
	DecisionStrategy DecisionStrategy `json:"decisionStrategy,omitempty"`

	// SortBy orders the decisions: ClusterName (the default) or Score.
	// +kubebuilder:default=ClusterName
	// +optional
	SortBy PlacementSortByType `json:"sortBy,omitempty"`

	// ScoreRateLimit is the least time between two re-evaluations caused by
	// score changes, such as "1m" (the default).
	// +kubebuilder:validation:Pattern=`^[0-9]+[hms]$`
	// +kubebuilder:default="1m"
	// +optional
	ScoreRateLimit string `json:"scoreRateLimit,omitempty"`
}

// PlacementSortByType orders decisions.
//
// +kubebuilder:validation:Enum=ClusterName;Score
type PlacementSortByType string

// Orders of decisions.
const (
	SortByClusterName PlacementSortByType = "ClusterName"
	SortByScore       PlacementSortByType = "Score"
)

// DecisionStrategy groups the selected clusters.
type DecisionStrategy struct {
	// GroupStrategy defines the groups.
	// +optional
	GroupStrategy GroupStrategy `json:"groupStrategy,omitempty"`
}

// GroupStrategy defines decision groups: named ones first, then the rest in
// groups of ClustersPerDecisionGroup.
type GroupStrategy struct {
	// DecisionGroups are named groups, each of the clusters its selector matches.
	// +optional
	DecisionGroups []DecisionGroup `json:"decisionGroups,omitempty"`

	// ClustersPerDecisionGroup is the largest group, as a count or a
	// percentage of the selected clusters; "100%" (the default) is one group.
	// +kubebuilder:validation:XIntOrString
	// +kubebuilder:validation:Pattern=`^((100|[1-9][0-9]{0,1})%|[1-9][0-9]*)$`
	// +kubebuilder:default="100%"
	// +optional
	ClustersPerDecisionGroup intstr.IntOrString `json:"clustersPerDecisionGroup,omitempty"`
}

// DecisionGroup is a named group of clusters.
type DecisionGroup struct {
	// GroupName becomes the label DecisionGroupNameLabel of the group's decisions.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9][-A-Za-z0-9_.]{0,61}[a-zA-Z0-9]$`
	// +required
	GroupName string `json:"groupName,omitempty"`

	// ClusterSelector picks the group's clusters among the selected ones.
	// +kubebuilder:validation:Required
	// +required
	ClusterSelector GroupClusterSelector `json:"groupClusterSelector,omitempty"`
}

// GroupClusterSelector selects clusters by labels and claims.
type GroupClusterSelector struct {
	// LabelSelector matches cluster labels.
	// +optional
	LabelSelector metav1.LabelSelector `json:"labelSelector,omitempty"`

	// ClaimSelector matches cluster claims.
	// +optional
	ClaimSelector ClusterClaimSelector `json:"claimSelector,omitempty"`
}

// ClusterPredicate is one way for a cluster to qualify.
type ClusterPredicate struct {
	// RequiredClusterSelector must match the cluster.
	// +optional
	RequiredClusterSelector ClusterSelector `json:"requiredClusterSelector,omitempty"`
}

// ClusterSelector selects clusters by labels, claims and CEL expressions;
// all that are set must match.
type ClusterSelector struct {
	// LabelSelector matches cluster labels.
	// +optional
	LabelSelector metav1.LabelSelector `json:"labelSelector,omitempty"`

	// ClaimSelector matches cluster claims.
	// +optional
	ClaimSelector ClusterClaimSelector `json:"claimSelector,omitempty"`

	// CelSelector matches CEL expressions over the cluster.
	// +optional
	CelSelector ClusterCelSelector `json:"celSelector,omitempty"`
}

// ClusterCelSelector is a list of CEL expressions that must all be true.
type ClusterCelSelector struct {
	// +optional
	CelExpressions []string `json:"celExpressions,omitempty"`
}

// ClusterClaimSelector matches cluster claims like a label selector's expressions.
type ClusterClaimSelector struct {
	// MatchExpressions must all match.
	// +optional
	MatchExpressions []metav1.LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// PrioritizerPolicy says which prioritizers score clusters.
type PrioritizerPolicy struct {
	// Mode is Additive (the default: Configurations add to the defaults) or
	// Exact (only Configurations count).
	// +kubebuilder:default=Additive
	// +optional
	Mode PrioritizerPolicyModeType `json:"mode,omitempty"`

	// Configurations are the prioritizers and their weights.
	// +optional
	Configurations []PrioritizerConfig `json:"configurations,omitempty"`
}

// PrioritizerPolicyModeType is Additive or Exact.
type PrioritizerPolicyModeType string

// Modes of a PrioritizerPolicy.
const (
	PrioritizerPolicyModeAdditive PrioritizerPolicyModeType = "Additive"
	PrioritizerPolicyModeExact    PrioritizerPolicyModeType = "Exact"
)

// PrioritizerConfig is a score source and its weight.
type PrioritizerConfig struct {
	// ScoreCoordinate names the score.
	// +kubebuilder:validation:Required
	// +required
	ScoreCoordinate *ScoreCoordinate `json:"scoreCoordinate,omitempty"`

	// Weight multiplies the score, from -10 to 10; 1 by default.
	// +kubebuilder:validation:Minimum=-10
	// +kubebuilder:validation:Maximum=10
	// +kubebuilder:default=1
	// +optional
	Weight int32 `json:"weight,omitempty"`
}

// ScoreCoordinate is a built-in prioritizer or an add-on's score.
type ScoreCoordinate struct {
	// Type is BuiltIn (the default) or AddOn.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:Enum=BuiltIn;AddOn
	// +kubebuilder:default=BuiltIn
	// +required
	Type string `json:"type,omitempty"`

	// BuiltIn names a built-in prioritizer, for type BuiltIn.
	// +optional
	BuiltIn string `json:"builtIn,omitempty"`

	// AddOn names an AddOnPlacementScore, for type AddOn.
	// +optional
	AddOn *AddOnScore `json:"addOn,omitempty"`
}

// AddOnScore is one score of an AddOnPlacementScore.
type AddOnScore struct {
	// ResourceName is the AddOnPlacementScore's name.
	// +kubebuilder:validation:Required
	// +required
	ResourceName string `json:"resourceName"`

	// ScoreName is the score's name within it.
	// +kubebuilder:validation:Required
	// +required
	ScoreName string `json:"scoreName"`
}

// SpreadPolicy spreads the selection over topologies.
type SpreadPolicy struct {
	// SpreadConstraints are applied in order; at most 8.
	// +kubebuilder:validation:MaxItems=8
	// +optional
	SpreadConstraints []SpreadConstraintsTerm `json:"spreadConstraints,omitempty"`
}

// SpreadConstraintsTerm spreads clusters over the values of a label or claim.
type SpreadConstraintsTerm struct {
	// TopologyKey is the label or claim whose values are the topologies.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:Pattern=`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`
	// +kubebuilder:validation:MaxLength=316
	// +required
	TopologyKey string `json:"topologyKey"`

	// TopologyKeyType is Label or Claim.
	// +kubebuilder:validation:Required
	// +kubebuilder:validation:Enum=Label;Claim
	// +required
	TopologyKeyType TopologyKeyType `json:"topologyKeyType"`

	// MaxSkew is the largest allowed difference between two topologies'
	// counts; 1 by default.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:default=1
	// +optional
	MaxSkew int32 `json:"maxSkew"`

	// WhenUnsatisfiable is ScheduleAnyway (the default) or DoNotSchedule.
	// +kubebuilder:validation:Enum=DoNotSchedule;ScheduleAnyway
	// +kubebuilder:default=ScheduleAnyway
	// +optional
	WhenUnsatisfiable UnsatisfiableMaxSkewAction `json:"whenUnsatisfiable"`
}

// TopologyKeyType is Label or Claim.
type TopologyKeyType string

// UnsatisfiableMaxSkewAction is DoNotSchedule or ScheduleAnyway.
type UnsatisfiableMaxSkewAction string

// Toleration lets clusters with a matching taint be selected.
type Toleration struct {
	// Key is the taint key to match; empty matches every key (with Exists).
	// +kubebuilder:validation:Pattern=`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$`
	// +kubebuilder:validation:MaxLength=316
	// +optional
	Key string `json:"key,omitempty"`

	// Operator is Equal (the default) or Exists.
	// +kubebuilder:default="Equal"
	// +optional
	Operator TolerationOperator `json:"operator,omitempty"`

	// Value is the taint value to match, with Equal.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Value string `json:"value,omitempty"`

	// Effect is the taint effect to match; empty matches all.
	// +kubebuilder:validation:Enum=NoSelect;PreferNoSelect;NoSelectIfNew
	// +optional
	Effect TaintEffect `json:"effect,omitempty"`

	// TolerationSeconds is how long a matching taint is tolerated; unset is forever.
	// +optional
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

// TolerationOperator is Equal or Exists.
type TolerationOperator string

// TaintEffect is the effect of a ManagedCluster's taint.
type TaintEffect string

// PlacementStatus is the selection's outcome.
type PlacementStatus struct {
	// NumberOfSelectedClusters is how many clusters are selected.
	// +optional
	NumberOfSelectedClusters int32 `json:"numberOfSelectedClusters"`

	// DecisionGroups lists the decision groups and their clusters.
	// +optional
	DecisionGroups []DecisionGroupStatus `json:"decisionGroups"`

	// Conditions: PlacementSatisfied and PlacementMisconfigured.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions"`

	// LastScoreUpdateTime is when scores last changed the selection.
	// +optional
	LastScoreUpdateTime *metav1.Time `json:"lastScoreUpdateTime,omitempty"`
}

// DecisionGroupStatus is one decision group.
type DecisionGroupStatus struct {
	// DecisionGroupIndex is the group's index, as in DecisionGroupIndexLabel.
	// +optional
	DecisionGroupIndex int32 `json:"decisionGroupIndex"`

	// DecisionGroupName is the group's name, as in DecisionGroupNameLabel; it
	// may be empty.
	// +optional
	DecisionGroupName string `json:"decisionGroupName"`

	// Decisions are the names of the group's PlacementDecisions.
	// +optional
	Decisions []string `json:"decisions"`

	// ClustersCount is how many clusters the group has.
	// +kubebuilder:default=0
	// +optional
	ClustersCount int32 `json:"clusterCount"`
}

// Condition types of a Placement.
const (
	// PlacementConditionSatisfied is True when the selection found the clusters it wanted.
	PlacementConditionSatisfied = "PlacementSatisfied"
	// PlacementConditionMisconfigured is True when the spec cannot be evaluated.
	PlacementConditionMisconfigured = "PlacementMisconfigured"
)

// PlacementList is a list of Placements.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type PlacementList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Placement `json:"items"`
}
