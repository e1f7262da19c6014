package integration

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	logsapi "k8s.io/component-base/logs/api/v1"

	"github.com/manifestwork/work/pkg/agent"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

const convergeTimeout = 30 * time.Second

// runAgent runs the agent in this process, with one API server as both hub and
// managed cluster, the way tests call the same Run as the binary; options
// change its options. stop stops it before the test ends; it is stopped at
// the end otherwise.
func runAgent(t *testing.T, s *framework.APIServer, options ...func(*agent.Options)) (stop func()) {
	t.Helper()
	logsapi.ReapplyHandling = logsapi.ReapplyHandlingIgnoreUnchanged
	o := agent.NewOptions()
	o.ClusterName = fixture.Cluster
	o.HubKubeconfig = s.KubeconfigPath
	o.Kubeconfig = s.KubeconfigPath
	o.DisableLeaderElection = true
	o.HealthProbeBindAddress, o.SecureBindAddress = "0", "0"
	for _, option := range options {
		option(o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- agent.Run(ctx, o) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			require.NoError(t, <-done)
		})
	}
	t.Cleanup(stop)
	return stop
}

// The agent applies a work's manifests, reports them, and removes them when
// the work is deleted.
func TestAgentAppliesAndCleansUp(t *testing.T) {
	s, ctx := setup(t)
	runAgent(t, s)
	// No Namespace in the work: envtest runs no namespace controller, so a
	// deleted namespace would stay Terminating.
	ns := "integration-agent"
	require.NoError(t, s.EnsureNamespaces(ctx, ns))
	works := s.Work.WorkV1().ManifestWorks(fixture.Cluster)
	_, err := works.Create(ctx, fixture.NewWork(fixture.Cluster, "agent").
		WithManifest(fixture.ConfigMap(ns, "a", map[string]string{"k": "v"}), fixture.ConfigMap(ns, "b", nil)).
		Build(), metav1.CreateOptions{})
	require.NoError(t, err)

	framework.Eventually(t, convergeTimeout, func() error {
		w, err := works.Get(ctx, "agent", metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, condType := range []string{workv1.WorkApplied, workv1.WorkAvailable} {
			if !apimeta.IsStatusConditionTrue(w.Status.Conditions, condType) {
				return fmt.Errorf("%s is not True: %v", condType, w.Status.Conditions)
			}
		}
		return nil
	}, "work Applied and Available")
	cm, err := s.Kube.CoreV1().ConfigMaps(ns).Get(ctx, "a", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "v", cm.Data["k"])

	require.NoError(t, works.Delete(ctx, "agent", metav1.DeleteOptions{}))
	framework.Eventually(t, convergeTimeout, func() error {
		if _, err := works.Get(ctx, "agent", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("work still there: %v", err)
		}
		// envtest runs no garbage collector: what is gone was deleted by the agent.
		if _, err := s.Kube.CoreV1().ConfigMaps(ns).Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("configmap still there: %v", err)
		}
		return nil
	}, "work and its objects deleted")
}
