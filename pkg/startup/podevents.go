package startup

import (
	"context"
	"os"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	"github.com/manifestwork/work/pkg/leaderelect"
)

// Reasons of the Events a process records on its own pod.
const (
	EventCredentialRejected = "CredentialRejected"
	EventCredentialAccepted = "CredentialAccepted"
)

// maxPendingEvents bounds the Events kept until the process knows where to
// write them.
const maxPendingEvents = 8

// podEvent is an Event to record on the process's pod.
type podEvent struct {
	eventType, reason, message string
}

// podEvents records Events on the pod the process runs in ($POD_NAME in
// PodNamespace), on the cluster of its lease, where `kubectl describe pod`
// shows them: what a process has to say when the cluster it needs (the hub)
// is the one it cannot write to. Outside a pod it records nothing. Events
// told before the process has connected wait, a few, until it has.
type podEvents struct {
	component string

	mu      sync.Mutex
	queue   chan podEvent // set by start
	pending []podEvent
}

// record queues an Event; it never blocks.
func (e *podEvents) record(ev podEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.queue == nil {
		if len(e.pending) == maxPendingEvents {
			e.pending = e.pending[1:]
		}
		e.pending = append(e.pending, ev)
		return
	}
	select {
	case e.queue <- ev:
	default: // the writer is behind; the log and the metrics still say it
	}
}

// credential is kubeconn.Cluster.OnCredential.
func (e *podEvents) credential(rejected bool, message string) {
	if rejected {
		e.record(podEvent{corev1.EventTypeWarning, EventCredentialRejected, message})
	} else {
		e.record(podEvent{corev1.EventTypeNormal, EventCredentialAccepted, message})
	}
}

// start writes the Events, those told so far first, to cfg's cluster until
// ctx is done, if the process runs in a pod.
func (e *podEvents) start(ctx context.Context, cfg *rest.Config) {
	pod, namespace := os.Getenv(leaderelect.PodNameEnv), PodNamespace()
	if pod == "" || namespace == "" || cfg == nil {
		return
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		klog.FromContext(ctx).Error(err, "Cannot record Events on the pod")
		return
	}
	e.startWriting(ctx, client, &corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: namespace, Name: pod})
}

// startWriting writes the Events, those told so far first, on ref with
// client until ctx is done.
func (e *podEvents) startWriting(ctx context.Context, client kubernetes.Interface, ref *corev1.ObjectReference) {
	e.mu.Lock()
	e.queue = make(chan podEvent, maxPendingEvents)
	for _, ev := range e.pending {
		e.queue <- ev
	}
	e.pending = nil
	e.mu.Unlock()
	go e.write(ctx, client, ref)
}

func (e *podEvents) write(ctx context.Context, client kubernetes.Interface, ref *corev1.ObjectReference) {
	var broadcaster record.EventBroadcaster
	var recorder record.EventRecorder
	defer func() {
		if broadcaster != nil {
			broadcaster.Shutdown()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-e.queue:
			if broadcaster == nil {
				// Only now, when there is something to say: the pod's UID
				// lets `kubectl describe pod` find the Events.
				if got, err := client.CoreV1().Pods(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{}); err == nil {
					ref.UID = got.UID
				}
				broadcaster = record.NewBroadcaster(record.WithContext(ctx))
				broadcaster.StartRecordingToSink(&corev1client.EventSinkImpl{Interface: client.CoreV1().Events(ref.Namespace)})
				recorder = broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: e.component})
			}
			recorder.Event(ref, ev.eventType, ev.reason, ev.message)
		}
	}
}
