package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func TestObjectHash(t *testing.T) {
	// The canonical JSON is compact with sorted keys; pinning it keeps the
	// annotation stable across releases, or every object would be rewritten
	// after an upgrade.
	canonical := `{"apiVersion":"v1","data":{"a":"1"},"kind":"ConfigMap","metadata":{"name":"settings","namespace":"default"}}`
	sum := sha256.Sum256([]byte(canonical))
	want := hex.EncodeToString(sum[:])

	tests := []struct {
		name     string
		manifest string
	}{
		{name: "canonical", manifest: canonical},
		{name: "other key order and whitespace", manifest: `{
			"metadata": {"namespace": "default", "name": "settings"},
			"kind": "ConfigMap", "data": {"a": "1"}, "apiVersion": "v1"}`},
		{name: "the agent's own annotations are left out", manifest: `{"apiVersion":"v1","data":{"a":"1"},"kind":"ConfigMap",
			"metadata":{"name":"settings","namespace":"default","annotations":{
				"open-cluster-management.io/object-hash":"x","open-cluster-management.io/config-spec-hash":"y"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, want, mustObjectHash(t, decode(t, tt.manifest)))
		})
	}

	t.Run("content changes the hash", func(t *testing.T) {
		other := mustObjectHash(t, decode(t, `{"apiVersion":"v1","data":{"a":"2"},"kind":"ConfigMap","metadata":{"name":"settings","namespace":"default"}}`))
		assert.NotEqual(t, want, other)
	})

	t.Run("3 and 3.0 hash alike", func(t *testing.T) {
		assert.Equal(t,
			mustObjectHash(t, decode(t, `{"spec":{"replicas":3}}`)),
			mustObjectHash(t, decode(t, `{"spec":{"replicas":3.0}}`)))
	})
}

func TestConfigSpecHash(t *testing.T) {
	manifest := configMap(t, map[string]any{"a": "1"})
	hash := func(config *workv1.ManifestConfigOption) string {
		t.Helper()
		h, err := ConfigSpecHash(manifest, config)
		require.NoError(t, err)
		return h
	}
	plain := hash(ssaConfig(nil))
	assert.Equal(t, plain, hash(ssaConfig(nil)), "stable")
	assert.NotEqual(t, plain, hash(ssaConfig(&workv1.ServerSideApplyConfig{Force: true})), "force is part of it")
	assert.NotEqual(t, plain, hash(ignoring(workv1.IgnoreFieldsConditionOnSpokePresent, workv1.IgnoreField{JSONPaths: []string{".data"}})), "ignoreFields are part of it")
	assert.NotEqual(t, plain, mustObjectHash(t, manifest), "it is not the object hash")

	withFeedback := ssaConfig(nil)
	withFeedback.FeedbackScrapeType = workv1.FeedbackWatchType
	assert.Equal(t, plain, hash(withFeedback), "only the updateStrategy of the config counts")

	changed, err := ConfigSpecHash(configMap(t, map[string]any{"a": "2"}), ssaConfig(nil))
	require.NoError(t, err)
	assert.NotEqual(t, plain, changed, "the manifest is part of it")
}
