package queuekeys

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func TestQueueKeys(t *testing.T) {
	hash := appliedwork.HubHash("https://hub:6443")
	work := &workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{Namespace: "cluster1", Name: "web"}}
	assert.Equal(t, []string{"cluster1/web"}, Work(klog.Background())(work))

	agent := appliedwork.Agent{ClusterName: "cluster1", HubHash: hash}
	ofApplied := WorkOfApplied(klog.Background(), agent)
	assert.Equal(t, []string{"cluster1/web"}, ofApplied(&workv1.AppliedManifestWork{ObjectMeta: metav1.ObjectMeta{Name: appliedwork.Name(hash, "web")}}))
	assert.Empty(t, ofApplied(&workv1.AppliedManifestWork{ObjectMeta: metav1.ObjectMeta{Name: "otherhub-web"}}), "another hub's")

	assert.Equal(t, []string{appliedwork.Name(hash, "web")}, AppliedOfWork(klog.Background(), agent)(work))
}
