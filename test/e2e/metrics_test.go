package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/controllers/availability"
	"github.com/manifestwork/work/pkg/agent/controllers/finalize"
	"github.com/manifestwork/work/pkg/agent/controllers/manifestwork"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/pkg/hub/controllers/ttl"
	"github.com/manifestwork/work/test/fixture"
	"github.com/manifestwork/work/test/framework"
)

// scrape reads the Prometheus text served at /metrics on a process's health
// address: each sample line's value by its name and labels, as printed.
func scrape(t *testing.T, p *framework.Process) map[string]float64 {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get("http://" + p.HealthAddr + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	samples := map[string]float64{}
	scanner := bufio.NewScanner(resp.Body)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	for scanner.Scan() {
		line := scanner.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		value, err := strconv.ParseFloat(line[i+1:], 64)
		require.NoError(t, err, line)
		samples[line[:i]] = value
	}
	require.NoError(t, scanner.Err())
	_, _ = io.Copy(io.Discard, resp.Body)
	return samples
}

// waitMetric waits until a process's sample is above zero.
func waitMetric(t *testing.T, p *framework.Process, sample string) {
	t.Helper()
	framework.Eventually(t, convergeTimeout, func() error {
		if v := scrape(t, p)[sample]; v <= 0 {
			return fmt.Errorf("%s is %v", sample, v)
		}
		return nil
	}, "%s of %s above zero", sample, p.Name)
}

// workEvents lists the hub's Events of a reason on a work of a cluster.
func workEvents(ctx context.Context, cluster, work, reason string) ([]corev1.Event, error) {
	list, err := env.Hub.Kube.CoreV1().Events(cluster).List(ctx, metav1.ListOptions{
		FieldSelector: "involvedObject.kind=ManifestWork,involvedObject.name=" + work + ",reason=" + reason,
	})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// waitEvent waits until the hub has an Event of the type and reason on a
// work of a cluster whose message contains text, and returns it.
func waitEvent(t *testing.T, cluster, work, eventType, reason, text string) corev1.Event {
	t.Helper()
	var found corev1.Event
	framework.Eventually(t, convergeTimeout, func() error {
		events, err := workEvents(t.Context(), cluster, work, reason)
		if err != nil {
			return err
		}
		for _, ev := range events {
			if ev.Type == eventType && strings.Contains(ev.Message, text) {
				found = ev
				return nil
			}
		}
		return fmt.Errorf("%d %s events, none of type %s with %q", len(events), reason, eventType, text)
	}, "%s event %s on work %s/%s", eventType, reason, cluster, work)
	return found
}

// The agent and the hub serve their metrics on the health address, and the
// agent records Events on the hub for a failing manifest and a deletion.
func TestMetricsAndEvents(t *testing.T) {
	e := setup(t)
	agent := startAgent(t, "cluster2")
	hub, err := e.StartHub("--disable-leader-election")
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = hub.Stop(convergeTimeout) })

	ns := "e2e-metrics"
	ttlSeconds := int64(3600) // for the hub's TTL controller to look at it; it never finishes
	createWork(t, fixture.NewWork("cluster2", "observed").
		WithManifest(fixture.Namespace(ns), fixture.ConfigMap(ns, "cm", map[string]string{"a": "b"})).
		WithDeleteOption(workv1.DeleteOption{PropagationPolicy: workv1.DeletePropagationPolicyTypeForeground, TTLSecondsAfterFinished: &ttlSeconds}).
		Build())
	waitWorkCondition(t, "cluster2", "observed", workv1.WorkApplied, metav1.ConditionTrue)

	waitMetric(t, agent, `work_controller_reconciles_total{controller="`+manifestwork.ControllerName+`",result="success"}`)
	waitMetric(t, agent, `work_manifest_applies_total{result="written",strategy="Update"}`)
	waitMetric(t, agent, `work_status_patches_total{controller="`+manifestwork.ControllerName+`",result="sent"}`)
	waitMetric(t, agent, `work_finalizer_patches_total{action="add",controller="`+manifestwork.ControllerName+`",result="sent"}`)
	waitMetric(t, agent, `work_status_patches_total{controller="`+availability.ControllerName+`",result="skipped"}`)
	waitMetric(t, agent, `workqueue_adds_total{name="`+manifestwork.ControllerName+`"}`)
	waitMetric(t, hub, `work_controller_reconciles_total{controller="`+ttl.ControllerName+`",result="success"}`)
	waitMetric(t, hub, `workqueue_adds_total{name="`+ttl.ControllerName+`"}`)

	createWork(t, fixture.NewWork("cluster2", "unnamed").
		WithRawManifest(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "`+ns+`"}}`).Build())
	ev := waitEvent(t, "cluster2", "unnamed", corev1.EventTypeWarning, manifestwork.EventManifestApplyFailed, "resource name may not be empty")
	require.Equal(t, "work-agent", ev.Source.Component)

	require.NoError(t, e.Hub.Work.WorkV1().ManifestWorks("cluster2").Delete(t.Context(), "observed", metav1.DeleteOptions{}))
	waitEvent(t, "cluster2", "observed", corev1.EventTypeNormal, finalize.EventDeletionStarted, "")
	waitEvent(t, "cluster2", "observed", corev1.EventTypeNormal, finalize.EventResourcesCleanedUp, "")
	waitGone(t, "work observed", func(ctx context.Context) error {
		_, err := getWork(ctx, "cluster2", "observed")
		return err
	})
	// The Deleting condition and the released finalizer are counted apart.
	waitMetric(t, agent, `work_status_patches_total{controller="`+finalize.ControllerName+`",result="sent"}`)
	waitMetric(t, agent, `work_finalizer_patches_total{action="remove",controller="`+finalize.ControllerName+`",result="sent"}`)
}
