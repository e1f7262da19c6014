package appliedwork

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNames(t *testing.T) {
	// sha256("https://hub:6443"), computed independently with sha256sum.
	hash := HubHash("https://hub:6443")
	assert.Len(t, hash, 64)
	assert.Equal(t, hash, HubHash("https://hub:6443"))
	assert.NotEqual(t, hash, HubHash("https://other:6443"))

	name := Name(hash, "web")
	got, ok := WorkName(hash, name)
	assert.True(t, ok)
	assert.Equal(t, "web", got)

	_, ok = WorkName(HubHash("https://other:6443"), name)
	assert.False(t, ok, "an AppliedManifestWork of another hub")
	_, ok = WorkName(hash, hash+"-")
	assert.False(t, ok, "no work name")
}

func TestWorkKey(t *testing.T) {
	hash := HubHash("https://hub:6443")
	key, ok := WorkKey("cluster1", hash, Name(hash, "web"))
	assert.True(t, ok)
	assert.Equal(t, "cluster1/web", key)
	_, ok = WorkKey("cluster1", hash, "otherhub-web")
	assert.False(t, ok)
}
