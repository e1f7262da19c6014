package statusfeedback

import (
	"context"
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/manifestwork/work/pkg/agent/objectwatch"
	"github.com/manifestwork/work/pkg/agent/status/conditionrules"
	"github.com/manifestwork/work/pkg/agent/status/feedback"
	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/manifest"
	"github.com/manifestwork/work/pkg/metrics"
)

// retiredConfigsValid is the work condition earlier versions set on a work
// with a manifestConfig that matched no manifest. OCM's agent reports
// nothing then, and neither does this one: the condition is removed.
const retiredConfigsValid = "ManifestConfigsValid"

// targetOf is the object a manifest's rules read.
func targetOf(m workv1.ManifestResourceMeta) objectwatch.ObjectKey {
	return objectwatch.ObjectKey{
		Resource:  schema.GroupVersionResource{Group: m.Group, Version: m.Version, Resource: m.Resource},
		Namespace: m.Namespace, Name: m.Name,
	}
}

// result tells sync how to follow a reconcile up.
type result struct {
	polled bool // some manifest is polled: it is read again in an interval
	// assessed: the work's availability was assessed here; unsettled: an
	// object is missing, unknown or just applied (availability.Assessor).
	assessed, unsettled bool
}

// reconcile refreshes the feedback values and rule conditions of every
// manifest that has rules, and the work-level conditions aggregated from
// them, then the availability and health of the work (which aggregate
// the Healthy of a rule), in one status patch.
func (c *Controller) reconcile(ctx context.Context, key string, work *workv1.ManifestWork) (r result, err error) {
	if workwriter.Released(work) {
		c.release(key)
		return result{}, nil
	}
	status := work.Status.DeepCopy()
	configs := c.configured(work, status)
	var watched []objectwatch.ObjectKey
	for _, cfg := range configs {
		if cfg.config.FeedbackScrapeType == workv1.FeedbackWatchType {
			watched = append(watched, cfg.target)
		}
	}
	c.Objects.SetWholeReads(key, watched)
	// OCM's agent has no condition about manifestConfigs that match no
	// manifest; earlier versions of this one set it.
	apimeta.RemoveStatusCondition(&status.Conditions, retiredConfigsValid)

	var ruleConditions [][]metav1.Condition
	ruleTypes := map[string]bool{}
	for _, cfg := range configs {
		mc := &status.ResourceStatus.Manifests[cfg.index]
		wasPolled := c.refresh(ctx, work.Generation, cfg, mc)
		r.polled = r.polled || wasPolled
		for _, r := range cfg.config.ConditionRules {
			// A rule's Healthy overrides a manifest's built-in health; the
			// availability assessment aggregates it with the others.
			if r.Condition != workv1.WorkHealthy {
				ruleTypes[r.Condition] = true
			}
		}
		ruleConditions = append(ruleConditions, ruleConditionsOf(mc.Conditions, cfg.config.ConditionRules))
	}
	for _, cond := range conditionrules.Aggregate(ruleConditions, sortedKeys(ruleTypes), work.Generation) {
		apimeta.SetStatusCondition(&status.Conditions, cond)
	}
	conditionrules.Prune(work, status)
	// The configs found are the work's rules (feedback.WorkHasRules).
	if c.Availability != nil && len(configs) > 0 {
		r.assessed = true
		r.unsettled = c.Availability.Assess(ctx, work, status)
	}
	if _, err = c.writer.Status(ctx, work, *status); err != nil {
		return r, err
	}
	if r.assessed {
		c.Availability.Written(work, *status)
	}
	return r, nil
}

// configured pairs each manifest whose configuration (manifest.ConfigOf)
// has rules (feedback.ConfigHasRules) with that configuration; a manifest
// not mapped to a resource yet has none, and nothing to read.
type configured struct {
	config workv1.ManifestConfigOption
	index  int // in status.resourceStatus.manifests
	target objectwatch.ObjectKey
}

func (c *Controller) configured(work *workv1.ManifestWork, status *workv1.ManifestWorkStatus) []configured {
	var out []configured
	for i, m := range status.ResourceStatus.Manifests {
		cfg := manifest.ConfigOf(work, m.ResourceMeta)
		if feedback.ConfigHasRules(cfg) {
			out = append(out, configured{config: *cfg, index: i, target: targetOf(m.ResourceMeta)})
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
		for _, cond := range c.Rules.Evaluate(ctx, live, cfg.config.ConditionRules, generation) {
			apimeta.SetStatusCondition(&mc.Conditions, cond)
		}
	}
	return polled
}

// read returns the live object, from the watch cache when the config asks
// for a watch and one could be had, else from the API. note explains a
// fallback to polling. Each read is counted in metrics.FeedbackScrapes.
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
	t := cfg.target
	watching := false
	if cfg.config.FeedbackScrapeType == workv1.FeedbackWatchType {
		var synced bool
		obj, synced, watching = c.Objects.GetWhole(t)
		if synced {
			if obj == nil {
				return nil, false, "", apierrors.NewNotFound(t.Resource.GroupResource(), t.Name)
			}
			return obj, false, "", nil
		}
		if !watching {
			note = fmt.Sprintf("the watch limit (--max-feedback-watch=%d) is reached; polling instead", c.Objects.WholeLimit())
		}
	}
	obj, err = c.Dynamic.Resource(t.Resource).Namespace(t.Namespace).Get(ctx, t.Name, metav1.GetOptions{})
	if watching && err == nil {
		// The cache held it trimmed, or did not know it yet: from now on
		// it answers.
		c.Objects.KeepWhole(t, obj)
	}
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
			gvr := cfg.target.Resource
			gvr.Version = version
			r.obj, r.err = c.Dynamic.Resource(gvr).Namespace(cfg.target.Namespace).Get(ctx, cfg.target.Name, metav1.GetOptions{})
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
