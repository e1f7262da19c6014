package health

import (
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Overridden tells whether a condition rule of the work sets the manifest's
// Healthy condition: the rule then replaces the built-in one.
func Overridden(work *workv1.ManifestWork, meta workv1.ManifestResourceMeta) bool {
	for _, cfg := range work.Spec.ManifestConfigs {
		id := cfg.ResourceIdentifier
		if id.Group != meta.Group || id.Resource != meta.Resource || id.Namespace != meta.Namespace || id.Name != meta.Name {
			continue
		}
		for _, r := range cfg.ConditionRules {
			if r.Condition == workv1.ManifestHealthy {
				return true
			}
		}
	}
	return false
}

// WorkCondition aggregates the Healthy conditions of the manifests of a
// status into the work's; false while some manifest has none yet.
func WorkCondition(status *workv1.ManifestWorkStatus, generation int64) (metav1.Condition, bool) {
	manifests := make([]Manifest, len(status.ResourceStatus.Manifests))
	for i := range status.ResourceStatus.Manifests {
		mc := &status.ResourceStatus.Manifests[i]
		kind := mc.ResourceMeta.Kind
		if kind == "" {
			kind = mc.ResourceMeta.Resource
		}
		manifests[i] = Manifest{
			Ref:       kind + " " + objectRef(mc.ResourceMeta.Namespace, mc.ResourceMeta.Name),
			Condition: apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestHealthy),
		}
	}
	cond, ok := Aggregate(manifests, generation)
	cond.Message = workwriter.TruncateMessage(cond.Message)
	return cond, ok
}
