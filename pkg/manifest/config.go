package manifest

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// Matches tells whether a manifestConfig's resourceIdentifier names the
// object. Group and resource must be equal; the identifier has no version,
// so any version matches. Name and namespace are globs (see Glob), as OCM's
// agent reads them: {group: apps, resource: deployments, namespace: "*",
// name: "*"} names every Deployment of the work, and a cluster-scoped object
// (namespace "") is named by namespace "" or "*".
//
// Only manifestConfigs match this way: the orphaning rules of a deleteOption
// name objects exactly.
func Matches(id workv1.ResourceIdentifier, gvr schema.GroupVersionResource, namespace, name string) bool {
	return id.Group == gvr.Group && id.Resource == gvr.Resource &&
		Glob(id.Namespace, namespace) && Glob(id.Name, name)
}

// Glob tells whether s matches pattern as a whole, where '*' stands for any
// run of characters, none included, and every other character, '?' and '['
// included, for itself.
func Glob(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	first, last := parts[0], parts[len(parts)-1]
	if len(s) < len(first)+len(last) || !strings.HasPrefix(s, first) || !strings.HasSuffix(s, last) {
		return false
	}
	// The middle parts, in order, each as early as it can be: taking the
	// earliest occurrence leaves the most room for the parts after it.
	rest := s[len(first) : len(s)-len(last)]
	for _, part := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, part)
		if i < 0 {
			return false
		}
		rest = rest[i+len(part):]
	}
	return true
}

// ConfigFor is the configuration of the object: what the manifestConfigs
// that match it (Matches) say, merged as OCM's agent merges them. Each of
// feedbackRules, conditionRules and updateStrategy comes from the first
// matching config that sets it (non-empty rules, a non-nil strategy), so a
// "*" config with feedback rules and an exact one with a strategy both apply.
// feedbackScrapeType comes with the feedback rules, else with the condition
// rules, else from the first matching config. The result names the object
// itself; nil when no config matches.
func ConfigFor(configs []workv1.ManifestConfigOption, gvr schema.GroupVersionResource, namespace, name string) *workv1.ManifestConfigOption {
	var merged *workv1.ManifestConfigOption
	var from [len(mergedFields)]*workv1.ManifestConfigOption // the config each field came from
	var scrapeFrom *workv1.ManifestConfigOption
	for i := range configs {
		c := &configs[i]
		if !Matches(c.ResourceIdentifier, gvr, namespace, name) {
			continue
		}
		if merged == nil {
			merged = &workv1.ManifestConfigOption{ResourceIdentifier: workv1.ResourceIdentifier{
				Group: gvr.Group, Resource: gvr.Resource, Namespace: namespace, Name: name,
			}}
			scrapeFrom = c
		}
		for n, f := range mergedFields {
			if f.unset(merged) && !f.unset(c) {
				f.take(merged, c)
				from[n] = c
			}
		}
	}
	if merged == nil {
		return nil
	}
	for n := len(mergedFields) - 1; n >= 0; n-- {
		if mergedFields[n].carriesScrapeType && from[n] != nil {
			scrapeFrom = from[n]
		}
	}
	merged.FeedbackScrapeType = scrapeFrom.FeedbackScrapeType
	return merged
}

// mergedField is one part of a manifestConfig that ConfigFor takes from the
// first matching config that sets it. The rules whose config's
// feedbackScrapeType comes along are marked; the first of the table found
// gives it.
type mergedField struct {
	unset             func(*workv1.ManifestConfigOption) bool
	take              func(dst, src *workv1.ManifestConfigOption)
	carriesScrapeType bool
}

var mergedFields = [...]mergedField{
	{
		unset:             func(c *workv1.ManifestConfigOption) bool { return len(c.FeedbackRules) == 0 },
		take:              func(dst, src *workv1.ManifestConfigOption) { dst.FeedbackRules = src.FeedbackRules },
		carriesScrapeType: true,
	},
	{
		unset:             func(c *workv1.ManifestConfigOption) bool { return len(c.ConditionRules) == 0 },
		take:              func(dst, src *workv1.ManifestConfigOption) { dst.ConditionRules = src.ConditionRules },
		carriesScrapeType: true,
	},
	{
		unset: func(c *workv1.ManifestConfigOption) bool { return c.UpdateStrategy == nil },
		take:  func(dst, src *workv1.ManifestConfigOption) { dst.UpdateStrategy = src.UpdateStrategy },
	},
}

// StrategyFor is the update strategy work sets for the object; Update when
// none is set.
func StrategyFor(work *workv1.ManifestWork, gvr schema.GroupVersionResource, namespace, name string) workv1.UpdateStrategyType {
	return StrategyOf(ConfigFor(work.Spec.ManifestConfigs, gvr, namespace, name))
}

// ConfigOf is the configuration of a manifest from its resourceMeta, as
// ConfigFor; nil for a manifest not mapped to a resource or without a name,
// which has no object to read or judge (a config's name pattern "*" would
// match the empty name).
func ConfigOf(work *workv1.ManifestWork, meta workv1.ManifestResourceMeta) *workv1.ManifestConfigOption {
	if meta.Resource == "" || meta.Name == "" {
		return nil
	}
	gvr := schema.GroupVersionResource{Group: meta.Group, Version: meta.Version, Resource: meta.Resource}
	return ConfigFor(work.Spec.ManifestConfigs, gvr, meta.Namespace, meta.Name)
}

// ReadOnly tells whether work only reads the object of a manifest's status.
func ReadOnly(work *workv1.ManifestWork, meta workv1.ManifestResourceMeta) bool {
	return StrategyOf(ConfigOf(work, meta)) == workv1.UpdateStrategyTypeReadOnly
}

// StrategyOf is the update strategy of a manifest; Update when none is set.
func StrategyOf(config *workv1.ManifestConfigOption) workv1.UpdateStrategyType {
	if config == nil || config.UpdateStrategy == nil {
		return DefaultStrategy("")
	}
	return DefaultStrategy(config.UpdateStrategy.Type)
}

// DefaultStrategy is the strategy type t stands for: Update, the API's
// default, when t is empty; t otherwise, known or not.
func DefaultStrategy(t workv1.UpdateStrategyType) workv1.UpdateStrategyType {
	if t == "" {
		return workv1.UpdateStrategyTypeUpdate
	}
	return t
}
