package e2e

import (
	"context"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// Changes and deletions made on the hub while the agent cannot reach it are
// caught up once the connection is back.
func TestHubUnreachableThenCaughtUp(t *testing.T) {
	e := setup(t)
	ctx := t.Context()
	proxy, kubeconfig := hubBehindProxy(t)
	startAgent(t, "cluster2", "--hub-kubeconfig", kubeconfig)

	ns := "e2e-disconnect"
	cms := e.Cluster("cluster2").Kube.CoreV1().ConfigMaps(ns)
	createWork(t, fixture.NewWork("cluster2", "changed").
		WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "a", map[string]string{"v": "1"})).Build())
	createWork(t, fixture.NewWork("cluster2", "deleted").WithManifest(fixture.ConfigMap(ns, "b", nil)).Build())
	waitWorkCondition(t, "cluster2", "changed", workv1.WorkApplied, metav1.ConditionTrue)
	waitWorkCondition(t, "cluster2", "deleted", workv1.WorkApplied, metav1.ConditionTrue)

	proxy.Pause()
	updateWork(t, "cluster2", "changed", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests[1] = manifestOf(t, fixture.ConfigMap(ns, "a", map[string]string{"v": "2"}))
	})
	require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks("cluster2").Delete(ctx, "deleted", metav1.DeleteOptions{}))
	a, err := cms.Get(ctx, "a", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "1", a.Data["v"], "the agent cannot have seen the change yet")
	proxy.Resume()

	waitConfigMapData(t, "cluster2", ns, "a", "v", "2")
	waitGone(t, "the work deleted meanwhile", func(ctx context.Context) error {
		_, err := getWork(ctx, "cluster2", "deleted")
		return err
	})
	waitGone(t, "its ConfigMap", func(ctx context.Context) error {
		_, err := cms.Get(ctx, "b", metav1.GetOptions{})
		return err
	})
}

// hubBehindProxy returns a proxy to the hub and the hub kubeconfig of
// cluster2's agent through it.
func hubBehindProxy(t *testing.T) (*framework.Proxy, string) {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(env.Cluster("cluster2").AgentHubKubeconfig)
	require.NoError(t, err)
	var proxy *framework.Proxy
	for _, c := range cfg.Clusters {
		u, err := url.Parse(c.Server)
		require.NoError(t, err)
		proxy, err = framework.StartProxy(u.Host)
		require.NoError(t, err)
		t.Cleanup(proxy.Close)
		u.Host = proxy.Addr()
		c.Server = u.String()
	}
	require.NotNil(t, proxy)
	path := filepath.Join(t.TempDir(), "hub-proxy.kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(*cfg, path))
	return proxy, path
}
