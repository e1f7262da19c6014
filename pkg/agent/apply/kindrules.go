package apply

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubescheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/manifestwork/work/pkg/agent/apply/diff"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// kindRule is what the agent knows of a built-in kind whose objects other
// controllers co-own: what the cluster adds where the manifest is silent, how
// the API server rewrites a manifest, and what cannot change in place. The
// rules make the Update strategy behave as OCM's agent does for these kinds,
// and make every comparison of a manifest with a live object agree with them,
// so an object holding what another controller injected is in sync and costs
// no write.
type kindRule struct {
	// normalize rewrites the manifest the way the API server would store it,
	// before it is compared or written. An error is a manifest that cannot
	// be applied as it stands.
	normalize []func(obj *unstructured.Unstructured) error
	// keep copies values of the live object into the manifest.
	keep []keepRule
	// metadataOnly kinds are written from the manifest when created; after
	// that the Update strategy maintains their metadata only and leaves the
	// rest to the cluster.
	metadataOnly bool
	// recreate lists what makes the Update strategy delete the live object and
	// create it anew, because the API server would refuse the change.
	recreate []recreateRule
	// keptOnUpdate are fields that only a create writes: the Update strategy
	// takes them from live, as OCM's agent does, whatever the manifest says.
	// Unlike keep, they are the manifest's for every other strategy.
	keptOnUpdate []keepRule
	// enforce is how much of the object the Update strategy holds to the
	// manifest (enforcementOf).
	enforce enforcement
	// heldSpec, with enforceSpecFields, are the fields of spec it holds.
	heldSpec []string
}

// enforcement is how much of a live object the Update strategy holds to its
// manifest, as OCM's agent does for the kind: what it writes back when
// another writer changed it, the work being unchanged. Metadata is always
// compared field by field: labels, annotations and owners others add stay.
type enforcement int

const (
	// enforceSet holds the fields the manifest sets, with their values;
	// what others add stays (built-in kinds OCM's agent merges).
	enforceSet enforcement = iota
	// enforceData also holds data and binaryData exactly, as OCM's agent
	// writes them whole: keys others add are removed (ConfigMap, Secret).
	// It needs no request: the server adds nothing there.
	enforceData
	// enforceWhole holds everything but metadata and status to what the
	// server would store for the manifest, found with a server-side dry run
	// of the update, so that the server's defaults are no difference and
	// whatever others add to the spec, in lists too, is (kinds OCM's agent
	// writes whole: workloads, Jobs, custom resources).
	enforceWhole
	// enforceSpecFields holds only the metadata and the fields of spec the
	// rule names (heldSpec) that the manifest sets, as OCM's agent holds a
	// Service only to its selector and type; a change of the work, or of
	// those fields, writes the whole manifest.
	enforceSpecFields
)

// dataFields are the fields enforceData holds exactly.
var dataFields = []string{"data", "binaryData"}

// wholeKind holds the whole object, as OCM's agent writes these kinds whole.
var wholeKind = kindRule{enforce: enforceWhole}

// keptOnEveryUpdate are the keptOnUpdate rules of every kind. The finalizers
// stay as live has them: one that a controller has taken away to let the
// object go is not put back, and none is added after the create.
var keptOnEveryUpdate = []keepRule{{path: at("metadata", "finalizers"), mode: clusterOwned}}

// immutableKept keeps whether a ConfigMap or Secret is immutable as it was
// created: OCM's agent writes only their data after that.
var immutableKept = keepRule{path: at("immutable"), mode: clusterOwned}

// keepRule is a field another controller sets on the live object.
type keepRule struct {
	path []keepStep
	mode keepMode
	// when, if set, says whether the rule holds for a manifest.
	when func(desired *unstructured.Unstructured) bool
}

type keepMode int

const (
	// ifUnset fills in the live value where the manifest has none.
	ifUnset keepMode = iota
	// liveWins takes the live value over the manifest's when live has one.
	liveWins
	// clusterOwned takes the live value, or nothing, whatever the manifest
	// says: another controller rewrites the field anyway.
	clusterOwned
)

// keepStep is one step of a keepRule's path.
type keepStep struct {
	// key is a field of a map.
	key string
	// eachKey is every field of a map: those of the live object at the end of
	// the path, those of the manifest elsewhere.
	eachKey bool
	// itemsBy is set on a list whose items are paired with the live items
	// holding the same value at this key (webhooks by name).
	itemsBy string
}

