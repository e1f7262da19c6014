package startup

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// What is told before the process connected is written once it has, on its
// pod, with the pod's UID so that `kubectl describe pod` shows it.
func TestPodEvents(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "open-cluster-management-agent", Name: "klusterlet-work-agent-x", UID: "u1"}}
	client := fake.NewClientset(pod)
	e := &podEvents{component: "work-agent"}
	e.credential(true, "hub kubeconfig \"/k\": the hub rejects the credential")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e.startWriting(ctx, client, &corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: pod.Namespace, Name: pod.Name})
	e.credential(false, "hub kubeconfig \"/k\": the hub accepts the credential again")

	var events []corev1.Event
	require.Eventually(t, func() bool {
		list, err := client.CoreV1().Events(pod.Namespace).List(ctx, metav1.ListOptions{})
		require.NoError(t, err)
		events = list.Items
		return len(events) == 2
	}, 10*time.Second, 10*time.Millisecond)
	byReason := map[string]corev1.Event{}
	for _, ev := range events {
		byReason[ev.Reason] = ev
	}
	rejected := byReason[EventCredentialRejected]
	assert.Equal(t, corev1.EventTypeWarning, rejected.Type)
	assert.Equal(t, "hub kubeconfig \"/k\": the hub rejects the credential", rejected.Message)
	assert.Equal(t, pod.UID, rejected.InvolvedObject.UID)
	assert.Equal(t, "work-agent", rejected.Source.Component)
	assert.Equal(t, corev1.EventTypeNormal, byReason[EventCredentialAccepted].Type)
}

// Outside a pod nothing is written, and telling never blocks.
func TestPodEventsOutsideAPod(t *testing.T) {
	t.Setenv("POD_NAME", "")
	e := &podEvents{component: "work-agent"}
	e.start(context.Background(), nil)
	for range 2 * maxPendingEvents {
		e.credential(true, "x")
	}
	assert.Len(t, e.pending, maxPendingEvents, "kept, bounded")
}
