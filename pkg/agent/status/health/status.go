package health

import (
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/status/conditionrules"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
)

// Overridden tells whether a condition rule of the work sets the manifest's
// Healthy condition: the rule then replaces the built-in one. A rule that
// gives the manifest no condition (conditionrules.Produces), such as a
// WellKnownConditions rule of type Healthy, leaves the built-in one.
func Overridden(work *workv1.ManifestWork, meta workv1.ManifestResourceMeta) bool {
	cfg := manifest.ConfigOf(work, meta)
	return cfg != nil && conditionrules.ProducesType(cfg.ConditionRules, conditionrules.GVKOf(meta), workv1.ManifestHealthy)
}

// WorkCondition aggregates the Healthy conditions of the manifests of a
// status into the work's; false while some manifest has none yet.
func WorkCondition(status *workv1.ManifestWorkStatus, generation int64) (metav1.Condition, bool) {
	manifests := make([]Manifest, len(status.ResourceStatus.Manifests))
	for i := range status.ResourceStatus.Manifests {
		mc := &status.ResourceStatus.Manifests[i]
		manifests[i] = Manifest{
			Ref:       RefOf(mc.ResourceMeta),
			Condition: apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestHealthy),
		}
	}
	cond, ok := Aggregate(manifests, generation)
	cond.Message = workv1.Shorten(cond.Message, workv1.MaxConditionMessageLength, "")
	return cond, ok
}