func at(keys ...string) []keepStep {
	out := make([]keepStep, 0, len(keys))
	for _, k := range keys {
		out = append(out, keepStep{key: k})
	}
	return out
}

// recreateRule says that a change of any of fields (top-level fields of the
// object) needs a new object, when the live object is as when says (always
// when nil).
type recreateRule struct {
	fields []string
	when   func(live *unstructured.Unstructured) bool
	// exact compares the fields as a whole: a value the manifest leaves out
	// is a change too, because the update would remove it. Otherwise only
	// what the manifest sets is compared, for fields the server defaults.
	exact bool
}

// Annotations and labels the rules read or keep.
const (
	// OpenShift's network operator injects the trusted CA bundle into a
	// ConfigMap that carries this label set to "true".
	injectTrustedCABundleLabel = "config.openshift.io/inject-trusted-cabundle"
	// OpenShift's service-ca operator injects its CA into a ConfigMap that
	// carries this annotation set to "true".
	injectServiceCAAnnotation = "service.beta.openshift.io/inject-cabundle"
	// defaultStorageClassAnnotation marks the cluster's default StorageClass;
	// administrators set it on the cluster.
	defaultStorageClassAnnotation = "storageclass.kubernetes.io/is-default-class"

	secretTypeOpaque              = "Opaque"
	secretTypeServiceAccountToken = "kubernetes.io/service-account-token"
)

// webhookCABundle is the CA bundle cert-manager's cainjector or the service-ca
// operator injects into each webhook of a webhook configuration.
var webhookCABundle = keepRule{
	path: []keepStep{{key: "webhooks"}, {itemsBy: "name"}, {key: "clientConfig"}, {key: "caBundle"}},
	mode: ifUnset,
}

// kindRules is the registry of the rules, by kind. Kinds without an entry are
// compared and written as their manifest says.
var kindRules = map[schema.GroupKind]kindRule{
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}: {keep: []keepRule{webhookCABundle}},
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:   {keep: []keepRule{webhookCABundle}},
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}: {keep: []keepRule{
		{path: at("spec", "conversion", "webhook", "clientConfig", "caBundle"), mode: ifUnset},
	}},
	{Group: "apiregistration.k8s.io", Kind: "APIService"}: {keep: []keepRule{
		{path: at("spec", "caBundle"), mode: ifUnset},
	}},
	// The aggregation controller writes the rules of an aggregated role.
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}: {keep: []keepRule{
		{path: at("rules"), mode: clusterOwned, when: hasField("aggregationRule")},
	}},
	// Ports, nodePorts and the rest of a Service's spec are the cluster's and
	// its users' until the work changes them.
	{Kind: "Service"}:   {enforce: enforceSpecFields, heldSpec: []string{"selector", "type"}},
	{Kind: "Namespace"}: {metadataOnly: true},
	{Kind: "Pod"}:       {metadataOnly: true},
	// The token controller and users add secrets and imagePullSecrets.
	{Kind: "ServiceAccount"}: {metadataOnly: true},
	{Kind: "ConfigMap"}: {
		keep: []keepRule{
			{path: at("data", "ca-bundle.crt"), mode: ifUnset, when: labelIs(injectTrustedCABundleLabel, "true")},
			{path: at("data", "service-ca.crt"), mode: ifUnset, when: annotationIs(injectServiceCAAnnotation, "true")},
		},
		keptOnUpdate: []keepRule{immutableKept},
		enforce:      enforceData,
	},
	{Kind: "Secret"}: {
		normalize: []func(*unstructured.Unstructured) error{foldStringData, defaultString(secretTypeOpaque, "type")},
		keep: []keepRule{
			// The token controller fills in the token, the CA and the namespace.
			{path: []keepStep{{key: "data"}, {eachKey: true}}, mode: ifUnset, when: fieldIs(secretTypeServiceAccountToken, "type")},
		},
		// The type never changes; neither do the data of an immutable Secret,
		// which stays immutable when created anew (keptOnUpdate).
		recreate: []recreateRule{
			{fields: []string{"type"}, exact: true},
			{fields: []string{"data"}, exact: true, when: fieldIs(true, "immutable")},
		},
		keptOnUpdate: []keepRule{immutableKept},
		enforce:      enforceData,
	},
	{Group: "apps", Kind: "Deployment"}:  wholeKind,
	{Group: "apps", Kind: "StatefulSet"}: wholeKind,
	{Group: "apps", Kind: "DaemonSet"}:   wholeKind,
	{Group: "apps", Kind: "ReplicaSet"}:  wholeKind,
	{Group: "batch", Kind: "CronJob"}:    wholeKind,
	// The API server generates a Job's selector and the labels of its pod
	// template that match it; a manifest without them keeps them (OCM's
	// agent sends it without, which the server refuses).
	{Group: "batch", Kind: "Job"}: {
		keep: []keepRule{
			{path: at("spec", "selector"), mode: ifUnset},
			{path: []keepStep{{key: "spec"}, {key: "template"}, {key: "metadata"}, {key: "labels"}, {eachKey: true}}, mode: ifUnset,
				when: func(obj *unstructured.Unstructured) bool { return !fieldIs(true, "spec", "manualSelector")(obj) }},
		},
		enforce: enforceWhole,
	},
	{Group: "storage.k8s.io", Kind: "StorageClass"}: {
		normalize: []func(*unstructured.Unstructured) error{
			defaultString("Delete", "reclaimPolicy"), defaultString("Immediate", "volumeBindingMode"),
		},
		keep: []keepRule{{path: at("metadata", "annotations", defaultStorageClassAnnotation), mode: liveWins}},
		recreate: []recreateRule{
			{fields: []string{"parameters", "provisioner", "reclaimPolicy", "volumeBindingMode"}, exact: true},
		},
	},
	{Group: "storage.k8s.io", Kind: "CSIDriver"}: {recreate: []recreateRule{{fields: []string{"spec"}}}},
}

