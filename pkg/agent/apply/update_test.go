package apply

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/manifestwork/work/pkg/agent/objectwatch"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

var (
	immutableSelector = apierrors.NewInvalid(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "hello", field.ErrorList{
		field.Invalid(field.NewPath("spec", "selector"), map[string]any{"app": "other"}, "field is immutable"),
	})
	forbiddenDeployments = apierrors.NewForbidden(deploymentsGVR.GroupResource(), "hello",
		errors.New(`User "system:serviceaccount:open-cluster-management-agent:klusterlet-work-sa" cannot get resource "deployments"`))
)

// failOn makes every action with the verb fail with err.
func failOn(verb string, err error) func(*fake.FakeDynamicClient) {
	return func(c *fake.FakeDynamicClient) {
		c.PrependReactor(verb, "*", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, err
		})
	}
}

// failOnce makes only the first action with the verb fail with err.
func failOnce(verb string, err error) func(*fake.FakeDynamicClient) {
	return func(c *fake.FakeDynamicClient) {
		failed := false
		c.PrependReactor(verb, "*", func(clienttesting.Action) (bool, runtime.Object, error) {
			if failed {
				return false, nil, nil
			}
			failed = true
			return true, nil, err
		})
	}
}

// requireApplyError checks that err is an *Error with the reason and the
// server's message, and still unwraps to the server's error.
func requireApplyError(t *testing.T, err error, reason string, serverErr error) {
	t.Helper()
	var applyErr *Error
	require.ErrorAs(t, err, &applyErr)
	assert.Equal(t, reason, applyErr.Reason)
	assert.Equal(t, serverErr.Error(), applyErr.Message)
	assert.ErrorIs(t, err, serverErr)
}

