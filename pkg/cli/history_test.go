package cli

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	workv1alpha1 "github.com/manifestwork/work/pkg/apis/work/v1alpha1"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset"
	"github.com/manifestwork/work/pkg/hub/controllers/replicaset/revision"
)

// rsUID is the uid of the replica set fleet/web of revisedFleet.
const rsUID = "web-uid"

// hashOf is the hash of the revision of template(data).
func hashOf(t *testing.T, data string) string {
	t.Helper()
	h, err := revision.Hash(revision.Input{ManifestWorkTemplate: template(data)})
	require.NoError(t, err)
	return h
}

// revisionOf is the ControllerRevision number n of fleet/web, of
// template(data), created ago before now, with a change cause if not "".
func revisionOf(t *testing.T, data string, n int64, ago time.Duration, cause string) *appsv1.ControllerRevision {
	t.Helper()
	raw, err := revision.Canonical(revision.Input{ManifestWorkTemplate: template(data)})
	require.NoError(t, err)
	hash := hashOf(t, data)
	cr := &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "fleet", Name: revision.Name("web", hash), CreationTimestamp: metav1.NewTime(now.Add(-ago)),
			Labels: map[string]string{revision.ReplicaSetLabel: "web", revision.HashLabel: hash},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: workv1alpha1.SchemeGroupVersion.String(), Kind: "ManifestWorkReplicaSet",
				Name: "web", UID: rsUID, Controller: ptrTrue()}},
		},
		Data:     runtime.RawExtension{Raw: raw},
		Revision: n,
	}
	if cause != "" {
		cr.Annotations = map[string]string{ChangeCauseAnnotation: cause}
	}
	return cr
}

func ptrTrue() *bool { b := true; return &b }

// revisedFleet is fleet/web on template v2, applied with kubectl's
// --record, and its revisions: 1 (v0, whose ControllerRevision has a change
// cause), 2 (v1) and 3 (v2, current). cluster1 and cluster2 run revision 3;
// cluster3 runs v1, written before the hub recorded revisions (no label).
// A revision of an earlier replica set of the same name is not its.
func revisedFleet(t *testing.T, paused bool) []runtime.Object {
	rs := replicaSet(paused, completeSummary(), rolledOut()...)
	rs.UID, rs.ResourceVersion = rsUID, "7"
	metav1.SetMetaDataAnnotation(&rs.ObjectMeta, ChangeCauseAnnotation, "kubectl apply --filename=web.yaml --record=true")
	stale := revisionOf(t, "v9", 9, 5*time.Hour, "")
	stale.OwnerReferences[0].UID = "earlier-uid"
	return []runtime.Object{rs,
		revisionOf(t, "v0", 1, 3*time.Hour, "kubectl create --filename=web.yaml --record=true"),
		revisionOf(t, "v1", 2, 2*time.Hour, ""),
		revisionOf(t, "v2", 3, 30*time.Minute, ""),
		stale,
		work("cluster1", "v2", hashOf(t, "v2"), succeeded()...),
		work("cluster2", "v2", hashOf(t, "v2"), degraded()...),
		work("cluster3", "v1", "", succeeded()...),
	}
}

func TestHistory(t *testing.T) {
	for _, tt := range []struct {
		golden string
		ho     HistoryOptions
	}{
		{"history.txt", HistoryOptions{}},
		{"history-wide.txt", HistoryOptions{OutputOptions: OutputOptions{Output: OutputWide}}},
		{"history.yaml", HistoryOptions{OutputOptions: OutputOptions{Output: OutputYAML}}},
		{"history.json", HistoryOptions{OutputOptions: OutputOptions{Output: OutputJSON}}},
		{"history-revision-2.yaml", HistoryOptions{Revision: 2}},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			o, _, out := options(revisedFleet(t, false)...)
			require.NoError(t, History(context.Background(), o, tt.ho, "web"))
			golden(t, tt.golden, out.String())
		})
	}
}

// What history cannot show exits 2 with the reason, a revision not in the
// history 1.
func TestHistoryFails(t *testing.T) {
	forbidden := func(o *Options) {
		o.Kube.(*kubefake.Clientset).PrependReactor("list", "controllerrevisions", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "controllerrevisions"}, "", errors.New("RBAC: access denied"))
		})
	}
	unrecorded := replicaSet(false, completeSummary(), cond(replicaset.ConditionRevisionsRecorded, metav1.ConditionFalse,
		replicaset.ReasonForbidden, "the hub's identity may not list controllerrevisions (group apps) in all namespaces"))
	for _, tt := range []struct {
		name  string
		objs  []runtime.Object
		ho    HistoryOptions
		setup func(*Options)
		code  int
		err   string
	}{
		{"no such revision", revisedFleet(t, false), HistoryOptions{Revision: 9}, nil, ExitFailed,
			"manifestworkreplicaset fleet/web has no revision 9 (its revisions: 3, 2, 1)"},
		{"no such replica set", nil, HistoryOptions{}, nil, ExitUsage,
			`manifestworkreplicasets.work.open-cluster-management.io "web" not found`},
		{"not recorded", []runtime.Object{unrecorded}, HistoryOptions{}, nil, ExitUsage,
			"manifestworkreplicaset fleet/web has no revision recorded: RevisionsRecorded False Forbidden: " +
				"the hub's identity may not list controllerrevisions (group apps) in all namespaces"},
		{"not synced", []runtime.Object{replicaSet(false, completeSummary())}, HistoryOptions{}, nil, ExitUsage,
			"manifestworkreplicaset fleet/web has no revision recorded: its condition RevisionsRecorded is absent: " +
				"the hub has not synced it yet, or its controller records no revisions (as OCM's does not)"},
		{"may not read", revisedFleet(t, false), HistoryOptions{}, forbidden, ExitUsage,
			"the revisions of manifestworkreplicaset fleet/web cannot be read: you may not list controllerrevisions (group apps) in fleet: " +
				"controllerrevisions.apps is forbidden: RBAC: access denied"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, _, out := options(tt.objs...)
			if tt.setup != nil {
				tt.setup(o)
			}
			err := History(context.Background(), o, tt.ho, "web")
			assert.Equal(t, tt.code, ExitCode(err, -1), "%v", err)
			assert.EqualError(t, err, tt.err)
			assert.Empty(t, out.String())
		})
	}
}
