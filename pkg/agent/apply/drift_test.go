package apply

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	clienttesting "k8s.io/client-go/testing"
)

// What each strategy reports of a live object that differs from the
// manifest: drift it repaired, or differences it leaves.
func TestDriftAndDifferences(t *testing.T) {
	desired := configMap(t, map[string]any{"key": "ours"})
	older := configMap(t, map[string]any{"key": "old"})
	edited := owned(configMap(t, map[string]any{"key": "theirs"}), ownerA)
	tests := []struct {
		name      string
		strategy  Strategy
		last      *LastApplied
		wantDrift string // the repaired drift, "" for none
		wantDiffs []string
	}{
		{name: "Update repairs drift of an unchanged work", strategy: updateStrategy{},
			last: remembered(t, desired, nil), wantDrift: `.data.key: found (masked), restored (masked)`, wantDiffs: []string{}},
		{name: "Update of a changed work is no drift", strategy: updateStrategy{},
			last: remembered(t, older, nil), wantDiffs: []string{}},
		{name: "Update without a record is no drift", strategy: updateStrategy{}, wantDiffs: []string{}},
		{name: "CreateOnly reports what it leaves", strategy: createOnlyStrategy{},
			last: remembered(t, desired, nil), wantDiffs: []string{".data.key"}},
		{name: "ReadOnly reports what it finds", strategy: readOnlyStrategy{},
			last: remembered(t, desired, nil), wantDiffs: []string{".data.key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := newClient(edited)
			res, err := tt.strategy.Apply(context.Background(), client, Request{
				Resource: configMapsGVR, Desired: desired, Owner: ownerA, Spec: specOf(t, desired, nil), Last: tt.last,
			})
			require.NoError(t, err)
			require.NotNil(t, res.Differences)
			assert.Equal(t, tt.wantDiffs, res.Differences.Paths())
			if tt.wantDrift == "" {
				assert.Nil(t, res.Repaired)
				return
			}
			require.NotNil(t, res.Repaired)
			assert.Equal(t, tt.wantDrift, res.Repaired.Describe("%[1]s: found %[3]s, restored %[2]s"))
		})
	}
}

// Every write of the agent names its field manager, which drift reports
// leave out; unnamed, the API server would derive it from the client's user
// agent.
func TestWritesNameTheAgentsFieldManager(t *testing.T) {
	desired := configMap(t, map[string]any{"key": "ours"})
	tests := []struct {
		name      string
		strategy  Strategy
		live      []*unstructured.Unstructured
		wantVerbs []string
	}{
		{name: "create", strategy: updateStrategy{}, wantVerbs: []string{"get", "create"}},
		{name: "update", strategy: updateStrategy{}, live: []*unstructured.Unstructured{configMap(t, map[string]any{"key": "theirs"})},
			wantVerbs: []string{"get", "update"}},
		{name: "apply and owner patch", strategy: serverSideApplyStrategy{}, wantVerbs: []string{"get", "patch", "patch"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := newClient(tt.live...)
			recordApplies(client)
			_, err := tt.strategy.Apply(context.Background(), client, Request{
				Resource: configMapsGVR, Desired: desired, Owner: ownerA, Spec: specOf(t, desired, nil),
			})
			require.NoError(t, err)
			require.Equal(t, tt.wantVerbs, verbs(client))
			for _, action := range client.Actions() {
				if action.GetVerb() == "get" {
					continue
				}
				var manager string
				switch a := action.(type) {
				case clienttesting.CreateActionImpl:
					manager = a.CreateOptions.FieldManager
				case clienttesting.UpdateActionImpl:
					manager = a.UpdateOptions.FieldManager
				case clienttesting.PatchActionImpl:
					manager = a.PatchOptions.FieldManager
				}
				assert.Equal(t, DefaultFieldManager, manager, "%s %T", action.GetVerb(), action)
			}
		})
	}
}