func TestUpdate(t *testing.T) {
	withReplicas := func(n int64) func(*unstructured.Unstructured) {
		return func(obj *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedField(obj.Object, n, "spec", "replicas"))
		}
	}
	tests := []struct {
		name        string
		live        *unstructured.Unstructured // nil: the object does not exist
		editLive    func(*unstructured.Unstructured)
		owner       metav1.OwnerReference
		knownAbsent bool
		last        *LastApplied // what the agent remembers; nil: nothing
		reactors    []func(*fake.FakeDynamicClient)
		wantVerbs   []string
		wantWritten bool
		check       func(t *testing.T, c *fake.FakeDynamicClient, res Result)
		checkErr    func(t *testing.T, err error)
	}{
		{
			name:        "creates a missing object with the owner reference and no bookkeeping",
			owner:       ownerA,
			wantVerbs:   []string{"get", "create"},
			wantWritten: true,
			check: func(t *testing.T, c *fake.FakeDynamicClient, res Result) {
				obj := stored(t, c, deploymentsGVR, "default", "hello")
				assert.Equal(t, []metav1.OwnerReference{ownerA}, obj.GetOwnerReferences())
				assert.Equal(t, map[string]string{"app": "hello"}, obj.GetLabels())
				assert.Empty(t, obj.GetAnnotations())
				assert.Equal(t, "hello", res.Object.GetName())
			},
		},
		{
			name:        "known absent creates without a GET",
			owner:       ownerA,
			knownAbsent: true,
			wantVerbs:   []string{"create"},
			wantWritten: true,
		},
		{
			name:        "known absent but present falls back to GET and updates the drift",
			live:        servedDeployment(t, ownerA),
			editLive:    withReplicas(1),
			owner:       ownerA,
			knownAbsent: true,
			wantVerbs:   []string{"create", "get", "update"},
			wantWritten: true,
		},
		{
			name:        "known absent but present and up to date writes nothing",
			live:        servedDeployment(t, ownerA),
			owner:       ownerA,
			knownAbsent: true,
			wantVerbs:   []string{"create", "get", dryRun},
		},
		{
			name:      "no write when live is the manifest plus defaults and foreign metadata",
			live:      servedDeployment(t, ownerB, ownerA),
			owner:     ownerA,
			last:      remembered(t, desiredDeployment(t), nil),
			wantVerbs: []string{"get", dryRun},
			check: func(t *testing.T, _ *fake.FakeDynamicClient, res Result) {
				assert.Equal(t, "42", res.Object.GetResourceVersion(), "the result is the live object")
			},
		},
		{
			name:        "drift is updated over live's resourceVersion, foreign metadata kept",
			live:        servedDeployment(t, ownerB, ownerA),
			editLive:    withReplicas(5),
			owner:       ownerA,
			wantVerbs:   []string{"get", "update"},
			wantWritten: true,
			check: func(t *testing.T, c *fake.FakeDynamicClient, res Result) {
				sent := sentObject(t, c, "update")
				assert.Equal(t, "42", sent.GetResourceVersion())
				replicas, _, _ := unstructured.NestedInt64(sent.Object, "spec", "replicas")
				assert.Equal(t, int64(3), replicas)
				assert.Equal(t, map[string]string{"app": "hello", "team": "platform"}, sent.GetLabels())
				assert.Equal(t, map[string]string{"deployment.kubernetes.io/revision": "1"}, sent.GetAnnotations())
				assert.Equal(t, []metav1.OwnerReference{ownerB, ownerA}, sent.GetOwnerReferences())
				assert.Equal(t, []string{"example.com/protect"}, sent.GetFinalizers())
				assert.True(t, res.Written)
			},
		},
		{
			name:        "a second work adds its owner reference and keeps the first",
			live:        servedDeployment(t, ownerA),
			owner:       ownerB,
			wantVerbs:   []string{"get", "update"},
			wantWritten: true,
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				obj := stored(t, c, deploymentsGVR, "default", "hello")
				assert.Equal(t, []metav1.OwnerReference{ownerA, ownerB}, obj.GetOwnerReferences())
			},
		},
		{
			name: "a field the work no longer sets is removed",
			live: servedDeployment(t, ownerA),
			editLive: func(obj *unstructured.Unstructured) {
				// Written by an older version of the work: one more field.
				require.NoError(t, unstructured.SetNestedField(obj.Object, true, "spec", "paused"))
			},
			owner:       ownerA,
			last:        &LastApplied{Spec: 1}, // an older desired state
			wantVerbs:   []string{"get", "update"},
			wantWritten: true,
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				_, found, _ := unstructured.NestedFieldNoCopy(sentObject(t, c, "update").Object, "spec", "paused")
				assert.False(t, found)
			},
		},
		{
			name:      "an object another agent applied is taken over without a write",
			live:      servedDeployment(t, ownerA),
			editLive:  func(obj *unstructured.Unstructured) { obj.SetManagedFields(nil) },
			owner:     ownerA,
			wantVerbs: []string{"get", dryRun},
		},
		{
			name: "the hash annotations of earlier versions go when the object is written anyway",
			live: servedDeployment(t, ownerA),
			editLive: func(obj *unstructured.Unstructured) {
				require.NoError(t, unstructured.SetNestedField(obj.Object, int64(5), "spec", "replicas"))
				obj.SetAnnotations(map[string]string{workv1.ObjectHashAnnotation: "old", "kept": "yes"})
			},
			owner:       ownerA,
			wantVerbs:   []string{"get", "update"},
			wantWritten: true,
			check: func(t *testing.T, c *fake.FakeDynamicClient, _ Result) {
				assert.Equal(t, map[string]string{"kept": "yes"}, sentObject(t, c, "update").GetAnnotations())
			},
		},
		{
			name:        "a conflicting writer makes the update retry on a fresh read",
			live:        servedDeployment(t, ownerA),
			editLive:    withReplicas(5),
			owner:       ownerA,
			reactors:    []func(*fake.FakeDynamicClient){failOnce("update", apierrors.NewConflict(deploymentsGVR.GroupResource(), "hello", errors.New("the object has been modified")))},
			wantVerbs:   []string{"get", "update", "get", "update"},
			wantWritten: true,
		},
		{
			name:      "a dry run that conflicts, the object having changed since the read, is sent again on a fresh read",
			live:      servedDeployment(t, ownerA),
			owner:     ownerA,
			reactors:  []func(*fake.FakeDynamicClient){failOnce("update", apierrors.NewConflict(deploymentsGVR.GroupResource(), "hello", errors.New("the object has been modified")))},
			wantVerbs: []string{"get", dryRun, "get", dryRun},
		},
		{
			name:      "an immutable field rejection is Failed with the server's message",
			live:      servedDeployment(t, ownerA),
			editLive:  withReplicas(5),
			owner:     ownerA,
			reactors:  []func(*fake.FakeDynamicClient){failOn("update", immutableSelector)},
			wantVerbs: []string{"get", "update"},
			checkErr: func(t *testing.T, err error) {
				requireApplyError(t, err, workv1.ManifestAppliedReasonFailed, immutableSelector)
				assert.True(t, apierrors.IsInvalid(err))
			},
		},
		{
			name:      "a forbidden read is Failed with the server's message",
			owner:     ownerA,
			reactors:  []func(*fake.FakeDynamicClient){failOn("get", forbiddenDeployments)},
			wantVerbs: []string{"get"},
			checkErr: func(t *testing.T, err error) {
				requireApplyError(t, err, workv1.ManifestAppliedReasonFailed, forbiddenDeployments)
				assert.True(t, apierrors.IsForbidden(err))
			},
		},
		{
			name:      "a forbidden create is Failed with the server's message",
			owner:     ownerA,
			reactors:  []func(*fake.FakeDynamicClient){failOn("create", forbiddenDeployments)},
			wantVerbs: []string{"get", "create"},
			checkErr: func(t *testing.T, err error) {
				requireApplyError(t, err, workv1.ManifestAppliedReasonFailed, forbiddenDeployments)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var existing []*unstructured.Unstructured
			if tt.live != nil {
				live := tt.live.DeepCopy()
				if tt.editLive != nil {
					tt.editLive(live)
				}
				existing = append(existing, live)
			}
			client := newClient(existing...)
			for _, react := range tt.reactors {
				react(client)
			}
			desired := desiredDeployment(t)
			res, err := updateStrategy{}.Apply(context.Background(), client, Request{
				Resource:    deploymentsGVR,
				Desired:     desired,
				Owner:       tt.owner,
				KnownAbsent: tt.knownAbsent,
				Spec:        specOf(t, desired, nil),
				Last:        tt.last,
			})
			checkApply(t, client, res, err, tt.wantVerbs, tt.checkErr, func(t *testing.T, c *fake.FakeDynamicClient, res Result) {
				assert.Equal(t, tt.wantWritten, res.Written)
				if tt.check != nil {
					tt.check(t, c, res)
				}
			})
		})
	}
}

