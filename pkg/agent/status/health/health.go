// Package health judges whether an applied object is healthy: a rollout that
// finished, a Job that completed, a claim that is bound. Each kind has a rule
// in a registry keyed by GroupKind; a rule names the fields it reads (so that
// the watch cache keeps only those) and turns them into a Verdict. Objects of
// other API groups (custom resources) are judged by the standard
// status.conditions (Ready, Available, Reconciling, Stalled) and
// observedGeneration; the remaining built-in kinds, such as ConfigMaps, have
// nothing to judge.
//
// Rules are pure functions of the object; they never read the API.
//
// The package also builds the Available conditions, of a manifest whose
// object exists and of the work, for every controller that writes them.
package health

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Verdict is the health of one object: the status, reason and message of
// its manifest's Healthy condition.
type Verdict struct {
	Status  metav1.ConditionStatus
	Reason  string // one of the workv1.HealthyReason* values
	Message string
}

// Condition is the manifest condition that carries the verdict.
func (v Verdict) Condition(generation int64) metav1.Condition {
	return metav1.Condition{
		Type: workv1.ManifestHealthy, Status: v.Status, Reason: v.Reason,
		Message: v.Message, ObservedGeneration: generation,
	}
}

func healthy(format string, args ...any) Verdict {
	return Verdict{metav1.ConditionTrue, workv1.HealthyReasonHealthy, fmt.Sprintf(format, args...)}
}

func progressing(format string, args ...any) Verdict {
	return Verdict{metav1.ConditionFalse, workv1.HealthyReasonProgressing, fmt.Sprintf(format, args...)}
}

func degraded(format string, args ...any) Verdict {
	return Verdict{metav1.ConditionFalse, workv1.HealthyReasonDegraded, fmt.Sprintf(format, args...)}
}

// NoHealthCheck is the verdict on an existing object of a kind that no rule
// judges.
func NoHealthCheck(kind string) Verdict {
	return Verdict{metav1.ConditionTrue, workv1.HealthyReasonNoHealthCheck,
		fmt.Sprintf("%s exists; its kind has no health check", kind)}
}

// Unknown is the verdict on an object that could not be read.
func Unknown(format string, args ...any) Verdict {
	return Verdict{metav1.ConditionUnknown, workv1.HealthyReasonUnknown, fmt.Sprintf(format, args...)}
}

// Missing is the verdict on an object that does not exist (yet): the apply
// creates it, and the Applied condition tells when it cannot.
func Missing(kind, namespace, name string) Verdict {
	return progressing("%s %s does not exist", kind, objectRef(namespace, name))
}

// Rule judges the objects of one kind.
type Rule struct {
	// Resource is the kind's resource (plural), which the watches are keyed by.
	Resource string
	// Fields are the paths, beyond metadata, that Judge reads; the watch
	// cache keeps only these.
	Fields [][]string
	// Judge decides the verdict.
	Judge func(o Object) Verdict
}

// rules are the kinds judged by a rule of their own. Add a kind here.
var rules = map[schema.GroupKind]Rule{
	{Group: "apps", Kind: "Deployment"}:                               deploymentRule,
	{Group: "apps", Kind: "StatefulSet"}:                              statefulSetRule,
	{Group: "apps", Kind: "DaemonSet"}:                                daemonSetRule,
	{Group: "apps", Kind: "ReplicaSet"}:                               replicaSetRule,
	{Group: "batch", Kind: "Job"}:                                     jobRule,
	{Group: "", Kind: "Pod"}:                                          podRule,
	{Group: "", Kind: "PersistentVolumeClaim"}:                        pvcRule,
	{Group: "", Kind: "Service"}:                                      serviceRule,
	{Group: "", Kind: "Namespace"}:                                    namespaceRule,
	{Group: "networking.k8s.io", Kind: "Ingress"}:                     ingressRule,
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}: crdRule,
	{Group: "apiregistration.k8s.io", Kind: "APIService"}:             apiServiceRule,
}

// builtinGroups are the API groups Kubernetes itself serves. Their kinds
// without a rule have nothing to judge; any other group's kinds (custom
// resources, aggregated APIs) are judged by their standard conditions.
var builtinGroups = map[string]bool{
	"": true, "apps": true, "batch": true, "autoscaling": true, "policy": true,
	"admissionregistration.k8s.io": true, "apiextensions.k8s.io": true, "apiregistration.k8s.io": true,
	"authentication.k8s.io": true, "authorization.k8s.io": true, "certificates.k8s.io": true,
	"coordination.k8s.io": true, "discovery.k8s.io": true, "events.k8s.io": true,
	"flowcontrol.apiserver.k8s.io": true, "internal.apiserver.k8s.io": true, "networking.k8s.io": true,
	"node.k8s.io": true, "rbac.authorization.k8s.io": true, "resource.k8s.io": true,
	"scheduling.k8s.io": true, "storage.k8s.io": true, "storagemigration.k8s.io": true,
}

// byResource finds the rules by the resource the watches know.
var byResource = func() map[schema.GroupResource]Rule {
	m := make(map[schema.GroupResource]Rule, len(rules))
	for gk, r := range rules {
		m[schema.GroupResource{Group: gk.Group, Resource: r.Resource}] = r
	}
	return m
}()

// ruleFor returns the rule of a kind; false when nothing judges the kind.
func ruleFor(gk schema.GroupKind) (Rule, bool) {
	return lookup(rules, gk, gk.Group)
}

// lookup finds the rule of key in a registry, else the generic one for a
// group Kubernetes does not serve itself; false when nothing judges it.
func lookup[K comparable](registry map[K]Rule, key K, group string) (Rule, bool) {
	if r, ok := registry[key]; ok {
		return r, true
	}
	if !builtinGroups[group] {
		return genericRule, true
	}
	return Rule{}, false
}

// Fields returns the paths beyond metadata that judging an object of the
// resource reads; nil when nothing judges it, and a metadata-only watch
// serves.
func Fields(gr schema.GroupResource) [][]string {
	r, _ := lookup(byResource, gr, gr.Group)
	return r.Fields
}

// Judged tells whether objects of the kind have a health rule.
func Judged(gk schema.GroupKind) bool {
	_, ok := ruleFor(gk)
	return ok
}

// Judge gives the verdict on an existing object of the kind.
func Judge(gk schema.GroupKind, obj *unstructured.Unstructured) Verdict {
	r, ok := ruleFor(gk)
	if !ok {
		return NoHealthCheck(gk.Kind)
	}
	return r.Judge(Object{obj})
}

// KindOf names a manifest's kind, or its resource when the kind is not known.
func KindOf(meta workv1.ManifestResourceMeta) string {
	if meta.Kind != "" {
		return meta.Kind
	}
	return meta.Resource
}

// RefOf names a manifest's object for people, as "Deployment default/web".
func RefOf(meta workv1.ManifestResourceMeta) string {
	return KindOf(meta) + " " + objectRef(meta.Namespace, meta.Name)
}

// objectRef is "namespace/name", or "name" for a cluster-scoped object.
func objectRef(namespace, name string) string {
	return cache.NewObjectName(namespace, name).String()
}

// joinSentences joins the non-empty parts with "; ".
func joinSentences(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}
