package statusfeedback

import (
	"context"
	"fmt"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/manifestwork/work/pkg/agent/conditionrules"
	"github.com/manifestwork/work/pkg/agent/feedback"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/metrics"
)

// target is one object a work reads.
type target struct {
	gvr             schema.GroupVersionResource
	namespace, name string
}

func targetOf(m workv1.ManifestResourceMeta) target {
	return target{
		gvr:       schema.GroupVersionResource{Group: m.Group, Version: m.Version, Resource: m.Resource},
		namespace: m.Namespace, name: m.Name,
	}
}

// reconcile refreshes the feedback values and rule conditions of every
// manifest that has rules, and the work-level conditions aggregated from
// them, in one status patch. polled tells whether some manifest is polled.
func (c *Controller) reconcile(ctx context.Context, key string, work *workv1.ManifestWork) (polled bool, err error) {
	if work.DeletionTimestamp != nil {
		c.watches.setUses(key, nil)
		return false, nil
	}
	status := work.Status.DeepCopy()
	configs := c.configured(work, status)
	var watched []target
	for _, cfg := range configs {
		if cfg.config.FeedbackScrapeType == workv1.FeedbackWatchType {
			watched = append(watched, cfg.target)
		}
	}
	c.watches.setUses(key, watched)
	if cond, ok := configsCondition(work, status, configs); ok {
		apimeta.SetStatusCondition(&status.Conditions, cond)
	}

	var ruleConditions [][]metav1.Condition
	ruleTypes := map[string]bool{}
	for _, cfg := range configs {
		mc := &status.ResourceStatus.Manifests[cfg.index]
		wasPolled := c.refresh(ctx, work.Generation, cfg, mc)
		polled = polled || wasPolled
		for _, r := range cfg.config.ConditionRules {
			// A rule's Healthy overrides a manifest's built-in health; the
			// availability controller aggregates it with the others.
			if r.Condition != workv1.WorkHealthy {
				ruleTypes[r.Condition] = true
			}
		}
		ruleConditions = append(ruleConditions, ruleConditionsOf(mc.Conditions, cfg.config.ConditionRules))
	}
	for _, cond := range conditionrules.Aggregate(ruleConditions, sortedKeys(ruleTypes), work.Generation) {
		apimeta.SetStatusCondition(&status.Conditions, cond)
	}
	_, err = c.writer.Status(ctx, work, *status)
	return polled, err
}

// configured pairs each manifestConfig with rules with its manifest's status;
// a config whose manifest has not been applied yet has nothing to read.
type configured struct {
	config     workv1.ManifestConfigOption
	configured int // in spec.manifestConfigs
	index      int // in status.resourceStatus.manifests
	target     target
}

func (c *Controller) configured(work *workv1.ManifestWork, status *workv1.ManifestWorkStatus) []configured {
	var out []configured
	for n, cfg := range work.Spec.ManifestConfigs {
		if !hasRules(cfg) {
			continue
		}
		id := cfg.ResourceIdentifier
		for i, m := range status.ResourceStatus.Manifests {
			meta := m.ResourceMeta
			if id == (workv1.ResourceIdentifier{Group: meta.Group, Resource: meta.Resource, Namespace: meta.Namespace, Name: meta.Name}) {
				out = append(out, configured{config: cfg, configured: n, index: i, target: targetOf(meta)})
				break
			}
		}
	}
	return out
}

// refresh reads one object and updates its manifest's feedback values and
// conditions. A manifest whose Complete condition is True is final: it is
// neither read nor changed again. An object that cannot be read keeps its
// feedback values and condition, as in OCM: its Available condition says
// why. It reports whether the object was polled.
func (c *Controller) refresh(ctx context.Context, generation int64, cfg configured, mc *workv1.ManifestCondition) bool {
	if apimeta.IsStatusConditionTrue(mc.Conditions, workv1.ManifestComplete) {
		return false
	}
	obj, polled, note, err := c.read(ctx, cfg)
	if len(cfg.config.FeedbackRules) > 0 && err == nil {
		values, problems := c.evaluateFeedback(ctx, cfg, obj)
		mc.StatusFeedbacks.Values = values
		apimeta.SetStatusCondition(&mc.Conditions, feedback.WithNote(feedback.SyncedCondition(problems, generation), note))
	}
	if len(cfg.config.ConditionRules) > 0 {
		var live *unstructured.Unstructured
		if err == nil {
			live = obj
		}
		for _, cond := range c.Rules.Evaluate(live, cfg.config.ConditionRules, generation) {
			apimeta.SetStatusCondition(&mc.Conditions, cond)
		}
	}
	return polled
}

