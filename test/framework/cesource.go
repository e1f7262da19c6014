package framework

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	cetypes "github.com/cloudevents/sdk-go/v2/types"
	"k8s.io/klog/v2"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
	"github.com/manifestwork/work/test/fixture"
)

// SourceLink is how a Source reaches the agents: an MQTT client on a broker,
// or the gRPC server the agents subscribe to.
type SourceLink interface {
	// Send delivers one event to the agents of the cluster.
	Send(ctx context.Context, cluster string, e cloudevents.Event) error
	// Run hands every event the agents send to receive until ctx ends.
	Run(ctx context.Context, receive func(cloudevents.Event))
}

// Source plays the part of a work source such as Maestro for tests: it
// holds works with their resource versions, sends their specs, answers the
// agents' spec resync requests as OCM's source does, and keeps the last
// status each agent sent.
type Source struct {
	ID   string
	link SourceLink

	mu       sync.Mutex
	works    map[string]*sourceWork // by resource id
	statuses map[string]fixture.Status
	received []fixture.Status // every status event, in order
	resyncs  int              // spec resync requests answered
}

type sourceWork struct {
	work     *workv1.ManifestWork
	version  int64
	deleting bool
}

// NewSource returns a source with the given id, sending through link; Run
// starts it.
func NewSource(id string, link SourceLink) *Source {
	return &Source{ID: id, link: link, works: map[string]*sourceWork{}, statuses: map[string]fixture.Status{}}
}

// Run receives the agents' events until ctx ends.
func (s *Source) Run(ctx context.Context) {
	s.link.Run(ctx, func(e cloudevents.Event) { s.receive(ctx, e) })
}

// Apply sends the work's spec at the next resource version: a create for a
// new work, an update otherwise. The work's UID (or name) is its resource id.
func (s *Source) Apply(ctx context.Context, work *workv1.ManifestWork) (version int64, err error) {
	id := fixture.ResourceID(work)
	s.mu.Lock()
	w, ok := s.works[id]
	eventType := fixture.SpecUpdateType
	if !ok {
		w = &sourceWork{}
		s.works[id] = w
		eventType = fixture.SpecCreateType
	}
	w.version++
	w.work = work.DeepCopy()
	version = w.version
	s.mu.Unlock()
	return version, s.link.Send(ctx, work.Namespace, fixture.SpecEvent(s.ID, eventType, work, version))
}

// Delete starts deleting the work: the agent cleans up and sends its last
// status, after which the source forgets it.
func (s *Source) Delete(ctx context.Context, cluster, resourceID string) error {
	s.mu.Lock()
	w, ok := s.works[resourceID]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("source %s has no work %s", s.ID, resourceID)
	}
	w.deleting = true
	version := w.version
	s.mu.Unlock()
	return s.link.Send(ctx, cluster, fixture.DeleteEvent(s.ID, cluster, resourceID, version))
}

// RequestStatus asks the agents of the cluster for the status of every work
// whose status the source does not hold as it is; with all, of every work.
func (s *Source) RequestStatus(ctx context.Context, cluster string, all bool) error {
	hashes := map[string]string{}
	if !all {
		s.mu.Lock()
		for id, w := range s.works {
			if w.work.Namespace == cluster {
				hashes[id] = s.statuses[id].Hash
			}
		}
		s.mu.Unlock()
	}
	return s.link.Send(ctx, cluster, fixture.StatusResyncEvent(s.ID, cluster, hashes))
}

// Forget drops what the source knows of statuses, as a source that
// restarted with its works but without their status.
func (s *Source) Forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses = map[string]fixture.Status{}
}

// Status is the last status the agent sent for the work.
func (s *Source) Status(resourceID string) (fixture.Status, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.statuses[resourceID]
	return st, ok
}

// Has tells whether the source still holds the work: a deleted work is
// forgotten once the agent sent its last status.
func (s *Source) Has(resourceID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.works[resourceID]
	return ok
}

// Received is every status event received so far, in order.
func (s *Source) Received() []fixture.Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]fixture.Status(nil), s.received...)
}

// Resyncs is how many spec resync requests the source answered.
func (s *Source) Resyncs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resyncs
}

func (s *Source) receive(ctx context.Context, e cloudevents.Event) {
	logger := klog.FromContext(ctx).WithValues("source", s.ID)
	switch e.Type() {
	case fixture.SpecResyncType:
		s.answerSpecResync(ctx, e)
	case fixture.StatusUpdateType, fixture.StatusDeleteType, fixture.StatusReplyType:
		st, err := fixture.ReadStatus(e)
		if err != nil {
			logger.Info("Source: unreadable status", "err", err)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		w, ok := s.works[st.ResourceID]
		if !ok || st.Original != s.ID {
			return
		}
		if st.Version < w.version && e.Type() != fixture.StatusDeleteType {
			s.received = append(s.received, st)
			return // a status of an older spec, as OCM's source drops it
		}
		s.received = append(s.received, st)
		s.statuses[st.ResourceID] = st
		if e.Type() == fixture.StatusDeleteType && w.deleting {
			delete(s.works, st.ResourceID)
		}
	}
}

// answerSpecResync sends each work the agent lacks or holds at an older
// version, each deletion in progress, and a deletion for each work the
// agent holds that the source no longer has.
func (s *Source) answerSpecResync(ctx context.Context, e cloudevents.Event) {
	cluster, _ := cetypes.ToString(e.Extensions()["clustername"])
	var list struct {
		Versions []struct {
			ResourceID      string `json:"resourceID"`
			ResourceVersion int64  `json:"resourceVersion"`
		} `json:"resourceVersions"`
	}
	if err := json.Unmarshal(e.Data(), &list); err != nil {
		klog.FromContext(ctx).Info("Source: unreadable spec resync request", "err", err)
		return
	}
	agentHas := map[string]int64{}
	for _, v := range list.Versions {
		agentHas[v.ResourceID] = v.ResourceVersion
	}
	var out []cloudevents.Event
	s.mu.Lock()
	s.resyncs++
	for id, w := range s.works {
		if w.work.Namespace != cluster {
			continue
		}
		have, ok := agentHas[id]
		switch {
		case w.deleting:
			out = append(out, fixture.DeleteEvent(s.ID, cluster, id, w.version))
		case !ok || have < w.version:
			out = append(out, fixture.SpecEvent(s.ID, fixture.SpecResyncReplyType, w.work, w.version))
		}
	}
	for id, version := range agentHas {
		if _, ok := s.works[id]; !ok {
			out = append(out, fixture.DeleteEvent(s.ID, cluster, id, version))
		}
	}
	s.mu.Unlock()
	for _, reply := range out {
		reply.SetType(fixture.SpecResyncReplyType)
		if err := s.link.Send(ctx, cluster, reply); err != nil {
			klog.FromContext(ctx).Info("Source: could not answer a spec resync request", "err", err)
			return
		}
	}
}
