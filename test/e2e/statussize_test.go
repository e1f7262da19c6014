package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/manifestwork/work/pkg/agent/workwriter"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// A work whose status feedback would not fit in the agent's
// --max-status-size gets a trimmed status, StatusTrimmed=True naming what
// was cut, and stays Applied; once its feedback is small again, the status
// is exact and StatusTrimmed turns False.
//
// It runs on cluster2 with an agent of its own, started with a small limit.
func TestStatusTrimmedToFit(t *testing.T) {
	setup(t)
	const limit = 8 * 1024
	startAgent(t, "cluster2", "--status-sync-interval=2s",
		fmt.Sprintf("--max-status-size=%d", limit), "--feature-gates=RawFeedbackJsonString=true")
	ns := "e2e-statussize"

	// Twelve JsonRaw values of the ConfigMap's data, about 900 bytes each.
	config := fixture.Config("", "configmaps", ns, "big")
	var paths []workv1.JsonPath
	for i := range 12 {
		paths = append(paths, workv1.JsonPath{Name: fmt.Sprintf("data%d", i), Path: ".data"})
	}
	config.FeedbackRules = []workv1.FeedbackRule{{Type: workv1.JSONPathsType, JsonPaths: paths}}
	big := func(data string) *corev1.ConfigMap {
		return fixture.ConfigMap(ns, "big", map[string]string{"data": data})
	}
	createWork(t, fixture.NewWork("cluster2", "statussize").
		WithManifest(fixture.Namespace(ns), big(strings.Repeat("x", 900))).WithConfig(config).Build())

	w := waitWorkCondition(t, "cluster2", "statussize", workwriter.TrimmedConditionType, metav1.ConditionTrue)
	trimmed := apimeta.FindStatusCondition(w.Status.Conditions, workwriter.TrimmedConditionType)
	assert.Equal(t, workwriter.ReasonTooLarge, trimmed.Reason)
	assert.Contains(t, trimmed.Message, "JsonRaw feedback values and 0 other feedback values removed")
	status, err := json.Marshal(w.Status)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(status), limit, "the status fits")
	t.Logf("Trimmed status: %d bytes; %s", len(status), trimmed.Message)
	require.Len(t, w.Status.ResourceStatus.Manifests, 2, "resourceMeta is never cut")
	var kept, cut int
	for _, v := range w.Status.ResourceStatus.Manifests[1].StatusFeedbacks.Values {
		if v.Value.JsonRaw == nil {
			cut++
		} else {
			kept++
		}
	}
	assert.Positive(t, cut, "values cut")
	assert.Positive(t, kept, "only as many as needed")
	assert.Equal(t, 12, cut+kept, "a cut value stays as a stub")
	waitWorkCondition(t, "cluster2", "statussize", workv1.WorkApplied, metav1.ConditionTrue)

	// The work stays writable: a smaller feedback makes the status exact.
	updateWork(t, "cluster2", "statussize", func(w *workv1.ManifestWork) {
		w.Spec.Workload.Manifests[1] = manifestOf(t, big("small"))
	})
	w = waitWorkCondition(t, "cluster2", "statussize", workwriter.TrimmedConditionType, metav1.ConditionFalse)
	waitWork(t, convergeTimeout, "cluster2", "statussize", func(w *workv1.ManifestWork) error {
		for i := range 12 {
			v := feedbackValue(w, 1, fmt.Sprintf("data%d", i))
			if v == nil || v.JsonRaw == nil || *v.JsonRaw != `{"data":"small"}` {
				return fmt.Errorf("feedback data%d is %v", i, v)
			}
		}
		return nil
	}, "every feedback value exact again")
	assert.Equal(t, metav1.ConditionTrue, apimeta.FindStatusCondition(w.Status.Conditions, workv1.WorkApplied).Status)
}
