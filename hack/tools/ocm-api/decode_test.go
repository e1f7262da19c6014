package ocmapi

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ocmworkv1 "open-cluster-management.io/api/work/v1"
)

// OCM's published Go types decode a ManifestWork status that carries our
// Healthy conditions (the testdata has the shape and messages our agent
// wrote in the e2e health test), field for field, with unknown fields
// refused: an OCM client reads it unchanged. Run it in this module:
// cd hack/tools/ocm-api && go test ./... (make test-unit runs it).
func TestOCMTypesDecodeHealth(t *testing.T) {
	data, err := os.ReadFile("testdata/manifestwork-with-health.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var work ocmworkv1.ManifestWork
	if err := dec.Decode(&work); err != nil {
		t.Fatalf("OCM's types refuse the status: %v", err)
	}
	if c := apimeta.FindStatusCondition(work.Status.Conditions, "Healthy"); c == nil || c.Status != metav1.ConditionFalse || c.Reason != "Degraded" {
		t.Errorf("work Healthy = %+v", c)
	}
	if c := apimeta.FindStatusCondition(work.Status.Conditions, ocmworkv1.WorkAvailable); c == nil || c.Status != metav1.ConditionTrue {
		t.Errorf("work Available keeps its meaning: %+v", c)
	}
	manifests := work.Status.ResourceStatus.Manifests
	if len(manifests) != 2 {
		t.Fatalf("%d manifests", len(manifests))
	}
	if c := apimeta.FindStatusCondition(manifests[0].Conditions, "Healthy"); c == nil || c.Reason != "Degraded" {
		t.Errorf("manifest 0 Healthy = %+v", c)
	}
	if c := apimeta.FindStatusCondition(manifests[1].Conditions, "Healthy"); c == nil || c.Reason != "NoHealthCheck" || c.Status != metav1.ConditionTrue {
		t.Errorf("manifest 1 Healthy = %+v", c)
	}
	again, err := json.Marshal(work.Status)
	if err != nil {
		t.Fatal(err)
	}
	var roundTrip ocmworkv1.ManifestWorkStatus
	if err := json.Unmarshal(again, &roundTrip); err != nil || len(roundTrip.Conditions) != len(work.Status.Conditions) {
		t.Errorf("round trip through OCM's types lost conditions: %v", err)
	}
}
