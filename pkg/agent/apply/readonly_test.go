package apply

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/fake"
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
		wantUnread  error // Result.Unread
	}{
		{
			name:      "reads an existing object and never writes, even when it differs",
			live:      drifted(t),
			wantVerbs: []string{"get"},
		},
		{
			name:      "a missing object is applied, as in OCM, without an object",
			wantVerbs: []string{"get"},
		},
		{
			name:        "known absent needs no GET",
			knownAbsent: true,
			wantVerbs:   nil,
		},
		{
			name:       "a forbidden read is applied all the same, as in OCM, unread, with the server's message",
			reactors:   []func(*fake.FakeDynamicClient){failOn("get", forbiddenDeployments)},
			wantVerbs:  []string{"get"},
			wantUnread: forbiddenDeployments,
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
			require.NoError(t, err, "ReadOnly never fails to apply")
			if tt.wantUnread != nil {
				assert.ErrorIs(t, res.Unread, tt.wantUnread)
				assert.Nil(t, res.Object)
				assert.Nil(t, res.Differences, "nothing compared")
				return
			}
			assert.NoError(t, res.Unread)
			if tt.live == nil {
				assert.Nil(t, res.Object)
				return
			}
			assert.Equal(t, tt.live.Object, res.Object.Object)
		})
	}
}
