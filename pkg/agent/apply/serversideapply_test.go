package apply

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic/fake"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

var applyConflict = apierrors.NewApplyConflict([]metav1.StatusCause{{
	Type:    metav1.CauseTypeFieldManagerConflict,
	Message: `conflict with "hpa-controller" using apps/v1`,
	Field:   ".spec.replicas",
}}, `Apply failed with 1 conflict: conflict with "hpa-controller" using apps/v1: .spec.replicas`)

func ssaConfig(ssa *workv1.ServerSideApplyConfig) *workv1.ManifestConfigOption {
	return &workv1.ManifestConfigOption{
		ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "default", Name: "settings"},
		UpdateStrategy:     &workv1.UpdateStrategy{Type: workv1.UpdateStrategyTypeServerSideApply, ServerSideApply: ssa},
	}
}

func ignoring(condition workv1.IgnoreFieldsCondition, field workv1.IgnoreField) *workv1.ManifestConfigOption {
	field.Condition = condition
	return ssaConfig(&workv1.ServerSideApplyConfig{IgnoreFields: []workv1.IgnoreField{field}})
}

// owned is live carrying the given owner references, as the agent's owner
// patch left it.
func owned(live *unstructured.Unstructured, owners ...metav1.OwnerReference) *unstructured.Unstructured {
	out := live.DeepCopy()
	out.SetOwnerReferences(owners)
	return out
}

type ssaCase struct {
	name        string
	gvr         schema.GroupVersionResource // zero: configmaps
	desired     *unstructured.Unstructured
	live        *unstructured.Unstructured // nil: the object does not exist
	config      *workv1.ManifestConfigOption
	knownAbsent bool
	last        *LastApplied // what the agent remembers; nil: nothing
	reactors    []func(*fake.FakeDynamicClient)
	wantVerbs   []string
	check       func(t *testing.T, rec *applyRecorder, res Result)
	checkErr    func(t *testing.T, err error)
}

func runSSACases(t *testing.T, tests []ssaCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var existing []*unstructured.Unstructured
			if tt.live != nil {
				existing = append(existing, tt.live)
			}
			client := newClient(existing...)
			rec := recordApplies(client)
			for _, react := range tt.reactors {
				react(client)
			}
			gvr := tt.gvr
			if gvr.Empty() {
				gvr = configMapsGVR
			}

			res, err := serverSideApplyStrategy{}.Apply(context.Background(), client, Request{
				Resource: gvr, Desired: tt.desired, Owner: ownerA, Config: tt.config, KnownAbsent: tt.knownAbsent,
				Spec: specOf(t, tt.desired, tt.config), Last: tt.last,
			})

			assert.Equal(t, tt.wantVerbs, verbs(client))
			if tt.checkErr != nil {
				require.Error(t, err)
				tt.checkErr(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, wroteAny(client), res.Written)
			require.NotNil(t, res.Object)
			assert.Contains(t, res.Object.GetOwnerReferences(), ownerA, "the result carries our owner reference")
			for _, patch := range rec.patches {
				body := decode(t, string(patch.GetPatch()))
				assert.Empty(t, body.GetOwnerReferences(), "no owner reference in an apply body")
				assert.Empty(t, body.GetAnnotations(), "no bookkeeping in an apply body")
			}
			if tt.check != nil {
				tt.check(t, rec, res)
			}
		})
	}
}

