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
			wantVerbs:   []string{"create", "get"},
		},
		{
			name:      "no write when live is the manifest plus defaults and foreign metadata",
			live:      servedDeployment(t, ownerB, ownerA),
			owner:     ownerA,
			last:      remembered(t, desiredDeployment(t), nil),
			wantVerbs: []string{"get"},
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
			wantVerbs: []string{"get"},
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