func ruleOf(obj *unstructured.Unstructured) (kindRule, bool) {
	rule, ok := kindRules[obj.GroupVersionKind().GroupKind()]
	return rule, ok
}

// enforcementOf is how much of obj the Update strategy holds to its
// manifest: its kind's rule's, else the whole object for a custom resource
// (a group that Kubernetes does not serve itself), which OCM's agent
// writes whole, else the fields the manifest sets.
func enforcementOf(obj *unstructured.Unstructured) enforcement {
	if rule, ok := ruleOf(obj); ok {
		return rule.enforce
	}
	if !builtInGroup(obj.GroupVersionKind().Group) {
		return enforceWhole
	}
	return enforceSet
}

// held is desired as far as the Update strategy holds it with
// enforceSpecFields: its metadata and the held fields of its spec; desired
// itself for other enforcements.
func held(desired *unstructured.Unstructured) *unstructured.Unstructured {
	rule, _ := ruleOf(desired)
	if rule.enforce != enforceSpecFields {
		return desired
	}
	spec, _ := desired.Object["spec"].(map[string]any)
	kept := map[string]any{}
	for _, field := range rule.heldSpec {
		if value, found := spec[field]; found {
			kept[field] = value
		}
	}
	out := &unstructured.Unstructured{Object: map[string]any{}}
	for key, value := range desired.Object {
		if key != "spec" {
			out.Object[key] = value
		}
	}
	out.Object["spec"] = kept
	return out
}

// builtInGroup tells the API groups the Kubernetes API server serves
// itself, as client-go's scheme knows them, and the two served by its
// extension servers.
func builtInGroup(group string) bool {
	return group == "" || group == "apiextensions.k8s.io" || group == "apiregistration.k8s.io" ||
		kubescheme.Scheme.IsGroupRegistered(group)
}

// forComparison is the manifest as any strategy compares it with live: as the
// API server stores it, with the fields other controllers own taken from
// live. It is desired itself for kinds without rules. The error is the
// manifest's own (normalize).
func forComparison(desired, live *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	rule, ok := ruleOf(desired)
	if !ok {
		return desired, nil
	}
	out, err := normalized(rule, desired)
	if err != nil {
		return desired, err
	}
	if live == nil {
		return out, nil
	}
	for _, keep := range rule.keep {
		if keep.when != nil && !keep.when(out) {
			continue
		}
		if out == desired {
			out = desired.DeepCopy() // copied only when something may change
		}
		keepAt(out.Object, live.Object, keep.path, keep.mode)
	}
	return out, nil
}