func TestServerSideApply(t *testing.T) {
	desired := configMap(t, map[string]any{"key": "ours"})
	deployment := desiredDeployment(t)
	plain := ssaConfig(nil)
	runSSACases(t, []ssaCase{
		{
			name:      "creates a missing object with a forced=false apply by work-agent, then adds the owner",
			desired:   desired,
			config:    plain,
			wantVerbs: []string{"get", "patch", "patch"},
			check: func(t *testing.T, rec *applyRecorder, res Result) {
				patch := rec.patches[0]
				assert.Equal(t, types.ApplyPatchType, patch.GetPatchType())
				assert.Equal(t, "work-agent", patch.PatchOptions.FieldManager)
				require.NotNil(t, patch.PatchOptions.Force)
				assert.False(t, *patch.PatchOptions.Force)
				assert.Equal(t, map[string]any{"key": "ours"}, rec.body(t).Object["data"])
				assert.Equal(t, []metav1.OwnerReference{ownerA}, res.Object.GetOwnerReferences())
			},
		},
		{
			name:        "known absent applies without a GET",
			desired:     desired,
			config:      plain,
			knownAbsent: true,
			wantVerbs:   []string{"patch", "patch"},
		},
		{
			name:      "no config at all is a plain apply too",
			desired:   desired,
			wantVerbs: []string{"get", "patch", "patch"},
		},
		{
			name:      "field manager and force come from the config",
			desired:   desired,
			config:    ssaConfig(&workv1.ServerSideApplyConfig{Force: true, FieldManager: "work-agent-replicas"}),
			wantVerbs: []string{"get", "patch", "patch"},
			check: func(t *testing.T, rec *applyRecorder, _ Result) {
				assert.Equal(t, "work-agent-replicas", rec.patches[0].PatchOptions.FieldManager)
				assert.True(t, *rec.patches[0].PatchOptions.Force)
			},
		},
		{
			name:      "no write when the work is unchanged and live holds it with server defaults",
			gvr:       deploymentsGVR,
			desired:   deployment,
			live:      owned(decode(t, deploymentAsServed), ownerB, ownerA),
			config:    plain,
			last:      remembered(t, deployment, plain),
			wantVerbs: []string{"get"},
		},
		{
			name:      "an object another agent applied is taken over without a write",
			gvr:       deploymentsGVR,
			desired:   deployment,
			live:      owned(decode(t, deploymentAsServed), ownerA),
			config:    plain,
			wantVerbs: []string{"get"},
		},
		{
			name:      "a changed work is applied even when live already holds it",
			gvr:       deploymentsGVR,
			desired:   deployment,
			live:      owned(decode(t, deploymentAsServed), ownerA),
			config:    plain,
			last:      remembered(t, deployment, ssaConfig(&workv1.ServerSideApplyConfig{Force: true})),
			wantVerbs: []string{"get", "patch"},
		},
		{
			name:      "drift is applied back",
			desired:   desired,
			live:      owned(configMap(t, map[string]any{"key": "theirs"}), ownerA),
			config:    plain,
			last:      remembered(t, desired, plain),
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, _ Result) {
				assert.Equal(t, map[string]any{"key": "ours"}, rec.body(t).Object["data"])
			},
		},
		{
			name:      "a second work adds its owner reference with a patch of its own and keeps the first",
			desired:   desired,
			live:      owned(configMap(t, map[string]any{"key": "ours"}), ownerB),
			config:    plain,
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, res Result) {
				assert.Empty(t, rec.patches, "nothing to apply")
				assert.Equal(t, []metav1.OwnerReference{ownerB, ownerA}, res.Object.GetOwnerReferences())
			},
		},
		{
			name:      "a conflict is Failed with the server's message naming the managers",
			desired:   desired,
			config:    plain,
			reactors:  []func(*fake.FakeDynamicClient){failOn("patch", applyConflict)},
			wantVerbs: []string{"get", "patch"},
			checkErr: func(t *testing.T, err error) {
				requireApplyError(t, err, workv1.ManifestAppliedReasonFailed, applyConflict)
				assert.Contains(t, err.Error(), `"hpa-controller"`)
				assert.True(t, apierrors.IsConflict(err))
			},
		},
		{
			name:      "a forbidden read is Failed with the server's message",
			desired:   desired,
			config:    plain,
			reactors:  []func(*fake.FakeDynamicClient){failOn("get", forbiddenDeployments)},
			wantVerbs: []string{"get"},
			checkErr: func(t *testing.T, err error) {
				requireApplyError(t, err, workv1.ManifestAppliedReasonFailed, forbiddenDeployments)
			},
		},
	})
}

