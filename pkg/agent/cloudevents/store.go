package cloudevents

import (
	"slices"
	"strconv"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// historySize is how many changes a watch can start behind the newest. An
// informer whose watch broke asks from where it left off; one that fell
// further behind gets 410 Gone and lists again, as from an API server.
const historySize = 1024

// watchBuffer is how many changes one watcher may fall behind before the
// store closes its watch; the informer then watches again from its last
// resource version.
const watchBuffer = 256

var worksResource = workv1.Resource("manifestworks")

// store is the agent's local copy of the works of its cluster, served to
// the informers as an API server would serve them: every change gets the
// next resource version of the whole store, and a watch replays the changes
// after the version it starts from. The works' generation is the source's
// resource version of their spec; their own resource version is the
// store's.
type store struct {
	// writes serialises the changes of the local copy: whoever reads a work
	// to write it back (a spec received, an agent's patch, whose status
	// event then goes out in order) holds it across both, so that neither
	// overwrites what the other just stored.
	writes sync.Mutex

	mu       sync.Mutex
	version  uint64
	works    map[string]*workv1.ManifestWork // by name
	names    map[types.UID]string            // work name by resource id (the work's UID)
	history  []watch.Event                   // the last changes, oldest first
	watchers map[*storeWatch]struct{}
}

func newStore() *store {
	return &store{works: map[string]*workv1.ManifestWork{}, names: map[types.UID]string{}, watchers: map[*storeWatch]struct{}{}}
}

// byID returns a copy of the work of that resource id.
func (s *store) byID(id string) (*workv1.ManifestWork, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name, ok := s.names[types.UID(id)]
	if !ok {
		return nil, false
	}
	return s.works[name].DeepCopy(), true
}

// get returns a copy of the work of that name.
func (s *store) get(name string) (*workv1.ManifestWork, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.works[name]
	if !ok {
		return nil, false
	}
	return w.DeepCopy(), true
}

// list returns copies of the works the selector matches, and the store's
// resource version.
func (s *store) list(selector labels.Selector) ([]workv1.ManifestWork, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	items := make([]workv1.ManifestWork, 0, len(s.works))
	for _, w := range s.works {
		if selector.Matches(labels.Set(w.Labels)) {
			items = append(items, *w.DeepCopy())
		}
	}
	slices.SortFunc(items, func(a, b workv1.ManifestWork) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return items, strconv.FormatUint(s.version, 10)
}

// all returns the works themselves, not copies, for reading only.
func (s *store) all() []*workv1.ManifestWork {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*workv1.ManifestWork, 0, len(s.works))
	for _, w := range s.works {
		out = append(out, w)
	}
	return out
}

// put stores the work as its new state: it is added when its name is new,
// and replaces the stored one otherwise. The store sets its resource
// version and returns a copy.
func (s *store) put(w *workv1.ManifestWork) *workv1.ManifestWork {
	s.mu.Lock()
	defer s.mu.Unlock()
	kind := watch.Modified
	if _, ok := s.works[w.Name]; !ok {
		kind = watch.Added
	}
	w = w.DeepCopy()
	s.version++
	w.ResourceVersion = strconv.FormatUint(s.version, 10)
	s.works[w.Name] = w
	s.names[w.UID] = w.Name
	s.publish(watch.Event{Type: kind, Object: w.DeepCopy()})
	return w.DeepCopy()
}

// remove drops the work of that name.
func (s *store) remove(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.works[name]
	if !ok {
		return
	}
	delete(s.works, name)
	delete(s.names, w.UID)
	s.version++
	gone := w.DeepCopy()
	gone.ResourceVersion = strconv.FormatUint(s.version, 10)
	s.publish(watch.Event{Type: watch.Deleted, Object: gone})
}

// publish records a change and hands it to every watcher; a watcher that
// cannot take it is closed. Called with the lock held.
func (s *store) publish(e watch.Event) {
	s.history = append(s.history, e)
	if len(s.history) > historySize {
		s.history = slices.Delete(s.history, 0, len(s.history)-historySize)
	}
	for w := range s.watchers {
		if !w.send(e) {
			s.stop(w)
		}
	}
}

// watch streams the changes after the given resource version ("" or "0":
// from now) that the selector matches.
func (s *store) watch(resourceVersion string, selector labels.Selector) (watch.Interface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	from := s.version
	if resourceVersion != "" && resourceVersion != "0" {
		v, err := strconv.ParseUint(resourceVersion, 10, 64)
		if err != nil {
			return nil, apierrors.NewBadRequest("invalid resourceVersion " + strconv.Quote(resourceVersion))
		}
		if v > s.version || (len(s.history) > 0 && v+1 < versionOf(s.history[0])) || (len(s.history) == 0 && v < s.version) {
			return nil, apierrors.NewResourceExpired("too old resource version: " + resourceVersion)
		}
		from = v
	}
	w := &storeWatch{events: make(chan watch.Event, watchBuffer+historySize), selector: selector, owner: s}
	for _, e := range s.history {
		if versionOf(e) > from {
			w.send(e)
		}
	}
	s.watchers[w] = struct{}{}
	return w, nil
}

func (s *store) stop(w *storeWatch) {
	if _, ok := s.watchers[w]; ok {
		delete(s.watchers, w)
		close(w.events)
	}
}

func versionOf(e watch.Event) uint64 {
	v, _ := strconv.ParseUint(e.Object.(*workv1.ManifestWork).ResourceVersion, 10, 64)
	return v
}

// storeWatch is one watch on the store.
type storeWatch struct {
	events   chan watch.Event
	selector labels.Selector
	owner    *store
}

// send queues the event if it matches; false when the watcher is full.
func (w *storeWatch) send(e watch.Event) bool {
	if !w.selector.Matches(labels.Set(e.Object.(*workv1.ManifestWork).Labels)) {
		return true
	}
	e.Object = e.Object.(*workv1.ManifestWork).DeepCopy()
	select {
	case w.events <- e:
		return true
	default:
		return false
	}
}

func (w *storeWatch) Stop() {
	w.owner.mu.Lock()
	defer w.owner.mu.Unlock()
	w.owner.stop(w)
}

func (w *storeWatch) ResultChan() <-chan watch.Event { return w.events }

// notFound is the error of a work the store does not have.
func notFound(name string) error { return apierrors.NewNotFound(worksResource, name) }

// listOf wraps works as a list.
func listOf(items []workv1.ManifestWork, version string) *workv1.ManifestWorkList {
	return &workv1.ManifestWorkList{ListMeta: metav1.ListMeta{ResourceVersion: version}, Items: items}
}
