package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	clusterv1beta1 "github.com/manifestwork/work/pkg/apis/cluster/v1beta1"
	fleetv1alpha1 "github.com/manifestwork/work/pkg/apis/fleet/v1alpha1"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/render"
)

// RenderOptions are the flags of render and diff.
type RenderOptions struct {
	// Clusters are --cluster, repeated: only these clusters; else every
	// cluster the replica set's placements select.
	Clusters []string
	// Files are -f, repeated: ManifestWorkReplicaSets and WorkOverrides not
	// applied yet, each in place of the stored object of its kind and name.
	Files []string
}

// AddFlags registers --cluster and -f.
func (o *RenderOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringArrayVar(&o.Clusters, "cluster", o.Clusters, "Only this managed cluster (repeat for more); else every cluster the replica set's placements select.")
	fs.StringArrayVarP(&o.Files, "filename", "f", o.Files, "A YAML or JSON file of ManifestWorkReplicaSets and WorkOverrides not applied yet (repeat for more): "+
		"each replaces the stored object of its kind and name, or joins them; objects of other namespaces are left out.")
}

// Validate refuses an empty --cluster or -f, with exit code 2.
func (o *RenderOptions) Validate() error {
	if slices.Contains(o.Clusters, "") {
		return exitf(ExitUsage, "--cluster needs a cluster name")
	}
	if slices.Contains(o.Files, "") {
		return exitf(ExitUsage, "-f needs a file name")
	}
	return nil
}

// Render prints, as YAML documents sorted by cluster, the ManifestWork the
// hub would write to each cluster that the placements of the replica set
// name select: its template with the WorkOverrides that select the
// cluster, stored or from ro.Files. It only reads the hub. Secrets' values
// are masked. A cluster whose render fails is named on o.ErrOut, and the
// command exits 1 once the others are printed.
func Render(ctx context.Context, o *Options, ro RenderOptions, name string) error {
	p, err := o.preview(ctx, ro, name)
	if err != nil {
		return err
	}
	for _, c := range p.clusters {
		if c.err != nil {
			fmt.Fprintln(o.ErrOut, c.err)
			continue
		}
		obj, err := workObject(c.work)
		if err != nil {
			return exitf(ExitFailed, "cluster %s: %v", c.name, err)
		}
		maskSecrets(obj, nil, "")
		out, err := yaml.Marshal(obj)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(o.Out, "---\n%s", out); err != nil {
			return err
		}
	}
	return p.failed()
}

// preview is what render and diff show of a replica set: per selected
// cluster, by name, the work the hub would write there.
type preview struct {
	rs       *workv1alpha1.ManifestWorkReplicaSet
	clusters []clusterPreview
}

// clusterPreview is one cluster's work: as stored (nil: none) and as the
// hub would write it, or why it cannot be rendered (a *render.Error).
type clusterPreview struct {
	name   string
	stored *workv1.ManifestWork
	work   *workv1.ManifestWork
	err    error
}

// failed is exit code 1 naming the clusters whose render fails; nil when
// none does.
func (p *preview) failed() error {
	var names []string
	for _, c := range p.clusters {
		if c.err != nil {
			names = append(names, c.name)
		}
	}
	return renderFailed(p.rs, names, len(p.clusters), "")
}

// renderFailed is exit code 1 naming the clusters (of total) whose render
// fails, then why that matters (then, "" or a sentence); nil when none does.
func renderFailed(rs *workv1alpha1.ManifestWorkReplicaSet, names []string, total int, then string) error {
	if len(names) == 0 {
		return nil
	}
	return exitf(ExitFailed, "manifestworkreplicaset %s/%s: %d of %d clusters fail to render, and the hub keeps their works as they are: %s%s",
		rs.Namespace, rs.Name, len(names), total, strings.Join(names, ", "), then)
}

// renderedWork is a cluster's work as the hub renders it: its spec and
// the overrides that made it, or why it cannot be rendered (a
// *render.Error).
type renderedWork struct {
	spec    workv1.ManifestWorkSpec
	applied []render.Applied
	err     error
}