func TestServerSideApplyIgnoreFields(t *testing.T) {
	ours := configMap(t, map[string]any{"key": "ours", "other": "v2"})
	theirs := configMap(t, map[string]any{"key": "theirs", "other": "v1"})
	older := configMap(t, map[string]any{"key": "old", "other": "v1"}) // the work before its last change

	dataPath := workv1.IgnoreField{JSONPaths: []string{".data"}}
	keyPointer := workv1.IgnoreField{JSONPointers: []string{"/data/key"}}
	onPresentData := ignoring(workv1.IgnoreFieldsConditionOnSpokePresent, dataPath)
	onPresentKey := ignoring(workv1.IgnoreFieldsConditionOnSpokePresent, keyPointer)
	onChangeKey := ignoring(workv1.IgnoreFieldsConditionOnSpokeChange, keyPointer)

	deployment := desiredDeployment(t)
	onChangeReplicas := ignoring(workv1.IgnoreFieldsConditionOnSpokeChange, workv1.IgnoreField{JSONPaths: []string{".spec.replicas"}})
	scaledBySpoke := decode(t, deploymentAsServed)
	require.NoError(t, unstructured.SetNestedField(scaledBySpoke.Object, int64(5), "spec", "replicas"))

	dataOf := func(t *testing.T, rec *applyRecorder) any { return rec.body(t).Object["data"] }
	onPresentAppImage := ignoring(workv1.IgnoreFieldsConditionOnSpokePresent,
		workv1.IgnoreField{JSONPaths: []string{`.spec.template.spec.containers[?(@.name=="hello")].image`}})
	onPresentNoContainer := ignoring(workv1.IgnoreFieldsConditionOnSpokePresent,
		workv1.IgnoreField{JSONPaths: []string{`.spec.template.spec.containers[?(@.name=="none")].image`}})
	onChangeImages := ignoring(workv1.IgnoreFieldsConditionOnSpokeChange,
		workv1.IgnoreField{JSONPaths: []string{".spec.template.spec.containers[*].image"}})

	// The same fields, picked by a jsonPath or by a jqPathExpression, are
	// ignored alike.
	var eachLanguage []ssaCase
	for _, lang := range []struct {
		name               string
		appImage, replicas *workv1.ManifestConfigOption
	}{
		{"jsonPath", onPresentAppImage, onChangeReplicas},
		{"jqPathExpression", ignoring(workv1.IgnoreFieldsConditionOnSpokePresent,
			workv1.IgnoreField{JQPathExpressions: []string{`.spec.template.spec.containers[] | select(.name == "hello") | .image`}}),
			ignoring(workv1.IgnoreFieldsConditionOnSpokeChange, workv1.IgnoreField{JQPathExpressions: []string{".spec.replicas"}})},
	} {
		eachLanguage = append(eachLanguage,
			ssaCase{
				name:      lang.name + " OnSpokePresent filter: the picked container keeps its live image, wherever it is",
				gvr:       deploymentsGVR,
				desired:   deployment,
				live:      owned(withSidecarFirst(t, withImage(t, decode(t, deploymentAsServed), "nginx:1.26")), ownerA),
				config:    lang.appImage,
				last:      remembered(t, withReplicas(t, deployment, 2), lang.appImage),
				wantVerbs: []string{"get", "patch"},
				check: func(t *testing.T, rec *applyRecorder, _ Result) {
					containers, _, _ := unstructured.NestedSlice(rec.body(t).Object, "spec", "template", "spec", "containers")
					require.Len(t, containers, 1)
					assert.Equal(t, "nginx:1.26", containers[0].(map[string]any)["image"])
				},
			},
			ssaCase{
				name:      lang.name + " OnSpokeChange: a spoke scale of an unchanged work writes nothing",
				gvr:       deploymentsGVR,
				desired:   deployment,
				live:      owned(scaledBySpoke, ownerA),
				config:    lang.replicas,
				last:      remembered(t, deployment, lang.replicas),
				wantVerbs: []string{"get"},
			},
			ssaCase{
				name:      lang.name + " OnSpokeChange: a work that changed replicas scales back to them",
				gvr:       deploymentsGVR,
				desired:   deployment,
				live:      owned(scaledBySpoke, ownerA),
				config:    lang.replicas,
				last:      remembered(t, withReplicas(t, deployment, 2), lang.replicas),
				wantVerbs: []string{"get", "patch"},
				check: func(t *testing.T, rec *applyRecorder, _ Result) {
					replicas, _, _ := unstructured.NestedInt64(rec.body(t).Object, "spec", "replicas")
					assert.Equal(t, int64(3), replicas)
				},
			})
	}

	runSSACases(t, append(eachLanguage, []ssaCase{
		{
			name:      "OnSpokePresent: a missing object gets the work's values",
			desired:   ours,
			config:    onPresentData,
			wantVerbs: []string{"get", "patch", "patch"},
			check: func(t *testing.T, rec *applyRecorder, _ Result) {
				assert.Equal(t, map[string]any{"key": "ours", "other": "v2"}, dataOf(t, rec))
			},
		},
		{
			name:      "OnSpokePresent jsonPath: another actor's change stays and nothing is written",
			desired:   ours,
			live:      owned(theirs, ownerA),
			config:    onPresentData,
			last:      remembered(t, ours, onPresentData),
			wantVerbs: []string{"get"},
			check: func(t *testing.T, _ *applyRecorder, res Result) {
				require.NotNil(t, res.Differences, "the ignored fields are reported, not repaired")
				assert.Equal(t, []string{".data.key", ".data.other"}, res.Differences.Paths())
				assert.Nil(t, res.Repaired)
			},
		},
		{
			name:      "OnSpokePresent jsonPath: even a change of the work keeps the live values",
			desired:   ours,
			live:      owned(theirs, ownerA),
			config:    onPresentData,
			last:      remembered(t, older, onPresentData),
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, _ Result) {
				assert.Equal(t, map[string]any{"key": "theirs", "other": "v1"}, dataOf(t, rec))
			},
		},
		{
			name:      "OnSpokePresent jsonPointer: only the pointed field keeps its live value",
			desired:   ours,
			live:      owned(theirs, ownerA),
			config:    onPresentKey,
			last:      remembered(t, older, onPresentKey),
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, _ Result) {
				assert.Equal(t, map[string]any{"key": "theirs", "other": "v2"}, dataOf(t, rec))
			},
		},
		{
			name:      "OnSpokePresent jsonPointer: a field live lacks is not added",
			desired:   ours,
			live:      owned(configMap(t, map[string]any{"other": "v1"}), ownerA),
			config:    onPresentKey,
			last:      remembered(t, older, onPresentKey),
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, _ Result) {
				assert.Equal(t, map[string]any{"other": "v2"}, dataOf(t, rec))
			},
		},
		{
			name:      "OnSpokeChange jsonPointer: unchanged work keeps the spoke's change",
			desired:   ours,
			live:      owned(configMap(t, map[string]any{"key": "theirs", "other": "v0"}), ownerA),
			config:    onChangeKey,
			last:      remembered(t, ours, onChangeKey),
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, res Result) {
				// "other" drifted and is applied back; "key" stays the spoke's.
				assert.Equal(t, map[string]any{"key": "theirs", "other": "v2"}, dataOf(t, rec))
				require.NotNil(t, res.Repaired, "the drift of other is repaired")
				assert.Equal(t, `.data.other: found "v0", restored "v2"`, res.Repaired.Describe("%[1]s: found %[3]s, restored %[2]s"))
			},
		},
		{
			name:      "OnSpokeChange jsonPointer: a changed work applies its value",
			desired:   ours,
			live:      owned(theirs, ownerA),
			config:    onChangeKey,
			last:      remembered(t, older, onChangeKey),
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, _ Result) {
				assert.Equal(t, map[string]any{"key": "ours", "other": "v2"}, dataOf(t, rec))
			},
		},
		{
			name:      "OnSpokeChange jsonPath: nothing remembered (an object taken over) keeps the spoke's replicas",
			gvr:       deploymentsGVR,
			desired:   deployment,
			live:      owned(scaledBySpoke, ownerA),
			config:    onChangeReplicas,
			wantVerbs: []string{"get"},
		},
		{
			name:      "OnSpokeChange jsonPath: a change elsewhere in the work keeps the spoke's replicas",
			gvr:       deploymentsGVR,
			desired:   deployment,
			live:      owned(scaledBySpoke, ownerA),
			config:    onChangeReplicas,
			last:      remembered(t, withImage(t, deployment, "nginx:1.24"), onChangeReplicas),
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, _ Result) {
				body := rec.body(t)
				replicas, _, _ := unstructured.NestedInt64(body.Object, "spec", "replicas")
				assert.Equal(t, int64(5), replicas, "the autoscaler's value stays")
				containers, _, _ := unstructured.NestedSlice(body.Object, "spec", "template", "spec", "containers")
				assert.Equal(t, "nginx:1.25", containers[0].(map[string]any)["image"], "the work's new image is applied")
			},
		},
		{
			name:      "OnSpokeChange [*]: a spoke's new image of an unchanged work writes nothing",
			gvr:       deploymentsGVR,
			desired:   deployment,
			live:      owned(withImage(t, decode(t, deploymentAsServed), "nginx:1.26"), ownerA),
			config:    onChangeImages,
			last:      remembered(t, deployment, onChangeImages),
			wantVerbs: []string{"get"},
		},
		{
			name:      "OnSpokeChange [*]: a work that changed the image applies it",
			gvr:       deploymentsGVR,
			desired:   deployment,
			live:      owned(withImage(t, decode(t, deploymentAsServed), "nginx:1.26"), ownerA),
			config:    onChangeImages,
			last:      remembered(t, withImage(t, deployment, "nginx:1.24"), onChangeImages),
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, _ Result) {
				containers, _, _ := unstructured.NestedSlice(rec.body(t).Object, "spec", "template", "spec", "containers")
				assert.Equal(t, "nginx:1.25", containers[0].(map[string]any)["image"])
			},
		},
		{
			name:      "a filter that picks nothing ignores nothing: the drift is repaired",
			gvr:       deploymentsGVR,
			desired:   deployment,
			live:      owned(withImage(t, decode(t, deploymentAsServed), "nginx:1.26"), ownerA),
			config:    onPresentNoContainer,
			last:      remembered(t, deployment, onPresentNoContainer),
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, res Result) {
				containers, _, _ := unstructured.NestedSlice(rec.body(t).Object, "spec", "template", "spec", "containers")
				assert.Equal(t, "nginx:1.25", containers[0].(map[string]any)["image"])
				assert.NotNil(t, res.Repaired)
			},
		},
		{
			name:    "an invalid filter is an SSA ignore field error naming the path",
			desired: ours,
			config:  ignoring(workv1.IgnoreFieldsConditionOnSpokePresent, workv1.IgnoreField{JSONPaths: []string{".items[?(@.x==)].y"}}),
			checkErr: func(t *testing.T, err error) {
				requireIgnoreFieldError(t, err, `invalid jsonPath ".items[?(@.x==)].y": invalid filter [?(@.x==)] at offset 6: unrecognized character in action: U+003D '='`)
			},
		},
		{
			name:      "jqPathExpression OnSpokePresent: the key keeps the spoke's value, the rest is applied",
			desired:   ours,
			live:      owned(theirs, ownerA),
			config:    ignoring(workv1.IgnoreFieldsConditionOnSpokePresent, workv1.IgnoreField{JQPathExpressions: []string{".data.key"}}),
			wantVerbs: []string{"get", "patch"},
			check: func(t *testing.T, rec *applyRecorder, _ Result) {
				data, _, _ := unstructured.NestedStringMap(rec.body(t).Object, "data")
				assert.Equal(t, map[string]string{"key": "theirs", "other": "v2"}, data)
			},
		},
		{
			name:    "an unparsable jqPathExpression is refused before anything is sent, naming it",
			desired: ours,
			live:    owned(theirs, ownerA),
			config:  ignoring(workv1.IgnoreFieldsConditionOnSpokePresent, workv1.IgnoreField{JQPathExpressions: []string{".data | invalid syntax"}}),
			checkErr: func(t *testing.T, err error) {
				requireIgnoreFieldError(t, err, `invalid jqPathExpression ".data | invalid syntax": unexpected token "syntax"`)
			},
		},
		{
			name:      "a jqPathExpression that is no path fails the manifest, naming it, and writes nothing",
			desired:   ours,
			live:      owned(theirs, ownerA),
			config:    ignoring(workv1.IgnoreFieldsConditionOnSpokePresent, workv1.IgnoreField{JQPathExpressions: []string{".data.key | ascii_upcase"}}),
			wantVerbs: []string{"get"},
			checkErr: func(t *testing.T, err error) {
				requireIgnoreFieldError(t, err, `jqPathExpression ".data.key | ascii_upcase" cannot pick fields of the object: `+
					`invalid path against: string ("OURS")`)
			},
		},
		{
			name:      "a jqPathExpression that does not end is stopped, and fails the manifest",
			desired:   ours,
			live:      owned(theirs, ownerA),
			config:    ignoring(workv1.IgnoreFieldsConditionOnSpokePresent, workv1.IgnoreField{JQPathExpressions: []string{"def f: f; f"}}),
			wantVerbs: []string{"get"},
			checkErr: func(t *testing.T, err error) {
				requireIgnoreFieldError(t, err, `jqPathExpression "def f: f; f" cannot pick fields of the object: evaluation took longer than 100ms`)
			},
		},
		{
			name:      "a jqPathExpression that picks the whole object fails the manifest",
			desired:   ours,
			live:      owned(theirs, ownerA),
			config:    ignoring(workv1.IgnoreFieldsConditionOnSpokePresent, workv1.IgnoreField{JQPathExpressions: []string{"."}}),
			wantVerbs: []string{"get"},
			checkErr: func(t *testing.T, err error) {
				requireIgnoreFieldError(t, err, `jqPathExpression "." cannot pick fields of the object: it picks the whole object; pick fields of it`)
			},
		},
		{
			name:    "an invalid jsonPath is an SSA ignore field error naming the path",
			desired: ours,
			config:  ignoring(workv1.IgnoreFieldsConditionOnSpokePresent, workv1.IgnoreField{JSONPaths: []string{".data", ".spec["}}),
			checkErr: func(t *testing.T, err error) {
				requireIgnoreFieldError(t, err, `invalid jsonPath ".spec[": unterminated '[' at offset 5`)
			},
		},
		{
			name:    "an invalid jsonPointer is an SSA ignore field error naming the pointer",
			desired: ours,
			config:  ignoring(workv1.IgnoreFieldsConditionOnSpokeChange, workv1.IgnoreField{JSONPointers: []string{"data/key"}}),
			checkErr: func(t *testing.T, err error) {
				requireIgnoreFieldError(t, err, `invalid jsonPointer "data/key": a JSON pointer must start with '/'`)
			},
		},
	}...))
}

