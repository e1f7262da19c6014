package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/manifestwork/work/pkg/agent/appliedwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// When the agent's hub kubeconfig names the hub by another URL, its works get
// AppliedManifestWorks under the new hub hash; the objects are adopted, not
// deleted and recreated, and the old records are evicted after the grace
// period without touching objects the new ones own.
func TestHubSwitchAdoptsResources(t *testing.T) {
	e := setup(t)
	ctx := t.Context()
	ns := "e2e-hubswitch"
	grace := "--appliedmanifestwork-eviction-grace-period=5s"
	first, err := e.StartAgent("cluster2", "--disable-leader-election", grace)
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = first.Stop(convergeTimeout) })
	createWork(t, fixture.NewWork("cluster2", "switch").
		WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "kept", map[string]string{"k": "v"})).Build())
	waitWorkCondition(t, "cluster2", "switch", workv1.WorkApplied, metav1.ConditionTrue)
	cms := e.Cluster("cluster2").Kube.CoreV1().ConfigMaps(ns)
	before, err := cms.Get(ctx, "kept", metav1.GetOptions{})
	require.NoError(t, err)
	_, err = first.Stop(convergeTimeout)
	require.NoError(t, err)

	otherURL := hubKubeconfigByLocalhost(t)
	second, err := e.StartAgent("cluster2", "--disable-leader-election", grace, "--hub-kubeconfig", otherURL.path)
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = second.Stop(convergeTimeout) })

	oldName := appliedwork.Name(appliedwork.HubHash(e.Hub.Config.Host), "switch")
	newName := appliedwork.Name(appliedwork.HubHash(otherURL.host), "switch")
	applied := e.Cluster("cluster2").Work.WorkV1().AppliedManifestWorks()
	waitGone(t, "the old AppliedManifestWork", func(ctx2 context.Context) error {
		_, err := applied.Get(ctx2, oldName, metav1.GetOptions{})
		return err
	})
	framework.Eventually(t, convergeTimeout, func() error {
		cm, err := cms.Get(ctx, "kept", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if len(cm.OwnerReferences) != 1 || cm.OwnerReferences[0].Name != newName {
			return fmt.Errorf("owners %v, want only %s", cm.OwnerReferences, newName)
		}
		return nil
	}, "the object is owned by the new record only")
	after, err := cms.Get(ctx, "kept", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, before.UID, after.UID, "adopted, not recreated")
	assert.Nil(t, after.DeletionTimestamp)
}

type kubeconfigFile struct{ path, host string }

// hubKubeconfigByLocalhost is the hub kubeconfig of cluster2's agent with the
// server named localhost instead of 127.0.0.1: the same hub under another URL.
func hubKubeconfigByLocalhost(t *testing.T) kubeconfigFile {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(env.Cluster("cluster2").AgentHubKubeconfig)
	require.NoError(t, err)
	var host string
	for _, c := range cfg.Clusters {
		require.Contains(t, c.Server, "127.0.0.1")
		c.Server = strings.Replace(c.Server, "127.0.0.1", "localhost", 1)
		host = c.Server
	}
	path := filepath.Join(t.TempDir(), "hub-localhost.kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(*cfg, path))
	return kubeconfigFile{path: path, host: host}
}
