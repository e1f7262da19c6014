package manifest

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// ConfigFor returns the manifestConfig whose resourceIdentifier names the
// object, or nil. The identifier has no version: any version of the group and
// resource matches.
func ConfigFor(configs []workv1.ManifestConfigOption, gvr schema.GroupVersionResource, namespace, name string) *workv1.ManifestConfigOption {
	for i := range configs {
		id := configs[i].ResourceIdentifier
		if id.Group == gvr.Group && id.Resource == gvr.Resource && id.Namespace == namespace && id.Name == name {
			return &configs[i]
		}
	}
	return nil
}

// StrategyFor is the update strategy work sets for the object; Update when
// none is set.
func StrategyFor(work *workv1.ManifestWork, gvr schema.GroupVersionResource, namespace, name string) workv1.UpdateStrategyType {
	return StrategyOf(ConfigFor(work.Spec.ManifestConfigs, gvr, namespace, name))
}

// ReadOnly tells whether work only reads the object of a manifest's status.
func ReadOnly(work *workv1.ManifestWork, meta workv1.ManifestResourceMeta) bool {
	gvr := schema.GroupVersionResource{Group: meta.Group, Version: meta.Version, Resource: meta.Resource}
	return StrategyFor(work, gvr, meta.Namespace, meta.Name) == workv1.UpdateStrategyTypeReadOnly
}

// StrategyOf is the update strategy of a manifest; Update when none is set.
func StrategyOf(config *workv1.ManifestConfigOption) workv1.UpdateStrategyType {
	if config == nil || config.UpdateStrategy == nil || config.UpdateStrategy.Type == "" {
		return workv1.UpdateStrategyTypeUpdate
	}
	return config.UpdateStrategy.Type
}