// withImage and withReplicas are copies of a Deployment manifest with
// another image or replica count.
func withImage(t *testing.T, deployment *unstructured.Unstructured, image string) *unstructured.Unstructured {
	t.Helper()
	out := deployment.DeepCopy()
	containers, _, err := unstructured.NestedSlice(out.Object, "spec", "template", "spec", "containers")
	require.NoError(t, err)
	containers[0].(map[string]any)["image"] = image
	require.NoError(t, unstructured.SetNestedSlice(out.Object, containers, "spec", "template", "spec", "containers"))
	return out
}

// withSidecarFirst is a copy of a Deployment with a container injected
// before the others, as a service mesh does.
func withSidecarFirst(t *testing.T, deployment *unstructured.Unstructured) *unstructured.Unstructured {
	t.Helper()
	out := deployment.DeepCopy()
	containers, _, err := unstructured.NestedSlice(out.Object, "spec", "template", "spec", "containers")
	require.NoError(t, err)
	sidecar := map[string]any{"name": "istio-proxy", "image": "proxyv2:1.20"}
	require.NoError(t, unstructured.SetNestedSlice(out.Object, append([]any{sidecar}, containers...), "spec", "template", "spec", "containers"))
	return out
}

func withReplicas(t *testing.T, deployment *unstructured.Unstructured, replicas int64) *unstructured.Unstructured {
	t.Helper()
	out := deployment.DeepCopy()
	require.NoError(t, unstructured.SetNestedField(out.Object, replicas, "spec", "replicas"))
	return out
}

