package render

import (
	"maps"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// OverridesAnnotation, on a work of a replica set, names the WorkOverrides
// it was rendered with, as name:generation, comma-separated, in the order
// they applied; a work no override changes has none.
const OverridesAnnotation = "work.manifestwork.io/overrides"

// AppliedAnnotation is the value of OverridesAnnotation for the overrides
// applied; "" for none.
func AppliedAnnotation(applied []Applied) string {
	parts := make([]string, len(applied))
	for i, a := range applied {
		parts[i] = a.Name + ":" + strconv.FormatInt(a.Generation, 10)
	}
	return strings.Join(parts, ",")
}

// Work is the work of the replica set on the cluster, as the hub writes
// it: named name (the cluster's work of the replica set, else the replica
// set's name), in the cluster's namespace, with the replica set's labels,
// its own label (<namespace>.<name>), the placement's and the revision hash
// (when not ""), the overrides applied in OverridesAnnotation, and the
// rendered spec. The controller writes these; the CLI previews them.
func Work(rs *workv1alpha1.ManifestWorkReplicaSet, name, cluster, placement, hash string,
	spec workv1.ManifestWorkSpec, applied []Applied) *workv1.ManifestWork {
	labels := maps.Clone(rs.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[workv1alpha1.ReplicaSetLabel] = rs.Namespace + "." + rs.Name
	labels[workv1alpha1.PlacementNameLabel] = placement
	if hash != "" {
		labels[revision.HashLabel] = hash
	}
	w := &workv1.ManifestWork{
		TypeMeta:   metav1.TypeMeta{APIVersion: workv1.SchemeGroupVersion.String(), Kind: "ManifestWork"},
		ObjectMeta: metav1.ObjectMeta{Namespace: cluster, Name: name, Labels: labels},
		Spec:       spec,
	}
	if a := AppliedAnnotation(applied); a != "" {
		w.Annotations = map[string]string{OverridesAnnotation: a}
	}
	return w
}
