package apply

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/fake"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func TestReadOnly(t *testing.T) {
	// Only metadata is required in a ReadOnly manifest.
	manifest := `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "hello", "namespace": "default"}}`
	tests := []struct {
		name        string
		live        *unstructured.Unstructured
		knownAbsent bool
		reactors    []func(*fake.FakeDynamicClient)
		wantVerbs   []string
		checkErr    func(t *testing.T, err error)
	}{
		{
			name:      "reads an existing object and never writes, even when it differs",
			live:      drifted(t),
			wantVerbs: []string{"get"},
		},
		{
			name:      "a missing object is Failed and still NotFound",
			wantVerbs: []string{"get"},
			checkErr:  requireReadOnlyMissing,
		},
		{
			name:        "known absent needs no GET",
			knownAbsent: true,
			wantVerbs:   nil,
			checkErr:    requireReadOnlyMissing,
		},
		{
			name:      "a forbidden read is Failed with the server's message",
			reactors:  []func(*fake.FakeDynamicClient){failOn("get", forbiddenDeployments)},
			wantVerbs: []string{"get"},
			checkErr: func(t *testing.T, err error) {
				requireApplyError(t, err, workv1.ManifestAppliedReasonFailed, forbiddenDeployments)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := tableClient(tt.live, tt.reactors)

			res, err := readOnlyStrategy{}.Apply(context.Background(), client, Request{
				Resource: deploymentsGVR, Desired: decode(t, manifest), Owner: ownerA, KnownAbsent: tt.knownAbsent,
			})

			assert.Equal(t, tt.wantVerbs, verbs(client))
			assert.False(t, res.Written)
			if tt.checkErr != nil {
				tt.checkErr(t, err)
				assert.Nil(t, res.Object)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.live.Object, res.Object.Object)
		})
	}
}

func requireReadOnlyMissing(t *testing.T, err error) {
	t.Helper()
	var applyErr *Error
	require.ErrorAs(t, err, &applyErr)
	assert.Equal(t, workv1.ManifestAppliedReasonFailed, applyErr.Reason)
	assert.Equal(t, "Deployment default/hello does not exist (ReadOnly)", applyErr.Message)
	assert.True(t, apierrors.IsNotFound(err))
}
