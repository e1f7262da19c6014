package framework

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// DifferencesFile is the table of the known differences between OCM's work
// agent and ours, relative to the repository root: the differential e2e
// checks it, docs/replace-ocm-work-agent.md renders it.
const DifferencesFile = "docs/ocm-differences.yaml"

// DifferenceRow is one row of the table of differences: a behaviour of a
// case of the differential e2e (test/e2e/differential_test.go) in which
// our agent deliberately differs from OCM's v1.0.0.
type DifferenceRow struct {
	// Case is the name of the differential case that shows it.
	Case string `json:"case,omitempty"`
	// Test, instead of Case, names the test (in test/e2e or
	// test/integration) that shows a difference no differential case can:
	// they all deliver works through the hub's kube-apiserver, so a
	// behaviour of the CloudEvents drivers is shown by their own tests,
	// which assert it. The differential e2e ignores such rows.
	Test string `json:"test,omitempty"`
	// Path is the start of the path of every difference of the case the
	// row explains, e.g. "status.work[0].conditions[Progressing]"; a "*"
	// in it stands for any text.
	Path string `json:"path"`
	// AllCases makes the row explain the difference in every case, not
	// only in its own (which must still show it): for what every work
	// shows, such as a condition of the whole work.
	AllCases bool `json:"allCases,omitempty"`
	// OursContains, when set, limits the row to the differences whose value
	// on our side contains it: for a behaviour recognisable by its value,
	// such as the reason of the conditions it writes.
	OursContains string `json:"oursContains,omitempty"`
	// Open marks a difference that is not deliberate: a gap still to close.
	// The test treats it as any row (it must still show), the docs list it
	// apart from the deliberate ones, and Reason says what closing it takes.
	Open bool `json:"open,omitempty"`
	// Behaviour, OCM, Ours and Reason are what the docs show.
	Behaviour string `json:"behaviour"`
	OCM       string `json:"ocm"`
	Ours      string `json:"ours"`
	Reason    string `json:"reason"`
}

