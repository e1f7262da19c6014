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

// StrategyOf is the update strategy of a manifest; Update when none is set.
func StrategyOf(config *workv1.ManifestConfigOption) workv1.UpdateStrategyType {
	if config == nil || config.UpdateStrategy == nil || config.UpdateStrategy.Type == "" {
		return workv1.UpdateStrategyTypeUpdate
	}
	return config.UpdateStrategy.Type
}