// TestUpdateComparesValuesNotSpelling runs the Update strategy on objects
// whose live form differs from the manifest only in representation, and on
// one that differs in a value that merely looks like a quantity.
func TestUpdateComparesValuesNotSpelling(t *testing.T) {
	tests := []struct {
		name      string
		desired   map[string]any
		live      map[string]any
		wantVerbs []string
	}{
		{name: "same strings", desired: map[string]any{"a": "x"}, live: map[string]any{"a": "x"}, wantVerbs: []string{"get"}},
		{name: "empty data is omitted by the server", desired: map[string]any{}, live: nil, wantVerbs: []string{"get"}},
		{name: "version strings are not quantities", desired: map[string]any{"version": "1.20"}, live: map[string]any{"version": "1.2"}, wantVerbs: []string{"get", "update"}},
		{name: "changed value", desired: map[string]any{"a": "x"}, live: map[string]any{"a": "y"}, wantVerbs: []string{"get", "update"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			desired := configMap(t, tt.desired)
			live := configMap(t, tt.live)
			live.SetOwnerReferences([]metav1.OwnerReference{ownerA})
			client := newClient(live)

			_, err := updateStrategy{}.Apply(context.Background(), client, Request{Resource: configMapsGVR, Desired: desired, Owner: ownerA})

			require.NoError(t, err)
			assert.Equal(t, tt.wantVerbs, verbs(client))
		})
	}
}