// renderWorks renders the work of each of the clusters (which selected
// selects): the template of rs with the overrides that select the cluster,
// for the facts h.facts reads, as the hub does.
func (h hub) renderWorks(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet, overrides []fleetv1alpha1.WorkOverride,
	clusters []string, selected map[string]*selection) (map[string]renderedWork, error) {
	facts, err := h.facts(ctx, clusters, selected)
	if err != nil {
		return nil, err
	}
	out := make(map[string]renderedWork, len(clusters))
	for _, cluster := range clusters {
		var r renderedWork
		r.spec, r.applied, r.err = render.Render(rs.Spec.ManifestWorkTemplate, overrides, facts[cluster])
		out[cluster] = r
	}
	return out, nil
}

// preview reads the replica set, its overrides, decisions, works and
// clusters (get and list only), with ro.Files in place of what is stored,
// and renders each selected cluster's work.
func (o *Options) preview(ctx context.Context, ro RenderOptions, name string) (*preview, error) {
	h, err := o.connectHub()
	if err != nil {
		return nil, err
	}
	files, err := readObjects(ro.Files, h.namespace)
	if err != nil {
		return nil, err
	}
	rs, err := h.replicaSet(ctx, files, name)
	if err != nil {
		return nil, err
	}
	overrides, err := h.overrides(ctx, files, name)
	if err != nil {
		return nil, err
	}
	selected, err := h.selected(ctx, rs)
	if err != nil {
		return nil, err
	}
	clusters, err := onlyClusters(rs, selected, ro.Clusters)
	if err != nil {
		return nil, err
	}
	stored, err := h.storedWorks(ctx, rs)
	if err != nil {
		return nil, err
	}
	rendered, err := h.renderWorks(ctx, rs, overrides, clusters, selected)
	if err != nil {
		return nil, err
	}
	if len(clusters) == 0 {
		fmt.Fprintf(o.ErrOut, "No cluster: the placements of manifestworkreplicaset %s/%s select none.\n", rs.Namespace, rs.Name)
	}
	p := &preview{rs: rs}
	for _, cluster := range clusters {
		c := clusterPreview{name: cluster, stored: stored[cluster]}
		spec, applied := rendered[cluster].spec, rendered[cluster].applied
		if c.err = rendered[cluster].err; c.err != nil {
			p.clusters = append(p.clusters, c)
			continue
		}
		workName, placement := rs.Name, selected[cluster].placements[0]
		if c.stored != nil {
			workName = c.stored.Name
			if slices.Contains(selected[cluster].placements, c.stored.Labels[workv1alpha1.PlacementNameLabel]) {
				placement = c.stored.Labels[workv1alpha1.PlacementNameLabel]
			}
		}
		c.work = hubWork(rs, workName, cluster, placement, spec, applied)
		p.clusters = append(p.clusters, c)
	}
	return p, nil
}

// hubWork is the work of the replica set on the cluster as the hub writes
// it: named name, in the cluster's namespace, with the replica set's labels
// and the two the controller adds (the replica set's, <namespace>.<name>,
// and the placement's), the overrides applied in render.OverridesAnnotation, and
// the rendered spec. It leaves out the revision hash label, whose value is
// the controller's to say.
func hubWork(rs *workv1alpha1.ManifestWorkReplicaSet, name, cluster, placement string,
	spec workv1.ManifestWorkSpec, applied []render.Applied) *workv1.ManifestWork {
	w := &workv1.ManifestWork{
		TypeMeta:   metav1.TypeMeta{APIVersion: workv1.SchemeGroupVersion.String(), Kind: "ManifestWork"},
		ObjectMeta: metav1.ObjectMeta{Namespace: cluster, Name: name, Labels: render.WorkLabels(rs, placement)},
		Spec:       spec,
	}
	if len(applied) > 0 {
		w.Annotations = map[string]string{render.OverridesAnnotation: render.AppliedAnnotation(applied)}
	}
	return w
}

// fileObjects are the objects of -f in the command's namespace, by name.
type fileObjects struct {
	replicaSets map[string]*workv1alpha1.ManifestWorkReplicaSet
	overrides   map[string]*fleetv1alpha1.WorkOverride
}

var (
	listKind       = schema.GroupVersionKind{Version: "v1", Kind: "List"}
	replicaSetKind = workv1alpha1.SchemeGroupVersion.WithKind("ManifestWorkReplicaSet")
	overrideKind   = fleetv1alpha1.SchemeGroupVersion.WithKind("WorkOverride")
)

