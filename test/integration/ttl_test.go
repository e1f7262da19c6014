package integration

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	logsapi "k8s.io/component-base/logs/api/v1"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/hub"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// runHub runs the hub in this process against s, the way tests call the same
// Run as the binary.
func runHub(t *testing.T, s *framework.APIServer) {
	t.Helper()
	o := hubOptions(s)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- hub.Run(ctx, o) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
}

// hubOptions are the options of a hub run in this process against s, alone
// (no leader election), its probes on any free port.
func hubOptions(s *framework.APIServer) *hub.Options {
	logsapi.ReapplyHandling = logsapi.ReapplyHandlingIgnoreUnchanged
	o := hub.NewOptions()
	o.Kubeconfig = s.KubeconfigPath
	o.DisableLeaderElection = true
	o.HealthProbeBindAddress, o.SecureBindAddress = "0", "0"
	return o
}

// createCompleteWork creates a work in ns and reports it Complete, the way
// the agent does once its completion rules are met.
func createCompleteWork(t *testing.T, s *framework.APIServer, ns, name string, del *workv1.DeleteOption) {
	t.Helper()
	ctx := t.Context()
	b := fixture.NewWork(ns, name).WithManifest(fixture.ConfigMap("default", name, nil))
	if del != nil {
		b = b.WithDeleteOption(*del)
	}
	works := s.Work.WorkV1().ManifestWorks(ns)
	w, err := works.Create(ctx, b.Build(), metav1.CreateOptions{})
	require.NoError(t, err)
	apimeta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
		Type: workv1.WorkComplete, Status: metav1.ConditionTrue, Reason: "Done", Message: "the job completed",
	})
	_, err = works.UpdateStatus(ctx, w, metav1.UpdateOptions{})
	require.NoError(t, err)
}

// The hub deletes a completed work once its ttlSecondsAfterFinished has
// passed, and leaves a completed work without a TTL alone.
func TestHubDeletesWorksAfterTheirTTL(t *testing.T) {
	s, ctx := setup(t)
	ns := "integration-ttl"
	require.NoError(t, s.EnsureNamespaces(ctx, ns))
	runHub(t, s)

	ttl := int64(1)
	createCompleteWork(t, s, ns, "no-ttl", nil)
	createCompleteWork(t, s, ns, "ttl", &workv1.DeleteOption{TTLSecondsAfterFinished: &ttl})

	works := s.Work.WorkV1().ManifestWorks(ns)
	framework.Eventually(t, convergeTimeout, func() error {
		if _, err := works.Get(ctx, "ttl", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("work with a TTL still there: %v", err)
		}
		return nil
	}, "work with a TTL deleted")
	_, err := works.Get(ctx, "no-ttl", metav1.GetOptions{})
	require.NoError(t, err, "the work without a TTL is kept")
	require.NoError(t, works.Delete(ctx, "no-ttl", metav1.DeleteOptions{}))
}
