package cli

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
)

// GetWorks prints the ManifestWorks of one cluster (o.Cluster) or of every
// cluster, with the columns of `clusteradm get works` (name, cluster,
// number of manifests, Applied, Available) and the health and drift our
// agent reports. name, when not empty, keeps only the works of that name.
func GetWorks(ctx context.Context, o *Options, wo WorksOptions, name string) error {
	client, _, err := o.connect()
	if err != nil {
		return err
	}
	opts := metav1.ListOptions{}
	if name != "" {
		opts.FieldSelector = "metadata.name=" + name
	}
	list, err := client.WorkV1().ManifestWorks(wo.Cluster).List(ctx, opts)
	if err != nil {
		return usageError(err)
	}
	// The field selector keeps the list short; the filter makes sure.
	works := slices.DeleteFunc(list.Items, func(w workv1.ManifestWork) bool { return name != "" && w.Name != name })
	sortWorks(works)
	switch wo.Output {
	case OutputYAML, OutputJSON:
		l := &workv1.ManifestWorkList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "List"}}
		for _, w := range works {
			w.APIVersion, w.Kind = workv1.SchemeGroupVersion.String(), "ManifestWork"
			w.ManagedFields = nil
			l.Items = append(l.Items, w)
		}
		return printObject(o.Out, wo.Output, l)
	}
	return printWorks(o, wo, works)
}

// printWorks is the table of get works.
func printWorks(o *Options, wo WorksOptions, works []workv1.ManifestWork) error {
	if len(works) == 0 {
		where := "any cluster"
		if wo.Cluster != "" {
			where = "cluster " + wo.Cluster
		}
		_, err := fmt.Fprintf(o.Out, "No works on %s.\n", where)
		return err
	}
	wide := wo.Output == OutputWide
	head := []string{"NAME", "CLUSTER", "NUMBER OF MANIFESTS", "APPLIED", "AVAILABLE", "PROGRESSING", "DEGRADED", "HEALTHY", "INSYNC", "AGE"}
	if wide {
		head = append(head, "REPLICASET", "MESSAGE")
	}
	t := newTable(o.Out, head...)
	for i := range works {
		w := &works[i]
		cells := []string{w.Name, w.Namespace, strconv.Itoa(len(w.Spec.Workload.Manifests)),
			cell(conditionStatus(w, workv1.WorkApplied)), cell(conditionStatus(w, workv1.WorkAvailable)),
			cell(conditionStatus(w, workv1.WorkProgressing)), cell(conditionStatus(w, workv1.WorkDegraded)),
			cell(conditionStatus(w, workv1.WorkHealthy)), cell(conditionStatus(w, workv1.WorkInSync)),
			age(o.Now(), w.CreationTimestamp.Time)}
		if wide {
			cells = append(cells, cmpOr(w.Labels[workv1alpha1.ReplicaSetLabel], "-"), problem(w))
		}
		t.row(cells...)
	}
	return t.flush()
}
