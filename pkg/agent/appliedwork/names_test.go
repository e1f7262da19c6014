package appliedwork

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
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

func TestQueueKeys(t *testing.T) {
	hash := HubHash("https://hub:6443")
	work := &workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Namespace: "cluster1", Name: "web"}}
	assert.Equal(t, []string{"cluster1/web"}, WorkQueueKeys(klog.Background())(work))

	ofApplied := WorkOfAppliedQueueKeys(klog.Background(), "cluster1", hash)
	assert.Equal(t, []string{"cluster1/web"}, ofApplied(&workv1.AppliedManifestWork{ObjectMeta: metav1.ObjectMeta{Name: Name(hash, "web")}}))
	assert.Empty(t, ofApplied(&workv1.AppliedManifestWork{ObjectMeta: metav1.ObjectMeta{Name: "otherhub-web"}}), "another hub's")
}