// forUpdateOf is the manifest as the Update strategy compares it with live and
// writes it: forComparison with the fields only a create writes taken from
// live (keptOnUpdate), and for metadata-only kinds the manifest's metadata
// over the rest of live.
func forUpdateOf(desired, live *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	out, err := forComparison(desired, live)
	if err != nil {
		return nil, err
	}
	if out == desired {
		out = desired.DeepCopy()
	}
	rule, ok := ruleOf(desired)
	for _, keep := range append(slices.Clip(keptOnEveryUpdate), rule.keptOnUpdate...) {
		keepAt(out.Object, live.Object, keep.path, keep.mode)
	}
	if ok && rule.metadataOnly {
		body := live.DeepCopy().Object
		delete(body, "status")
		body["apiVersion"], body["kind"] = out.GetAPIVersion(), out.GetKind()
		if metadata, found := out.Object["metadata"]; found {
			body["metadata"] = metadata
		} else {
			delete(body, "metadata")
		}
		out = &unstructured.Unstructured{Object: body}
	}
	return out, nil
}

// bodyWritten tells whether the Update strategy writes more of obj's manifest
// than its metadata.
func bodyWritten(obj *unstructured.Unstructured) bool {
	rule, _ := ruleOf(obj)
	return !rule.metadataOnly
}

// forCreateOf is the manifest as created: normalized, nothing else to keep.
func forCreateOf(desired *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	rule, ok := ruleOf(desired)
	if !ok {
		return desired, nil
	}
	return normalized(rule, desired)
}

// normalized is desired as rule's normalizers rewrite it: a copy, or desired
// itself when there are none.
func normalized(rule kindRule, desired *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if len(rule.normalize) == 0 {
		return desired, nil
	}
	out := desired.DeepCopy()
	for _, normalize := range rule.normalize {
		if err := normalize(out); err != nil {
			return nil, &Error{Reason: workv1.ManifestAppliedReasonFailed, Message: err.Error()}
		}
	}
	return out, nil
}

// needsRecreate names the field whose change the API server would refuse,
// "" when live can be updated in place. desired is forUpdateOf's result.
func needsRecreate(desired, live *unstructured.Unstructured) string {
	rule, _ := ruleOf(desired)
	for _, r := range rule.recreate {
		if r.when != nil && !r.when(live) {
			continue
		}
		for _, field := range r.fields {
			if !fieldEqual(desired, live, field, r.exact) {
				return field
			}
		}
	}
	return ""
}

// fieldEqual compares one top-level field of desired and live, as a whole
// when exact (an empty value and none are the same: the server omits empty
// fields), else as package diff does.
func fieldEqual(desired, live *unstructured.Unstructured, field string, exact bool) bool {
	want, got := desired.Object[field], live.Object[field]
	if exact {
		return isEmpty(want) && isEmpty(got) || reflect.DeepEqual(want, got)
	}
	return diff.Equal(
		&unstructured.Unstructured{Object: map[string]any{field: want}},
		&unstructured.Unstructured{Object: map[string]any{field: got}})
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	case string:
		return x == ""
	}
	return false
}

// keepAt copies into want the values of live at path, as mode says. want and
// live are parts of objects at the same place; want is modified in place and
// must be a copy.
func keepAt(want, live any, path []keepStep, mode keepMode) {
	s := path[0]
	if s.itemsBy != "" {
		wantItems, ok := want.([]any)
		liveItems, ok2 := live.([]any)
		if !ok || !ok2 {
			return
		}
		for _, item := range wantItems {
			if match := itemWithKey(liveItems, s.itemsBy, item); match != nil {
				keepAt(item, match, path[1:], mode)
			}
		}
		return
	}
	wantMap, ok := want.(map[string]any)
	liveMap, ok2 := live.(map[string]any)
	if !ok || !ok2 {
		return
	}
	if len(path) == 1 {
		keys := []string{s.key}
		if s.eachKey {
			keys = slices.Collect(maps.Keys(liveMap))
		}
		for _, key := range keys {
			keepValue(wantMap, liveMap, key, mode)
		}
		return
	}
	keys := []string{s.key}
	if s.eachKey {
		keys = slices.Collect(maps.Keys(wantMap))
	}
	for _, key := range keys {
		_, liveIsMap := liveMap[key].(map[string]any)
		if len(path) == 2 && path[1].eachKey && wantMap[key] == nil && liveIsMap {
			// Live's fields are merged into the manifest's map, which an
			// empty manifest leaves out.
			wantMap[key] = map[string]any{}
		}
		keepAt(wantMap[key], liveMap[key], path[1:], mode)
	}
}

