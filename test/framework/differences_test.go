package framework

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

func TestDifferenceRowExplains(t *testing.T) {
	d := func(c, path string) Difference { return Difference{Case: c, Path: path} }
	tests := []struct {
		name string
		row  DifferenceRow
		diff Difference
		want bool
	}{
		{"prefix", DifferenceRow{Case: "a", Path: "object[v1 ConfigMap ns/cm]"}, d("a", "object[v1 ConfigMap ns/cm].metadata.labels.x"), true},
		{"other case", DifferenceRow{Case: "a", Path: "object"}, d("b", "object[x]"), false},
		{"other path", DifferenceRow{Case: "a", Path: "status"}, d("a", "object[x]"), false},
		{"star", DifferenceRow{Case: "a", Path: "status.work[*].conditions[Progressing]"}, d("a", "status.work[1].conditions[Progressing]"), true},
		{"star, other type", DifferenceRow{Case: "a", Path: "status.work[*].conditions[Progressing]"}, d("a", "status.work[1].conditions[Applied]"), false},
		{"all cases", DifferenceRow{Case: "a", Path: "status", AllCases: true}, d("b", "status.work[0]"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, tt.row.Explains(tt.diff)) })
	}
}

func TestMatchDifferences(t *testing.T) {
	rows := []DifferenceRow{
		{Case: "a", Path: "status.work[*].conditions[Progressing]", AllCases: true},
		{Case: "b", Path: "object[x]"},
		{Case: "c", Path: "object[y]"},
		{Case: "notrun", Path: "object"},
	}
	seen := []Difference{
		{Case: "b", Path: "status.work[0].conditions[Progressing]"},
		{Case: "b", Path: "object[x].data"},
		{Case: "c", Path: "object[z]"},
	}
	unexplained, unused := MatchDifferences(rows, map[string]bool{"a": true, "b": true, "c": true}, seen)
	assert.Equal(t, []Difference{{Case: "c", Path: "object[z]"}}, unexplained)
	// The row of every case is unused until its own case shows it.
	assert.Equal(t, []DifferenceRow{rows[0], rows[2]}, unused)
}

func TestSnapshotConditionsAndOrder(t *testing.T) {
	a := Snapshot{"s.conditions.order": "Applied,Progressing,Available"}
	b := Snapshot{"s.conditions.order": "Available,Applied"}
	CommonOrder(a, b)
	assert.Equal(t, "Applied,Available", a["s.conditions.order"])
	assert.Equal(t, "Available,Applied", b["s.conditions.order"])
}

func TestCompareSnapshotsReportsAnAbsentObjectOnce(t *testing.T) {
	ocm, ours := Snapshot{}, Snapshot{}
	ocm.AddObject("object[x]", nil)
	u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "x", "uid": "1"}, "data": map[string]any{"a": "1"}}}
	ours.AddObject("object[x]", u)
	assert.Equal(t, []Difference{{Case: "c", Step: "s", Path: "object[x]", OCM: Absent, Ours: "present"}},
		CompareSnapshots("c", "s", ocm, ours))
}

func TestAddObjectLeavesOutWhatTheClusterGenerates(t *testing.T) {
	s := Snapshot{}
	s.AddObject("o", &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "x", "resourceVersion": "7", "labels": map[string]any{"controller-uid": "5337c5a0-1514-43dc-83b8-13b91c5daac0"}},
		"spec":     map[string]any{"volumes": []any{map[string]any{"name": "kube-api-access-f546v"}}, "clusterIP": "10.0.0.1"},
	}})
	assert.Equal(t, Snapshot{"o": "present", "o.metadata.name": `"x"`, "o.metadata.labels.controller-uid": `"*"`,
		"o.spec.volumes[0].name": `"kube-api-access-*"`}, s)
}

func TestAddAppliedWorkAndEvents(t *testing.T) {
	s := Snapshot{}
	s.AddAppliedWork("applied[0]", &workv1.AppliedManifestWork{
		ObjectMeta: metav1.ObjectMeta{Finalizers: []string{"f"}, Annotations: map[string]string{"b": "x", "a": "y"}},
		Status: workv1.AppliedManifestWorkStatus{AppliedResources: []workv1.AppliedManifestResourceMeta{
			{ResourceIdentifier: workv1.ResourceIdentifier{Resource: "configmaps", Namespace: "ns", Name: "z"}, Version: "v1", UID: "1"},
			{ResourceIdentifier: workv1.ResourceIdentifier{Group: "apps", Resource: "deployments", Namespace: "ns", Name: "a"}, Version: "v1", UID: "2"},
		}},
	})
	s.AddAppliedWork("applied[1]", nil)
	s.AddEvents("events.hub", []corev1.Event{
		{Type: "Normal", Reason: "R", InvolvedObject: corev1.ObjectReference{Kind: "ManifestWork"}, Count: 3},
		{Type: "Normal", Reason: "R", InvolvedObject: corev1.ObjectReference{Kind: "ManifestWork"}},
		{Type: "Warning", Reason: "A", InvolvedObject: corev1.ObjectReference{Kind: "Namespace"}},
	})
	s.AddEvents("events.managed", nil)
	assert.Equal(t, Snapshot{
		"applied[0]":                         "present",
		"applied[0].finalizers":              "f",
		"applied[0].labels":                  "",
		"applied[0].annotations":             "a,b",
		"applied[0].status.appliedResources": "/v1/configmaps ns/z, apps/v1/deployments ns/a",
		"applied[1]":                         Absent,
		"events.hub":                         "Normal R on ManifestWork; Warning A on Namespace",
	}, s)
}

func TestAddWorkStatusKeepsObservedGenerationApart(t *testing.T) {
	s := Snapshot{}
	s.AddWorkStatus("w", &workv1.ManifestWork{Status: workv1.ManifestWorkStatus{Conditions: []metav1.Condition{
		{Type: "Applied", Status: metav1.ConditionTrue, Reason: "R", Message: "m", ObservedGeneration: 2},
	}}})
	assert.Equal(t, "True R: m", s["w.conditions[Applied]"])
	assert.Equal(t, "2", s["w.conditions[Applied].observedGeneration"])
}

func TestCompareSnapshotsReportsAConditionOnlyOneSideHasOnce(t *testing.T) {
	ocm := Snapshot{"w.conditions[Applied]": "True R: m", "w.conditions[Applied].observedGeneration": "1"}
	ours := Snapshot{"w.conditions[Applied]": "True R: m", "w.conditions[Applied].observedGeneration": "1",
		"w.conditions[Ready]": "True R: m", "w.conditions[Ready].observedGeneration": "1"}
	assert.Equal(t, []Difference{{Path: "w.conditions[Ready]", OCM: Absent, Ours: "True R: m"}}, CompareSnapshots("", "", ocm, ours))
}