// read returns the live object, from a watch when the config asks for one and
// a watch could be had, else from the API. note explains a fallback to
// polling. Each read is counted in metrics.FeedbackScrapes.
func (c *Controller) read(ctx context.Context, cfg configured) (obj *unstructured.Unstructured, polled bool, note string, err error) {
	obj, polled, note, err = c.readLive(ctx, cfg)
	mode, result := metrics.ScrapeWatch, metrics.Success
	if polled {
		mode = metrics.ScrapePoll
	}
	if err != nil {
		result = metrics.Error
	}
	metrics.FeedbackScrapes.WithLabelValues(mode, result).Inc()
	return obj, polled, note, err
}

func (c *Controller) readLive(ctx context.Context, cfg configured) (obj *unstructured.Unstructured, polled bool, note string, err error) {
	if cfg.config.FeedbackScrapeType == workv1.FeedbackWatchType {
		obj, ok, watching := c.watches.get(cfg.target)
		if ok {
			if obj == nil {
				return nil, false, "", apierrors.NewNotFound(cfg.target.gvr.GroupResource(), cfg.target.name)
			}
			return obj, false, "", nil
		}
		if !watching {
			note = fmt.Sprintf("the watch limit (--max-feedback-watch=%d) is reached; polling instead", c.MaxWatches)
		}
	}
	obj, err = c.Dynamic.Resource(cfg.target.gvr).Namespace(cfg.target.namespace).Get(ctx, cfg.target.name, metav1.GetOptions{})
	return obj, true, note, err
}

// evaluateFeedback evaluates the feedback rules on the object read in the
// manifest's version, and the JSONPaths that name another version on the
// object read in that version, once per version.
func (c *Controller) evaluateFeedback(ctx context.Context, cfg configured, obj *unstructured.Unstructured) (values []workv1.FeedbackValue, problems []string) {
	type read struct {
		obj *unstructured.Unstructured
		err error
	}
	reads := map[string]read{}
	other := func(version string) (*unstructured.Unstructured, error) {
		r, ok := reads[version]
		if !ok {
			gvr := cfg.target.gvr
			gvr.Version = version
			r.obj, r.err = c.Dynamic.Resource(gvr).Namespace(cfg.target.namespace).Get(ctx, cfg.target.name, metav1.GetOptions{})
			reads[version] = r
		}
		return r.obj, r.err
	}
	return feedback.EvaluateVersions(obj, other, cfg.config.FeedbackRules, c.Feedback)
}

// ruleConditionsOf are a manifest's conditions of its rule types.
func ruleConditionsOf(conds []metav1.Condition, rules []workv1.ConditionRule) []metav1.Condition {
	var out []metav1.Condition
	for _, r := range rules {
		if c := apimeta.FindStatusCondition(conds, r.Condition); c != nil {
			out = append(out, *c)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ConfigsValid is the work-level condition that says whether every
// manifestConfig with feedback or condition rules names a manifest of the work.
const (
	ConfigsValid               = "ManifestConfigsValid"
	ConfigsValidReasonMatched  = "ManifestConfigsMatched"
	ConfigsValidReasonNoTarget = "ManifestConfigWithoutManifest"
)

// configsCondition reports manifestConfigs whose rules name an object that is
// not in the work. It says nothing until every manifest has been mapped to its
// resource, since until then a config may name one not yet reported.
func configsCondition(work *workv1.ManifestWork, status *workv1.ManifestWorkStatus, matched []configured) (metav1.Condition, bool) {
	reported := status.ResourceStatus.Manifests
	if len(reported) != len(work.Spec.Workload.Manifests) {
		return metav1.Condition{}, false
	}
	for _, m := range reported {
		if m.ResourceMeta.Resource == "" {
			return metav1.Condition{}, false
		}
	}
	found := map[int]bool{}
	for _, m := range matched {
		found[m.configured] = true
	}
	var missing []string
	for n, cfg := range work.Spec.ManifestConfigs {
		if hasRules(cfg) && !found[n] {
			id := cfg.ResourceIdentifier
			missing = append(missing, fmt.Sprintf("manifestConfigs[%d] (%s %s/%s)",
				n, schema.GroupResource{Group: id.Group, Resource: id.Resource}, id.Namespace, id.Name))
		}
	}
	cond := metav1.Condition{Type: ConfigsValid, ObservedGeneration: work.Generation}
	if len(missing) == 0 {
		cond.Status, cond.Reason, cond.Message = metav1.ConditionTrue, ConfigsValidReasonMatched, "Every manifestConfig with rules names a manifest of the work"
		return cond, len(matched) > 0
	}
	cond.Status, cond.Reason = metav1.ConditionFalse, ConfigsValidReasonNoTarget
	cond.Message = "No manifest of the work matches " + strings.Join(missing, ", ") + "; their rules are not evaluated"
	return cond, true
}
