package apply

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/fake"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// drifted is a Deployment another actor has taken over: other replicas, no
// owner reference of ours, no hash.
func drifted(t *testing.T) *unstructured.Unstructured {
	live := decode(t, deploymentAsServed)
	require.NoError(t, unstructured.SetNestedField(live.Object, int64(7), "spec", "replicas"))
	live.SetOwnerReferences([]metav1.OwnerReference{ownerB})
	return live
}

func TestCreateOnly(t *testing.T) {
	tests := []struct {
		name        string
		live        *unstructured.Unstructured
		knownAbsent bool
		reactors    []func(*fake.FakeDynamicClient)
		wantVerbs   []string
		wantWritten bool
		checkErr    func(t *testing.T, err error)
	}{
		{
			name:        "creates a missing object",
			wantVerbs:   []string{"get", "create"},
			wantWritten: true,
		},
		{
			name:        "known absent creates without a GET",
			knownAbsent: true,
			wantVerbs:   []string{"create"},
			wantWritten: true,
		},
		{
			name:      "never updates an existing object, whatever its content",
			live:      drifted(t),
			wantVerbs: []string{"get"},
		},
		{
			name:        "known absent but present reads it and still does not update",
			live:        drifted(t),
			knownAbsent: true,
			wantVerbs:   []string{"create", "get"},
		},
		{
			name:      "a forbidden create is Failed with the server's message",
			reactors:  []func(*fake.FakeDynamicClient){failOn("create", forbiddenDeployments)},
			wantVerbs: []string{"get", "create"},
			checkErr: func(t *testing.T, err error) {
				requireApplyError(t, err, workv1.ManifestAppliedReasonFailed, forbiddenDeployments)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := tableClient(tt.live, tt.reactors)

			res, err := createOnlyStrategy{}.Apply(context.Background(), client, Request{
				Resource: deploymentsGVR, Desired: desiredDeployment(t), Owner: ownerA, KnownAbsent: tt.knownAbsent,
			})

			assert.Equal(t, tt.wantVerbs, verbs(client))
			if tt.checkErr != nil {
				tt.checkErr(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantWritten, res.Written)
			obj := stored(t, client, deploymentsGVR, "default", "hello")
			assert.Equal(t, res.Object.GetOwnerReferences(), obj.GetOwnerReferences())
			if tt.live != nil {
				assert.Equal(t, tt.live.Object, obj.Object, "the existing object is untouched")
				return
			}
			assert.Equal(t, []metav1.OwnerReference{ownerA}, obj.GetOwnerReferences())
			assert.Empty(t, obj.GetAnnotations(), "the agent keeps no bookkeeping on the object")
		})
	}
}