// TestUpdateEnforcesWhatOCMWrites runs the Update strategy on objects that
// another writer changed beyond the fields the manifest sets, the work
// unchanged: what OCM's agent writes whole for the kind (ConfigMap and Secret
// data; the spec of workloads and custom resources) is written back, found
// for workloads and custom resources by a dry run of the update, while
// labels and annotations others add, and the server's defaults, stay.
func TestUpdateEnforcesWhatOCMWrites(t *testing.T) {
	setField := func(value any, path ...string) func(*unstructured.Unstructured) {
		return func(obj *unstructured.Unstructured) {
			require.NoError(t, unstructured.SetNestedField(obj.Object, value, path...))
		}
	}
	withEnv := func(obj *unstructured.Unstructured) {
		containers, _, _ := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "containers")
		containers[0].(map[string]any)["env"] = []any{map[string]any{"name": "FOO", "value": "bar"}}
		require.NoError(t, unstructured.SetNestedSlice(obj.Object, containers, "spec", "template", "spec", "containers"))
	}
	widgetsGVR := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	widget := func(spec map[string]any) *unstructured.Unstructured {
		obj := decode(t, `{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "default"}}`)
		require.NoError(t, unstructured.SetNestedField(obj.Object, spec, "spec"))
		return obj
	}
	servicesGVR := schema.GroupVersionResource{Version: "v1", Resource: "services"}
	service := func(extraPort bool) *unstructured.Unstructured {
		obj := decode(t, `{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "default"},
			"spec": {"selector": {"app": "web"}, "ports": [{"port": 80}]}}`)
		if extraPort {
			require.NoError(t, unstructured.SetNestedField(obj.Object, "10.0.0.1", "spec", "clusterIP"))
		}
		return obj
	}
	jobsGVR := schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
	// job is a Job's manifest; manual has it choose its selector. served
	// adds what the API server generates for one that does not: the
	// selector and the pod template's labels that match it.
	job := func(manual, served bool) *unstructured.Unstructured {
		obj := decode(t, `{"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "once", "namespace": "default"},
			"spec": {"template": {"metadata": {"labels": {"app": "once"}},
				"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}}`)
		if manual {
			setField(true, "spec", "manualSelector")(obj)
			setField(map[string]any{"matchLabels": map[string]any{"app": "once"}}, "spec", "selector")(obj)
		}
		if served {
			setField(map[string]any{"matchLabels": map[string]any{"batch.kubernetes.io/controller-uid": "5f1c"}}, "spec", "selector")(obj)
			setField(map[string]any{"app": "once", "batch.kubernetes.io/controller-uid": "5f1c", "controller-uid": "5f1c",
				"batch.kubernetes.io/job-name": "once", "job-name": "once"}, "spec", "template", "metadata", "labels")(obj)
		}
		return obj
	}
	tests := []struct {
		name      string
		gvr       schema.GroupVersionResource
		desired   *unstructured.Unstructured
		live      *unstructured.Unstructured
		editLive  func(*unstructured.Unstructured)
		reactors  []func(*fake.FakeDynamicClient)
		wantVerbs []string
		// wantDrift lists the paths reported as repaired; nil: no write.
		wantDrift []string
		check     func(t *testing.T, sent *unstructured.Unstructured)
	}{{
		name:      "a key another writer added to a ConfigMap's data is removed, without a dry run",
		gvr:       configMapsGVR,
		desired:   configMap(t, map[string]any{"a": "1"}),
		live:      configMap(t, map[string]any{"a": "1", "b": "2"}),
		wantVerbs: []string{"get", "update"},
		wantDrift: []string{".data.b"},
		check: func(t *testing.T, sent *unstructured.Unstructured) {
			data, _, _ := unstructured.NestedStringMap(sent.Object, "data")
			assert.Equal(t, map[string]string{"a": "1"}, data)
		},
	}, {
		name:      "binaryData another writer added to a ConfigMap is removed",
		gvr:       configMapsGVR,
		desired:   configMap(t, map[string]any{"a": "1"}),
		live:      configMap(t, map[string]any{"a": "1"}),
		editLive:  setField(map[string]any{"blob": "AAE="}, "binaryData"),
		wantVerbs: []string{"get", "update"},
		wantDrift: []string{".binaryData"},
	}, {
		name: "the CA bundle the cluster injects into a ConfigMap that asks for it stays",
		gvr:  configMapsGVR,
		desired: func() *unstructured.Unstructured {
			obj := configMap(t, map[string]any{"a": "1"})
			obj.SetLabels(map[string]string{injectTrustedCABundleLabel: "true"})
			return obj
		}(),
		live: configMap(t, map[string]any{"a": "1", "ca-bundle.crt": "PEM"}),
		editLive: func(obj *unstructured.Unstructured) {
			obj.SetLabels(map[string]string{injectTrustedCABundleLabel: "true"})
		},
		wantVerbs: []string{"get"},
	}, {
		name:      "labels and annotations others add to a ConfigMap stay, with no request beyond the read",
		gvr:       configMapsGVR,
		desired:   configMap(t, map[string]any{"a": "1"}),
		live:      configMap(t, map[string]any{"a": "1"}),
		editLive:  func(obj *unstructured.Unstructured) { obj.SetLabels(map[string]string{"team": "x"}) },
		wantVerbs: []string{"get"},
	}, {
		name:      "an env var another writer added to a Deployment's container is removed",
		gvr:       deploymentsGVR,
		desired:   desiredDeployment(t),
		live:      servedDeployment(t, ownerA),
		editLive:  withEnv,
		wantVerbs: []string{"get", dryRun, "update"},
		wantDrift: []string{".spec.template.spec.containers[0].env"},
		check: func(t *testing.T, sent *unstructured.Unstructured) {
			containers, _, _ := unstructured.NestedSlice(sent.Object, "spec", "template", "spec", "containers")
			assert.NotContains(t, containers[0], "env")
		},
	}, {
		name:      "kubectl rollout restart's annotation on the pod template is removed",
		gvr:       deploymentsGVR,
		desired:   desiredDeployment(t),
		live:      servedDeployment(t, ownerA),
		editLive:  setField("2026-11-28T17:00:00Z", "spec", "template", "metadata", "annotations", "kubectl.kubernetes.io/restartedAt"),
		wantVerbs: []string{"get", dryRun, "update"},
		wantDrift: []string{".spec.template.metadata.annotations"},
	}, {
		name:      "a field the server defaults that another writer changed is restored",
		gvr:       deploymentsGVR,
		desired:   desiredDeployment(t),
		live:      servedDeployment(t, ownerA),
		editLive:  setField(int64(5), "spec", "revisionHistoryLimit"),
		wantVerbs: []string{"get", dryRun, "update"},
		wantDrift: []string{".spec.revisionHistoryLimit"},
	}, {
		name:      "a Deployment holding the manifest, the server's defaults and others' labels costs the dry run only",
		gvr:       deploymentsGVR,
		desired:   desiredDeployment(t),
		live:      servedDeployment(t, ownerA),
		editLive:  func(obj *unstructured.Unstructured) { obj.SetLabels(map[string]string{"app": "hello", "extra": "x"}) },
		wantVerbs: []string{"get", dryRun},
	}, {
		name:      "a dry run the server refuses leaves the fields the manifest sets compared: no write",
		gvr:       deploymentsGVR,
		desired:   desiredDeployment(t),
		live:      servedDeployment(t, ownerA),
		editLive:  withEnv,
		reactors:  []func(*fake.FakeDynamicClient){failOn("update", immutableSelector)},
		wantVerbs: []string{"get", dryRun},
	}, {
		name:      "a field another writer added to a custom resource's spec is removed",
		gvr:       widgetsGVR,
		desired:   widget(map[string]any{"size": int64(1)}),
		live:      widget(map[string]any{"size": int64(1), "color": "red"}),
		wantVerbs: []string{"get", dryRun, "update"},
		wantDrift: []string{".spec.color"},
	}, {
		name:      "the selector and pod-template labels the server generates for a Job stay: no write",
		gvr:       jobsGVR,
		desired:   job(false, false),
		live:      job(false, true),
		wantVerbs: []string{"get", dryRun},
	}, {
		name:      "a Job another writer changed gets its manifest back with the generated selector and labels, which the server requires",
		gvr:       jobsGVR,
		desired:   job(false, false),
		live:      job(false, true),
		editLive:  setField(int64(3), "spec", "parallelism"),
		wantVerbs: []string{"get", dryRun, "update"},
		wantDrift: []string{".spec.parallelism"},
		check: func(t *testing.T, sent *unstructured.Unstructured) {
			served := job(false, true)
			assert.Equal(t, served.Object["spec"].(map[string]any)["selector"], sent.Object["spec"].(map[string]any)["selector"])
			want, _, _ := unstructured.NestedStringMap(served.Object, "spec", "template", "metadata", "labels")
			labels, _, _ := unstructured.NestedStringMap(sent.Object, "spec", "template", "metadata", "labels")
			assert.Equal(t, want, labels)
		},
	}, {
		name:      "a pod-template label another writer added to a Job with manualSelector is removed",
		gvr:       jobsGVR,
		desired:   job(true, false),
		live:      job(true, false),
		editLive:  setField("x", "spec", "template", "metadata", "labels", "extra"),
		wantVerbs: []string{"get", dryRun, "update"},
		wantDrift: []string{".spec.template.metadata.labels.extra"},
	}, {
		name:      "a Service keeps what others add (its clusterIP)",
		gvr:       servicesGVR,
		desired:   service(false),
		live:      service(true),
		wantVerbs: []string{"get"},
	}, {
		name:      "a Service is held to its selector and type only, as OCM's agent holds it: a changed port stays",
		gvr:       servicesGVR,
		desired:   service(false),
		live:      service(true),
		editLive:  setField([]any{map[string]any{"port": int64(8080)}}, "spec", "ports"),
		wantVerbs: []string{"get"},
	}, {
		name:    "a Service whose selector another writer changed gets the whole manifest back",
		gvr:     servicesGVR,
		desired: service(false),
		live:    service(true),
		editLive: func(obj *unstructured.Unstructured) {
			setField("other", "spec", "selector", "app")(obj)
			setField([]any{}, "spec", "ports")(obj)
		},
		wantVerbs: []string{"get", "update"},
		wantDrift: []string{".spec.selector.app"},
		check: func(t *testing.T, sent *unstructured.Unstructured) {
			ports, _, _ := unstructured.NestedSlice(sent.Object, "spec", "ports")
			assert.Len(t, ports, 1)
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			live := tt.live.DeepCopy()
			live.SetOwnerReferences([]metav1.OwnerReference{ownerA})
			live.SetResourceVersion("42")
			if tt.editLive != nil {
				tt.editLive(live)
			}
			client := tableClient(live, tt.reactors)
			res, err := updateStrategy{}.Apply(context.Background(), client, Request{
				Resource: tt.gvr, Desired: tt.desired, Owner: ownerA,
				Spec: specOf(t, tt.desired, nil), Last: remembered(t, tt.desired, nil),
			})
			require.NoError(t, err)
			assert.Equal(t, tt.wantVerbs, verbs(client))
			if tt.wantDrift == nil {
				assert.Nil(t, res.Repaired)
				assert.True(t, res.Differences.InSync(), res.Differences.Describe("%[1]s"))
				return
			}
			require.NotNil(t, res.Repaired)
			assert.Equal(t, tt.wantDrift, res.Repaired.Paths())
			if tt.check != nil {
				tt.check(t, sentObject(t, client, "update"))
			}
		})
	}
}