// readObjects reads the YAML or JSON documents of the files: each is a
// ManifestWorkReplicaSet, a WorkOverride, or a List of them (as kubectl get
// -o yaml prints them); one of another namespace is
// left out, one without a namespace is of namespace. Anything else, or a
// name given twice, exits 2.
func readObjects(paths []string, namespace string) (fileObjects, error) {
	f := fileObjects{replicaSets: map[string]*workv1alpha1.ManifestWorkReplicaSet{}, overrides: map[string]*fleetv1alpha1.WorkOverride{}}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return f, usageError(err)
		}
		reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for doc := 1; ; doc++ {
			raw, err := reader.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return f, exitf(ExitUsage, "%s: %v", path, err)
			}
			if err := f.add(raw, namespace); err != nil {
				return f, exitf(ExitUsage, "%s, document %d: %v", path, doc, err)
			}
		}
	}
	return f, nil
}

// add decodes one document into f.
func (f *fileObjects) add(raw []byte, namespace string) error {
	var meta metav1.TypeMeta
	if err := yaml.Unmarshal(raw, &meta); err != nil {
		return err
	}
	var obj metav1.Object
	switch meta.GroupVersionKind() {
	case schema.GroupVersionKind{}:
		return nil // an empty document, or comments only
	case listKind:
		var list struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := yaml.Unmarshal(raw, &list); err != nil {
			return err
		}
		for i, item := range list.Items {
			if err := f.add(item, namespace); err != nil {
				return fmt.Errorf("items[%d]: %w", i, err)
			}
		}
		return nil
	case replicaSetKind:
		obj = &workv1alpha1.ManifestWorkReplicaSet{}
	case overrideKind:
		obj = &fleetv1alpha1.WorkOverride{}
	default:
		return fmt.Errorf("%s %s is neither a %s nor a %s: render and diff take only those", meta.APIVersion, meta.Kind, replicaSetKind, overrideKind)
	}
	if err := yaml.UnmarshalStrict(raw, obj); err != nil {
		return err
	}
	if obj.GetName() == "" {
		return fmt.Errorf("%s has no metadata.name", meta.Kind)
	}
	switch obj.GetNamespace() {
	case "":
		obj.SetNamespace(namespace)
	case namespace:
	default:
		return nil
	}
	switch obj := obj.(type) {
	case *workv1alpha1.ManifestWorkReplicaSet:
		if _, ok := f.replicaSets[obj.Name]; ok {
			return fmt.Errorf("ManifestWorkReplicaSet %s is given twice", obj.Name)
		}
		f.replicaSets[obj.Name] = obj
	case *fleetv1alpha1.WorkOverride:
		if _, ok := f.overrides[obj.Name]; ok {
			return fmt.Errorf("WorkOverride %s is given twice", obj.Name)
		}
		f.overrides[obj.Name] = obj
	}
	return nil
}

// replicaSet is the replica set of the files, else the stored one.
func (h hub) replicaSet(ctx context.Context, files fileObjects, name string) (*workv1alpha1.ManifestWorkReplicaSet, error) {
	if rs, ok := files.replicaSets[name]; ok {
		return rs, nil
	}
	rs, err := h.work.WorkV1alpha1().ManifestWorkReplicaSets(h.namespace).Get(ctx, name, metav1.GetOptions{})
	return rs, usageError(err)
}