func requireIgnoreFieldError(t *testing.T, err error, message string) {
	t.Helper()
	var applyErr *Error
	require.ErrorAs(t, err, &applyErr)
	assert.Equal(t, workv1.ManifestAppliedReasonSSAIgnoreFail, applyErr.Reason)
	assert.Equal(t, message, applyErr.Message)
}

func TestApplyOptionsOf(t *testing.T) {
	tests := []struct {
		name   string
		config *workv1.ManifestConfigOption
		want   applyOptions
	}{
		{name: "no config", want: applyOptions{fieldManager: "work-agent"}},
		{name: "no serverSideApply block", config: ssaConfig(nil), want: applyOptions{fieldManager: "work-agent"}},
		{name: "force without manager", config: ssaConfig(&workv1.ServerSideApplyConfig{Force: true}), want: applyOptions{fieldManager: "work-agent", force: true}},
		{
			name:   "manager and ignore fields",
			config: ignoring(workv1.IgnoreFieldsConditionOnSpokeChange, workv1.IgnoreField{JSONPaths: []string{".data"}}),
			want: applyOptions{fieldManager: "work-agent", ignoreFields: []workv1.IgnoreField{
				{Condition: workv1.IgnoreFieldsConditionOnSpokeChange, JSONPaths: []string{".data"}},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, applyOptionsOf(tt.config))
		})
	}
}