// TestUpdateAsksNoDryRunOfAnObjectUnchangedSinceInSync: a workload found
// holding the desired state at its content version, and unchanged since,
// still holds it; only one changed since costs the dry run.
func TestUpdateAsksNoDryRunOfAnObjectUnchangedSinceInSync(t *testing.T) {
	withLabel := func(obj *unstructured.Unstructured) { obj.SetLabels(map[string]string{"app": "hello", "extra": "x"}) }
	withEnv := func(obj *unstructured.Unstructured) {
		containers, _, _ := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "containers")
		containers[0].(map[string]any)["env"] = []any{map[string]any{"name": "FOO", "value": "bar"}}
		require.NoError(t, unstructured.SetNestedSlice(obj.Object, containers, "spec", "template", "spec", "containers"))
	}
	tests := []struct {
		name string
		// editSinceInSync changes the object after it was found in sync;
		// nil: unchanged since.
		editSinceInSync func(*unstructured.Unstructured)
		unknown         bool // never found in sync
		wantVerbs       []string
		wantDrift       bool
	}{
		{name: "unchanged since it was found in sync: no dry run", wantVerbs: []string{"get"}},
		{name: "never found in sync: the dry run", unknown: true, wantVerbs: []string{"get", dryRun}},
		{name: "labelled by another writer since: the dry run", editSinceInSync: withLabel, wantVerbs: []string{"get", dryRun}},
		{name: "an env var added since: the dry run finds it", editSinceInSync: withEnv, wantVerbs: []string{"get", dryRun, "update"}, wantDrift: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			desired := desiredDeployment(t)
			live := servedDeployment(t, ownerA)
			live.SetOwnerReferences([]metav1.OwnerReference{ownerA})
			live.SetResourceVersion("42")
			req := Request{Resource: deploymentsGVR, Desired: desired, Owner: ownerA, Spec: specOf(t, desired, nil)}
			if !tt.unknown {
				req.InSyncAt = objectwatch.ContentVersion(live)
			}
			if tt.editSinceInSync != nil {
				tt.editSinceInSync(live)
				at := metav1.Now()
				live.SetManagedFields(append(live.GetManagedFields(), metav1.ManagedFieldsEntry{
					Manager: "kubectl-edit", Operation: metav1.ManagedFieldsOperationUpdate, Time: &at,
				}))
				live.SetResourceVersion("43")
			}
			client := newClient(live)
			res, err := updateStrategy{}.Apply(context.Background(), client, req)
			require.NoError(t, err)
			assert.Equal(t, tt.wantVerbs, verbs(client))
			assert.Equal(t, tt.wantDrift, res.Written)
		})
	}
}
