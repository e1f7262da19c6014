package manifest

import (
	"slices"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// policyOrphans tells, for the propagation policies that decide alone,
// whether they orphan every resource of the work (true) or none (false). Any
// other policy (SelectivelyOrphan, or none at all in a deleteOption that an
// older hub stored without its default) orphans exactly the resources its
// orphaning rules name, as OCM's agent does.
var policyOrphans = map[workv1.DeletePropagationPolicyType]bool{
	workv1.DeletePropagationPolicyTypeForeground: false,
	workv1.DeletePropagationPolicyTypeOrphan:     true,
}

// Orphaned tells whether a work's deleteOption orphans the resource id: the
// agent then never puts its owner reference on the object, removes one that
// is there, and leaves the object in place when the work, or the manifest,
// goes. Without a deleteOption the work owns everything. An orphaning rule
// matches only when group, resource, namespace and name are all equal: no
// wildcard, no version.
func Orphaned(option *workv1.DeleteOption, id workv1.ResourceIdentifier) bool {
	if option == nil {
		return false
	}
	if all, decided := policyOrphans[option.PropagationPolicy]; decided {
		return all
	}
	if option.SelectivelyOrphan == nil {
		return false
	}
	return slices.ContainsFunc(option.SelectivelyOrphan.OrphaningRules, func(rule workv1.OrphaningRule) bool {
		return rule.Group == id.Group && rule.Resource == id.Resource && rule.Namespace == id.Namespace && rule.Name == id.Name
	})
}