// overrides are the WorkOverrides that name the replica set, in the order
// they apply: those stored (none when the hub does not serve WorkOverrides),
// each replaced by the files' of the same name, and the files' new ones (no
// files: fileObjects{}). An override of the files has generation 0, unless
// its spec is the stored one's (applying it would change nothing). A
// refusal exits 2.
func (h hub) overrides(ctx context.Context, files fileObjects, name string) ([]fleetv1alpha1.WorkOverride, error) {
	byName := map[string]fleetv1alpha1.WorkOverride{}
	list, err := h.work.FleetV1alpha1().WorkOverrides(h.namespace).List(ctx, metav1.ListOptions{})
	switch {
	case apierrors.IsNotFound(err):
		// The hub does not serve WorkOverrides (OCM's alone): none is stored.
	case apierrors.IsForbidden(err):
		return nil, exitf(ExitUsage, "the overrides of manifestworkreplicaset %s/%s cannot be read: you may not list workoverrides "+
			"(group %s) in %s: %v", h.namespace, name, fleetv1alpha1.GroupName, h.namespace, err)
	case err != nil:
		return nil, usageError(fmt.Errorf("the workoverrides of %s: %w", h.namespace, err))
	default:
		for _, o := range list.Items {
			byName[o.Name] = o
		}
	}
	for n, o := range files.overrides {
		o = o.DeepCopy()
		o.Generation = 0
		if stored, ok := byName[n]; ok && equality.Semantic.DeepEqual(stored.Spec, o.Spec) {
			o.Generation = stored.Generation
		}
		byName[n] = *o
	}
	var out []fleetv1alpha1.WorkOverride
	for _, o := range byName {
		if o.Spec.ReplicaSet == name {
			out = append(out, o)
		}
	}
	render.Sort(out)
	return out, nil
}

// selection is how the placements of a replica set select a cluster.
type selection struct {
	// placements select the cluster, in the replica set's order.
	placements []string
	// groups are the decision groups the cluster is in.
	groups []render.GroupRef
}

// selected reads the PlacementDecisions of each placement of rs: the
// clusters they select, by name.
func (h hub) selected(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet) (map[string]*selection, error) {
	out := map[string]*selection{}
	for _, ref := range rs.Spec.PlacementRefs {
		list, err := h.work.ClusterV1beta1().PlacementDecisions(rs.Namespace).List(ctx, metav1.ListOptions{
			LabelSelector: labels.SelectorFromSet(labels.Set{clusterv1beta1.PlacementLabel: ref.Name}).String(),
		})
		if err != nil {
			return nil, usageError(fmt.Errorf("the placementdecisions of placement %s/%s: %w", rs.Namespace, ref.Name, err))
		}
		decisions := make([]*clusterv1beta1.PlacementDecision, len(list.Items))
		for i := range list.Items {
			decisions[i] = &list.Items[i]
		}
		groups, err := replicaset.GroupsOf(decisions)
		if err != nil {
			return nil, exitf(ExitUsage, "placement %s/%s: %v", rs.Namespace, ref.Name, err)
		}
		for _, g := range groups {
			for _, cluster := range g.Clusters {
				s := out[cluster]
				if s == nil {
					s = &selection{}
					out[cluster] = s
				}
				if !slices.Contains(s.placements, ref.Name) {
					s.placements = append(s.placements, ref.Name)
				}
				s.groups = append(s.groups, g.Key.Ref(ref.Name))
			}
		}
	}
	return out, nil
}

// onlyClusters are the clusters of --cluster (all selected when none is
// given), sorted; one that no placement selects exits 2.
func onlyClusters(rs *workv1alpha1.ManifestWorkReplicaSet, selected map[string]*selection, only []string) ([]string, error) {
	var all []string
	for c := range selected {
		all = append(all, c)
	}
	slices.Sort(all)
	if len(only) == 0 {
		return all, nil
	}
	for _, c := range only {
		if selected[c] == nil {
			return nil, exitf(ExitUsage, "no placement of manifestworkreplicaset %s/%s selects cluster %s (they select: %s)",
				rs.Namespace, rs.Name, c, cmpOr(strings.Join(all, ", "), "none"))
		}
	}
	only = slices.Clone(only)
	slices.Sort(only)
	return slices.Compact(only), nil
}

// storedWorks are the replica set's works, by cluster: on a cluster with
// several, the one the controller keeps (not being deleted, named after the
// replica set, the oldest).
func (h hub) storedWorks(ctx context.Context, rs *workv1alpha1.ManifestWorkReplicaSet) (map[string]*workv1.ManifestWork, error) {
	list, err := h.work.WorkV1().ManifestWorks(metav1.NamespaceAll).List(ctx, metav1.ListOptions{LabelSelector: worksSelector(rs).String()})
	if err != nil {
		return nil, usageError(err)
	}
	works := make([]*workv1.ManifestWork, len(list.Items))
	for i := range list.Items {
		works[i] = &list.Items[i]
	}
	out, _ := replicaset.WorksByCluster(rs, works)
	return out, nil
}

