package webhook

import (
	"encoding/json"
	"fmt"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
)

// OverridePath is where the webhook serves WorkOverride reviews (any path
// of the webhook reviews both kinds, by the request's kind).
const OverridePath = "/validate-workoverride"

// overrideKind is the other kind this webhook reviews.
var overrideKind = schema.GroupKind{Group: fleetv1alpha1.SchemeGroupVersion.Group, Kind: "WorkOverride"}

// decideOverride decides on a WorkOverride write: an UPDATE that leaves
// spec as it was is allowed at once; any other CREATE or UPDATE must have
// rules that can render (validateOverride). Whether a patch's path exists
// in a manifest is known only per cluster, when rendering.
func decideOverride(req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
	o := &fleetv1alpha1.WorkOverride{}
	if done := specWrite(req, o, overrideKind.Kind); done != nil {
		return done
	}
	if errs := validateOverride(o); len(errs) > 0 {
		return refuse(apierrors.NewInvalid(overrideKind, o.Name, errs))
	}
	return allow()
}

// validateOverride checks what the CRD's schema and CEL cannot: that add
// and replace have a value and remove none, that values are JSON whose
// variables parse, that paths are JSON pointers, label selectors valid and
// decision groups <placement>/<group>; and again what they can (a rule
// selects clusters, has patches or drop), for a hub whose CRD is older.
// Each error's field names the rule and the patch.
func validateOverride(o *fleetv1alpha1.WorkOverride) field.ErrorList {
	var errs field.ErrorList
	rules := field.NewPath("spec", "rules")
	if len(o.Spec.Rules) == 0 {
		errs = append(errs, field.Required(rules, "an override has at least one rule"))
	}
	for i, r := range o.Spec.Rules {
		errs = append(errs, validateRule(r, rules.Index(i))...)
	}
	return errs
}

func validateRule(r fleetv1alpha1.WorkOverrideRule, at *field.Path) field.ErrorList {
	var errs field.ErrorList
	clusters := at.Child("clusters")
	if r.Clusters.ClusterNames == nil && r.Clusters.LabelSelector == nil && r.Clusters.DecisionGroups == nil {
		errs = append(errs, field.Required(clusters, "set at least one of clusterNames, labelSelector, decisionGroups"))
	}
	if r.Clusters.LabelSelector != nil {
		if _, err := metav1.LabelSelectorAsSelector(r.Clusters.LabelSelector); err != nil {
			errs = append(errs, field.Invalid(clusters.Child("labelSelector"), r.Clusters.LabelSelector, err.Error()))
		}
	}
	for j, g := range r.Clusters.DecisionGroups {
		placement, group, ok := strings.Cut(g, "/")
		if !ok || placement == "" || group == "" || strings.Contains(group, "/") {
			errs = append(errs, field.Invalid(clusters.Child("decisionGroups").Index(j), g,
				"a decision group is <placement>/<group>, the group by its name or index"))
		}
	}
	if len(r.Manifests) == 0 {
		errs = append(errs, field.Required(at.Child("manifests"), "name the manifests the rule changes ({} names every one)"))
	}
	if (len(r.Patches) > 0) == r.Drop {
		errs = append(errs, field.Invalid(at, "", "a rule has either patches or drop: true, not both"))
	}
	for j, p := range r.Patches {
		errs = append(errs, validatePatch(p, at.Child("patches").Index(j))...)
	}
	return errs
}

func validatePatch(p fleetv1alpha1.Patch, at *field.Path) field.ErrorList {
	var errs field.ErrorList
	if err := checkPointer(p.Path); err != nil {
		errs = append(errs, field.Invalid(at.Child("path"), p.Path, err.Error()))
	}
	value := at.Child("value")
	switch p.Op {
	case fleetv1alpha1.PatchAdd, fleetv1alpha1.PatchReplace:
		if p.Value == nil {
			return append(errs, field.Required(value, fmt.Sprintf("%s needs a value", p.Op)))
		}
		var v any
		if err := json.Unmarshal(p.Value.Raw, &v); err != nil {
			return append(errs, field.Invalid(value, string(p.Value.Raw), "the value is not JSON: "+err.Error()))
		}
		if err := render.CheckVariables(v); err != nil {
			errs = append(errs, field.Invalid(value, string(p.Value.Raw), err.Error()))
		}
	case fleetv1alpha1.PatchRemove:
		if p.Value != nil {
			errs = append(errs, field.Forbidden(value, "remove takes no value"))
		}
	default:
		errs = append(errs, field.NotSupported(at.Child("op"), p.Op, []fleetv1alpha1.PatchOp{fleetv1alpha1.PatchAdd, fleetv1alpha1.PatchReplace, fleetv1alpha1.PatchRemove}))
	}
	return errs
}

// checkPointer refuses what is not a JSON pointer (RFC 6901) to a member
// of a manifest: it starts with /, and ~ is followed by 0 or 1.
func checkPointer(path string) error {
	if !strings.HasPrefix(path, "/") {
		return fmt.Errorf("a path is a JSON pointer, such as /spec/replicas: it starts with /")
	}
	for i := 0; i < len(path); i++ {
		if path[i] == '~' && (i+1 == len(path) || (path[i+1] != '0' && path[i+1] != '1')) {
			return fmt.Errorf("~ at %d is neither ~0 (a ~) nor ~1 (a /)", i)
		}
	}
	return nil
}