// Explains reports whether the row covers a difference.
func (r DifferenceRow) Explains(d Difference) bool {
	if r.Case != d.Case && !r.AllCases {
		return false
	}
	if r.OursContains != "" && !strings.Contains(d.Ours, r.OursContains) {
		return false
	}
	pieces := strings.Split(r.Path, "*")
	rest, ok := strings.CutPrefix(d.Path, pieces[0])
	for _, p := range pieces[1:] {
		if !ok {
			break
		}
		var i int
		if i = strings.Index(rest, p); i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return ok
}

// LoadDifferences reads the table of differences.
func LoadDifferences(path string) ([]DifferenceRow, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var table struct {
		Differences []DifferenceRow `json:"differences"`
	}
	if err := yaml.UnmarshalStrict(raw, &table); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, r := range table.Differences {
		if (r.Case == "" && r.Test == "") || (r.Case != "" && r.Path == "") || r.Behaviour == "" || r.OCM == "" || r.Ours == "" || r.Reason == "" {
			return nil, fmt.Errorf("%s: row %d (%q) lacks one of case (with its path) or test, behaviour, ocm, ours, reason", path, i+1, r.Case+r.Test)
		}
	}
	return table.Differences, nil
}

// SpecExamplesDir holds the ManifestWorks of the specification's examples,
// relative to the repository root; each is a case of the differential e2e.
const SpecExamplesDir = "test/fixture/testdata/spec"

// SpecExampleCase is the name of the differential case of an example file.
func SpecExampleCase(file string) string {
	name := strings.TrimSuffix(filepath.Base(file), ".yaml")
	return "spec-" + strings.NewReplacer("manifestwork-concepts-", "concepts-", "deploy-resources-tutorial-", "tutorial-").Replace(name)
}

// Difference is one observation that differs between the cluster run by
// OCM's agent and the one run by ours.
type Difference struct {
	Case string
	// Step is the step of the case after which it was seen.
	Step string
	// Path names what differs: "status.…", "object[…]…" or "writes.…".
	Path string
	// OCM and Ours are the values; Absent when one side has none.
	OCM, Ours string
}

// Absent is the value of a path one side does not have.
const Absent = "<absent>"

func (d Difference) String() string {
	return fmt.Sprintf("%s after %q: %s\n      OCM:  %s\n      ours: %s", d.Case, d.Step, d.Path, d.OCM, d.Ours)
}

// Snapshot is what a user observes of one case on one managed cluster,
// flattened: path → value.
type Snapshot map[string]string

// CompareSnapshots lists the paths whose values differ, sorted. What only
// one side has is one difference, not one per field of it (such as a
// condition and its observedGeneration).
func CompareSnapshots(caseName, step string, ocm, ours Snapshot) []Difference {
	var out []Difference
	var absent []string
	for _, path := range slices.Sorted(maps.Keys(unionKeys(ocm, ours))) {
		if slices.ContainsFunc(absent, func(p string) bool {
			return strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[")
		}) {
			continue
		}
		o, inOCM := ocm[path]
		u, inOurs := ours[path]
		if o == Absent || u == Absent || !inOCM || !inOurs {
			absent = append(absent, path)
		}
		if !inOCM {
			o = Absent
		}
		if !inOurs {
			u = Absent
		}
		if o != u {
			out = append(out, Difference{Case: caseName, Step: step, Path: path, OCM: o, Ours: u})
		}
	}
	return out
}

func unionKeys(a, b Snapshot) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// MatchDifferences splits the differences seen into those no row explains
// and returns, besides, the rows (of the cases that ran) that explain none.
func MatchDifferences(rows []DifferenceRow, ran map[string]bool, seen []Difference) (unexplained []Difference, unused []DifferenceRow) {
	used := make([]bool, len(rows))
	for _, d := range seen {
		explained := false
		for i, r := range rows {
			if r.Explains(d) {
				explained = true
				// A row of every case is used once its own case shows it.
				used[i] = used[i] || !r.AllCases || r.Case == d.Case
			}
		}
		if !explained {
			unexplained = append(unexplained, d)
		}
	}
	for i, r := range rows {
		if !used[i] && ran[r.Case] {
			unused = append(unused, r)
		}
	}
	return unexplained, unused
}

// AgentFieldManagers are the field managers the agents write with (both
// use the same name); the managed fields of other managers are left out.
var AgentFieldManagers = []string{"work-agent"}

// OursOnlyConditions are the condition types our agent adds that OCM's
// v1.0.0 has none of; a comparison leaves them out.
var OursOnlyConditions = []string{"Healthy", "InSync", "Stalled", "Deleting"}

// AddWorkStatus adds the status of a work a user reads, under prefix:
// each condition of the work and of each manifest (type, status, reason,
// message; observedGeneration apart), their order, and the feedback values in order. A nil work is
// recorded as absent.
func (s Snapshot) AddWorkStatus(prefix string, w *workv1.ManifestWork) {
	if w == nil {
		s[prefix] = Absent
		return
	}
	s[prefix] = "present"
	if w.DeletionTimestamp != nil {
		s[prefix] = "deleting"
	}
	s.addConditions(prefix+".conditions", w.Status.Conditions)
	for _, m := range w.Status.ResourceStatus.Manifests {
		r := m.ResourceMeta
		key := fmt.Sprintf("%s.manifests[%d %s/%s/%s %s/%s]", prefix, r.Ordinal, r.Group, r.Version, r.Kind, r.Namespace, r.Name)
		s[key] = r.Resource
		s.addConditions(key+".conditions", m.Conditions)
		var values []string
		for _, v := range m.StatusFeedbacks.Values {
			values = append(values, v.Name+"="+fieldValue(v.Value))
		}
		if len(values) > 0 {
			s[key+".feedback"] = strings.Join(values, ", ")
		}
	}
}

func (s Snapshot) addConditions(prefix string, conditions []metav1.Condition) {
	var order []string
	for _, c := range conditions {
		if slices.Contains(OursOnlyConditions, c.Type) {
			continue
		}
		s[prefix+"["+c.Type+"]"] = fmt.Sprintf("%s %s: %s", c.Status, c.Reason, c.Message)
		// Apart, so that a row of the condition explains it too.
		s[prefix+"["+c.Type+"].observedGeneration"] = strconv.FormatInt(c.ObservedGeneration, 10)
		order = append(order, c.Type)
	}
	if len(order) > 0 {
		s[prefix+".order"] = strings.Join(order, ",")
	}
}

// AddAppliedWork adds what a user reads of a work's AppliedManifestWork on
// the managed cluster, under prefix: its finalizers, labels and annotation
// keys, the applied resources (without UIDs, sorted) and whether an eviction
// started. A nil one is recorded as absent.
func (s Snapshot) AddAppliedWork(prefix string, a *workv1.AppliedManifestWork) {
	if a == nil {
		s[prefix] = Absent
		return
	}
	s[prefix] = "present"
	if a.DeletionTimestamp != nil {
		s[prefix] = "deleting"
	}
	s[prefix+".finalizers"] = strings.Join(a.Finalizers, ",")
	labels := slices.Sorted(maps.Keys(a.Labels))
	for i, k := range labels {
		labels[i] = k + "=" + a.Labels[k]
	}
	s[prefix+".labels"] = strings.Join(labels, ",")
	s[prefix+".annotations"] = strings.Join(slices.Sorted(maps.Keys(a.Annotations)), ",")
	var applied []string
	for _, r := range a.Status.AppliedResources {
		applied = append(applied, fmt.Sprintf("%s/%s/%s %s/%s", r.Group, r.Version, r.Resource, r.Namespace, r.Name))
	}
	slices.Sort(applied)
	s[prefix+".status.appliedResources"] = strings.Join(applied, ", ")
	if a.Status.EvictionStartTime != nil {
		s[prefix+".status.evictionStartTime"] = "set"
	}
}

// AddEvents adds the Events a user finds about a case in one place (prefix
// names it): the distinct type, reason and kind of the involved object, in
// order; none is recorded as nothing. Counts, times and messages are left
// out: they depend on when each agent happened to run.
func (s Snapshot) AddEvents(prefix string, events []corev1.Event) {
	seen := map[string]bool{}
	for _, e := range events {
		seen[fmt.Sprintf("%s %s on %s", e.Type, generatedName.ReplaceAllString(e.Reason, "$1*"), e.InvolvedObject.Kind)] = true
	}
	if len(seen) > 0 {
		s[prefix] = strings.Join(slices.Sorted(maps.Keys(seen)), "; ")
	}
}

// CommonOrder rewrites the ".order" entries of both snapshots to the order
// of the condition types both have, so that a condition only one side has
// is reported once, as such, and not as an order too.
func CommonOrder(a, b Snapshot) {
	for k := range unionKeys(a, b) {
		if !strings.HasSuffix(k, ".order") {
			continue
		}
		as, bs := strings.Split(a[k], ","), strings.Split(b[k], ",")
		a[k] = strings.Join(slices.DeleteFunc(slices.Clone(as), func(t string) bool { return !slices.Contains(bs, t) }), ",")
		b[k] = strings.Join(slices.DeleteFunc(slices.Clone(bs), func(t string) bool { return !slices.Contains(as, t) }), ",")
		if a[k] == "" && b[k] == "" {
			delete(a, k)
			delete(b, k)
		}
	}
}

func fieldValue(v workv1.FieldValue) string {
	switch {
	case v.Integer != nil:
		return fmt.Sprintf("%s:%d", v.Type, *v.Integer)
	case v.String != nil:
		return fmt.Sprintf("%s:%q", v.Type, *v.String)
	case v.Boolean != nil:
		return fmt.Sprintf("%s:%t", v.Type, *v.Boolean)
	case v.JsonRaw != nil:
		return fmt.Sprintf("%s:%s", v.Type, *v.JsonRaw)
	}
	return string(v.Type) + ":<empty>"
}

// volatileFields are keys, at any depth, whose values differ from cluster
// to cluster whatever the agent does: times, and what the API server or
// the scheduler assign.
var volatileFields = []string{
	"uid", "resourceVersion", "creationTimestamp", "lastTransitionTime", "lastUpdateTime", "lastProbeTime",
	"lastHeartbeatTime", "startTime", "completionTime", "startedAt", "finishedAt", "time",
	"clusterIP", "clusterIPs", "nodeName", "podIP", "podIPs", "hostIP", "hostIPs", "containerID", "imageID",
}

// AddObject adds an object a user reads, under prefix, flattened to one
// entry per leaf: without what volatileFields name, with owner references
// as kind/name and deletionTimestamp as "set". A nil object is recorded as
// absent.
func (s Snapshot) AddObject(prefix string, u *unstructured.Unstructured) {
	if u == nil {
		s[prefix] = Absent
		return
	}
	obj := u.DeepCopy().Object
	meta, _ := obj["metadata"].(map[string]any)
	if meta != nil {
		var owners []string
		for _, o := range u.GetOwnerReferences() {
			owners = append(owners, o.Kind+"/"+o.Name)
		}
		delete(meta, "ownerReferences")
		// In name order: two works sharing an object add their references
		// in the order they happen to apply it.
		slices.Sort(owners)
		if len(owners) > 0 {
			meta["ownerReferences"] = strings.Join(owners, ",")
		}
		// Managed fields by manager and operation, not by position, and only
		// the agents' own: what the cluster's controllers record depends on
		// when they ran, not on the agent.
		if fields := u.GetManagedFields(); len(fields) > 0 {
			byManager := map[string]any{}
			for _, f := range fields {
				if !slices.Contains(AgentFieldManagers, f.Manager) {
					continue
				}
				key := f.Manager + " " + string(f.Operation)
				if f.Subresource != "" {
					key += " " + f.Subresource
				}
				if f.FieldsV1 != nil {
					byManager[key] = string(f.FieldsV1.Raw)
				} else {
					byManager[key] = ""
				}
			}
			meta["managedFields"] = byManager
		}
		if _, ok := meta["deletionTimestamp"]; ok {
			meta["deletionTimestamp"] = "set"
		}
	}
	s[prefix] = "present"
	flatten(s, prefix, obj)
}

func flatten(s Snapshot, prefix string, v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if slices.Contains(volatileFields, k) {
				continue
			}
			flatten(s, prefix+"."+k, child)
		}
	case []any:
		for i, child := range v {
			flatten(s, fmt.Sprintf("%s[%d]", prefix, i), child)
		}
	default:
		raw, _ := json.Marshal(v)
		s[prefix] = generatedName.ReplaceAllString(string(raw), "$1*")
	}
}

// generatedName matches the names the API server generates for what it
// adds to an object, such as a pod's token volume.
// UIDs (which labels of a Job carry too) are all alike.
var generatedName = regexp.MustCompile(`(kube-api-access-)[a-z0-9]{5}|()[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// ObjectPath names an object in a snapshot.
func ObjectPath(apiVersion, kind, namespace, name string) string {
	if namespace == "" {
		return fmt.Sprintf("object[%s %s %s]", apiVersion, kind, name)
	}
	return fmt.Sprintf("object[%s %s %s/%s]", apiVersion, kind, namespace, name)
}

// ConditionOf is a work's condition of a type, or nil.
func ConditionOf(w *workv1.ManifestWork, condType string) *metav1.Condition {
	if w == nil {
		return nil
	}
	return apimeta.FindStatusCondition(w.Status.Conditions, condType)
}