// facts are what the rules of each cluster read: OCM's ManagedCluster when
// the hub serves it and has the cluster, else the labels of the cluster's
// namespace (none when it has none).
func (h hub) facts(ctx context.Context, clusters []string, selected map[string]*selection) (map[string]render.ClusterFacts, error) {
	managed := map[string]*unstructured.Unstructured{}
	if h.dynamic != nil && len(clusters) > 0 {
		list, err := h.dynamic.Resource(render.ManagedClusterResource).List(ctx, metav1.ListOptions{})
		switch {
		case apierrors.IsNotFound(err):
			// The hub does not serve OCM's ManagedCluster.
		case err != nil:
			return nil, usageError(fmt.Errorf("the labels and claims of the clusters (OCM's managedclusters): %w", err))
		default:
			for i := range list.Items {
				managed[list.Items[i].GetName()] = &list.Items[i]
			}
		}
	}
	out := map[string]render.ClusterFacts{}
	for _, c := range clusters {
		var ns *corev1.Namespace
		if managed[c] == nil {
			got, err := h.kube.CoreV1().Namespaces().Get(ctx, c, metav1.GetOptions{})
			switch {
			case apierrors.IsNotFound(err):
			case err != nil:
				return nil, usageError(fmt.Errorf("the labels of cluster %s (its namespace): %w", c, err))
			default:
				ns = got
			}
		}
		out[c] = render.FactsOf(c, managed[c], ns, selected[c].groups)
	}
	return out, nil
}

// workObject is w as JSON values, without the fields a work the hub has
// not written yet does not have (creationTimestamp, status).
func workObject(w *workv1.ManifestWork) (map[string]any, error) {
	raw, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	delete(obj, "status")
	if meta, ok := obj["metadata"].(map[string]any); ok {
		delete(meta, "creationTimestamp")
	}
	return obj, nil
}

// Masks of Secrets' values.
const (
	masked       = "***"
	maskedBefore = "*** (before)"
	maskedAfter  = "*** (after)"
)

// maskSecrets replaces the values of the data and stringData of the
// Secrets among the manifests of work (JSON values) by ***. With theirs
// (the secretValues of the work on the other side of a diff), a value that
// theirs lacks or has otherwise is changedMask instead, so that a diff
// shows which keys change and never how.
func maskSecrets(work, theirs map[string]any, changedMask string) {
	eachSecretValue(work, func(values map[string]any, id, k string) {
		mask := masked
		if tv, ok := theirs[id]; theirs != nil && (!ok || !reflect.DeepEqual(tv, values[k])) {
			mask = changedMask
		}
		values[k] = mask
	})
}

// secretValues are the values of the Secrets of work, by eachSecretValue's
// id.
func secretValues(work map[string]any) map[string]any {
	out := map[string]any{}
	eachSecretValue(work, func(values map[string]any, id, k string) { out[id] = values[k] })
	return out
}

// eachSecretValue calls f with each key k of the data and stringData
// (values) of the Secrets of work, and an id of the value: the Secret's
// namespace/name, the field and the key.
func eachSecretValue(work map[string]any, f func(values map[string]any, id, k string)) {
	for _, m := range manifestsOf(work) {
		key, ok := secretKey(m)
		if !ok {
			continue
		}
		for _, field := range []string{"data", "stringData"} {
			values, _ := m[field].(map[string]any)
			for k := range values {
				f(values, key+"\x00"+field+"\x00"+k, k)
			}
		}
	}
}

// manifestsOf are the manifests of work (JSON values) that are objects.
func manifestsOf(work map[string]any) []map[string]any {
	spec, _ := work["spec"].(map[string]any)
	workload, _ := spec["workload"].(map[string]any)
	list, _ := workload["manifests"].([]any)
	var out []map[string]any
	for _, m := range list {
		if obj, ok := m.(map[string]any); ok {
			out = append(out, obj)
		}
	}
	return out
}

// secretKey is namespace/name of a core v1 Secret; ok is false for any
// other manifest.
func secretKey(m map[string]any) (string, bool) {
	if m["apiVersion"] != "v1" || m["kind"] != "Secret" {
		return "", false
	}
	meta, _ := m["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	return ns + "/" + name, true
}
