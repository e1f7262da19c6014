package statusfeedback

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	metadatafake "k8s.io/client-go/metadata/fake"
	"k8s.io/client-go/tools/cache"

	"github.com/manifestwork/work/pkg/agent/controllers/availability"
	"github.com/manifestwork/work/pkg/agent/objectwatch"
	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	worklisters "github.com/manifestwork/work/pkg/client/listers/work/v1"
	ct "github.com/manifestwork/work/pkg/controllertest"
	"github.com/manifestwork/work/test/fixture"
)

// stubObjects is the agent's watch cache of applied objects, synced: the
// objects it holds exist, with their status.
type stubObjects map[objectwatch.ObjectKey]*unstructured.Unstructured

func (s stubObjects) Get(gvr schema.GroupVersionResource, namespace, name string) (*metav1.PartialObjectMetadata, bool, error) {
	obj := s[objectwatch.ObjectKey{Resource: gvr, Namespace: namespace, Name: name}]
	if obj == nil {
		return nil, true, nil
	}
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}, true, nil
}

func (s stubObjects) GetObject(gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, bool, error) {
	return s[objectwatch.ObjectKey{Resource: gvr, Namespace: namespace, Name: name}], true, nil
}

func (s stubObjects) DeletedSince(schema.GroupVersionResource, string, string, time.Time) bool {
	return false
}

// readyDeployment is the work's Deployment, rolled out.
func readyDeployment() *unstructured.Unstructured {
	obj := liveDeployment(2)
	obj.Object["metadata"].(map[string]any)["generation"] = int64(1)
	status := obj.Object["status"].(map[string]any)
	status["observedGeneration"], status["updatedReplicas"] = int64(1), int64(2)
	status["conditions"] = []any{map[string]any{"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}}
	return obj
}

// withAvailability gives the env's controller the availability assessment,
// over the given cached objects.
func (e *env) withAvailability(objects stubObjects) {
	metadata := metadatafake.NewSimpleMetadataClient(metadatafake.NewTestScheme())
	e.c.Availability = availability.NewAssessor(availability.AssessorDeps{Objects: objects, Metadata: metadata})
}

// A work with rules has its availability and health written by this
// controller, with its feedback, in one patch: a Deployment that becomes
// ready costs one write of its ReadyReplicas and its Healthy. A missing
// object is looked at again soon, as the availability controller does; a
// work without rules is that controller's.
func TestReconcileWritesAvailabilityWithFeedback(t *testing.T) {
	withRules := feedbackConfig(workv1.FeedbackRule{Type: workv1.WellKnownStatusType})
	tests := map[string]struct {
		configs       []workv1.ManifestConfigOption
		cached        stubObjects
		live          []runtime.Object
		wantWrites    int
		wantAvailable metav1.ConditionStatus // of the manifest; "" none
		wantHealthy   metav1.ConditionStatus // of the work; "" none
		wantReady     *int64                 // feedback value
		wantRecheck   time.Duration          // 0: only the safety net or the poll
	}{
		"ready Deployment: values and health in one write": {
			configs: []workv1.ManifestConfigOption{withRules}, cached: stubObjects{web: readyDeployment()},
			live: []runtime.Object{readyDeployment()}, wantWrites: 1,
			wantAvailable: metav1.ConditionTrue, wantHealthy: metav1.ConditionTrue, wantReady: ptr(int64(2)),
		},
		"missing Deployment: reported, and looked at again soon": {
			configs: []workv1.ManifestConfigOption{withRules}, cached: stubObjects{}, wantWrites: 1,
			wantAvailable: metav1.ConditionFalse, wantHealthy: metav1.ConditionFalse, wantRecheck: time.Second,
		},
		"no rules: the availability controller's": {
			cached: stubObjects{web: readyDeployment()}, live: []runtime.Object{readyDeployment()},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			work := appliedWork(tt.configs...)
			e := newEnv(t, work, 10, tt.live...)
			e.withAvailability(tt.cached)
			indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			require.NoError(t, indexer.Add(work))
			e.c.works = worklisters.NewManifestWorkLister(indexer).ManifestWorks(fixture.Cluster)
			syncCtx := ct.NewSyncContext(fixture.Cluster + "/w")

			require.NoError(t, e.c.sync(t.Context(), syncCtx))

			assert.Len(t, ct.Writes(e.hub.Actions()), tt.wantWrites)
			got := e.work(t)
			if tt.wantWrites == 0 {
				assert.Equal(t, work.Status, got.Status)
				return
			}
			mc := got.Status.ResourceStatus.Manifests[0]
			assert.Equal(t, tt.wantAvailable, apimeta.FindStatusCondition(mc.Conditions, workv1.ManifestAvailable).Status)
			healthy := apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkHealthy)
			require.NotNil(t, healthy, "the work's Healthy")
			assert.Equal(t, tt.wantHealthy, healthy.Status)
			require.NotNil(t, apimeta.FindStatusCondition(got.Status.Conditions, workv1.WorkAvailable))
			if tt.wantReady != nil {
				require.NotEmpty(t, mc.StatusFeedbacks.Values)
				assert.Equal(t, "ReadyReplicas", mc.StatusFeedbacks.Values[0].Name)
				assert.Equal(t, *tt.wantReady, *mc.StatusFeedbacks.Values[0].Value.Integer)
			}
			delay, ok := syncCtx.Q.Delay(syncCtx.Key)
			require.True(t, ok, "a next sync is scheduled")
			if tt.wantRecheck > 0 {
				assert.Equal(t, tt.wantRecheck, delay)
			} else {
				assert.Greater(t, delay, time.Second)
			}
		})
	}
}