func keepValue(want, live map[string]any, key string, mode keepMode) {
	liveValue, inLive := live[key]
	inLive = inLive && liveValue != nil
	switch {
	case inLive && (mode != ifUnset || want[key] == nil):
		want[key] = runtime.DeepCopyJSONValue(liveValue)
	case !inLive && mode == clusterOwned:
		delete(want, key)
	}
}

// itemWithKey is the item of items whose string at key equals item's; nil
// when item has no such string or items no such item.
func itemWithKey(items []any, key string, item any) any {
	value, ok := stringAt(item, key)
	if !ok {
		return nil
	}
	for _, candidate := range items {
		if other, ok := stringAt(candidate, key); ok && other == value {
			return candidate
		}
	}
	return nil
}

// stringAt is the string at key of obj, when obj is a map holding one.
func stringAt(obj any, key string) (string, bool) {
	m, ok := obj.(map[string]any)
	if !ok {
		return "", false
	}
	s, ok := m[key].(string)
	return s, ok
}

// foldStringData moves a Secret's stringData into data, base64-encoded, as the
// API server does on every write; a live Secret never shows stringData. A key
// in both with different values is refused: which one the user meant is not
// known.
func foldStringData(obj *unstructured.Unstructured) error {
	stringData, found, err := unstructured.NestedMap(obj.Object, "stringData")
	if err != nil {
		return fmt.Errorf("stringData: %w", err)
	}
	if !found {
		return nil
	}
	data, _, err := unstructured.NestedMap(obj.Object, "data")
	if err != nil {
		return fmt.Errorf("data: %w", err)
	}
	if data == nil {
		data = map[string]any{}
	}
	for _, key := range slices.Sorted(maps.Keys(stringData)) {
		text, ok := stringData[key].(string)
		if !ok {
			return fmt.Errorf("stringData[%q] is not a string", key)
		}
		encoded := base64.StdEncoding.EncodeToString([]byte(text))
		if existing, ok := data[key]; ok && existing != encoded && !decodesTo(existing, text) {
			return fmt.Errorf("the Secret sets key %q twice with different values, in data and in stringData", key)
		}
		data[key] = encoded
	}
	unstructured.RemoveNestedField(obj.Object, "stringData")
	return unstructured.SetNestedMap(obj.Object, data, "data")
}

func decodesTo(encoded any, text string) bool {
	s, ok := encoded.(string)
	if !ok {
		return false
	}
	decoded, err := base64.StdEncoding.DecodeString(s)
	return err == nil && bytes.Equal(decoded, []byte(text))
}

// defaultString sets the field at path to value when the manifest leaves it
// out, as the API server's defaulting does.
func defaultString(value string, path ...string) func(*unstructured.Unstructured) error {
	return func(obj *unstructured.Unstructured) error {
		if current, found, _ := unstructured.NestedFieldNoCopy(obj.Object, path...); found && current != nil && current != "" {
			return nil
		}
		return unstructured.SetNestedField(obj.Object, value, path...)
	}
}

func hasField(path ...string) func(*unstructured.Unstructured) bool {
	return func(obj *unstructured.Unstructured) bool {
		value, found, _ := unstructured.NestedFieldNoCopy(obj.Object, path...)
		return found && value != nil
	}
}

// fieldIs tells whether the field at path holds want (a string or a bool).
func fieldIs(want any, path ...string) func(*unstructured.Unstructured) bool {
	return func(obj *unstructured.Unstructured) bool {
		value, found, _ := unstructured.NestedFieldNoCopy(obj.Object, path...)
		return found && value == want
	}
}

func labelIs(key, want string) func(*unstructured.Unstructured) bool {
	return func(obj *unstructured.Unstructured) bool { return obj.GetLabels()[key] == want }
}

func annotationIs(key, want string) func(*unstructured.Unstructured) bool {
	return func(obj *unstructured.Unstructured) bool { return obj.GetAnnotations()[key] == want }
}
