package cloudevents

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	cloudevents "github.com/cloudevents/sdk-go/v2/event"
	cetypes "github.com/cloudevents/sdk-go/v2/types"
	"github.com/google/uuid"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	workv1 "github.com/manifestwork/work/pkg/apis/work/v1"
)

// The label and annotation OCM's agent puts on its copy of a work: the
// source the work came from, and the data type of its events.
const (
	OriginalSourceLabel = "cloudevents.open-cluster-management.io/originalsource"
	DataTypeAnnotation  = "cloudevents.open-cluster-management.io/datatype"
)

// DeletedCondition is the condition of the last status of a work, sent once
// the agent has cleaned up after it.
const DeletedCondition = "Deleted"

// manifestBundle is the data of a spec event.
type manifestBundle struct {
	Manifests       []workv1.Manifest             `json:"manifests"`
	DeleteOption    *workv1.DeleteOption          `json:"deleteOption,omitempty"`
	ManifestConfigs []workv1.ManifestConfigOption `json:"manifestConfigs,omitempty"`
	Executer        *workv1.ManifestWorkExecutor  `json:"executer,omitempty"`
}

// manifestBundleStatus is the data of a status event.
type manifestBundleStatus struct {
	ManifestBundle *manifestBundle            `json:"manifestBundle,omitempty"`
	Conditions     []metav1.Condition         `json:"conditions"`
	ResourceStatus []workv1.ManifestCondition `json:"resourceStatus,omitempty"`
}

// resourceVersion is one entry of a spec resync request.
type resourceVersion struct {
	ResourceID      string `json:"resourceID"`
	ResourceVersion int64  `json:"resourceVersion"`
}

type resourceVersionList struct {
	Versions []resourceVersion `json:"resourceVersions"`
}

// statusHash is one entry of a status resync request.
type statusHash struct {
	ResourceID string `json:"resourceID"`
	StatusHash string `json:"statusHash"`
}

type statusHashList struct {
	Hashes []statusHash `json:"statusHashes"`
}

// specEvent is a spec event read: the work it carries, or its deletion.
type specEvent struct {
	ResourceID string
	Version    int64
	Cluster    string
	Source     string
	// MetaName is the name in the metadata extension, if any.
	MetaName string
	// Name is the work's name, which the Hub chooses (specs.nameOf).
	Name string
	// Deleting is set on a deletion; Work is then nil.
	Deleting *metav1.Time
	// Work is the work as the event describes it: name, labels and
	// annotations, generation and spec. Nil on a deletion.
	Work *workv1.ManifestWork
	// Invalid says why the data could not be read as a spec; Work then has
	// its metadata but no spec.
	Invalid error
}

// decodeSpec reads a spec event (the Hub has read its type). An error means
// the event cannot name a work (its resource id, version or cluster is
// missing or wrong) and is dropped; data that does not read as a spec is
// reported in Invalid, with the work it is about.
func decodeSpec(e cloudevents.Event) (specEvent, error) {
	s := specEvent{Source: e.Source()}
	ext := e.Extensions()
	if err := s.readAddress(e.ID(), ext); err != nil {
		return s, err
	}
	meta, badMeta := readMetadata(ext)
	s.MetaName = meta.Name
	if v, ok := ext[ExtDeletionTimestamp]; ok {
		at, err := cetypes.ToTime(v)
		if err != nil {
			return s, fmt.Errorf("event %s: %s: %v", e.ID(), ExtDeletionTimestamp, err)
		}
		s.Deleting = &metav1.Time{Time: at}
		return s, nil
	}
	s.Work = s.newWork()
	if badMeta != nil {
		s.Invalid = badMeta
		return s, nil
	}
	for k, v := range meta.Labels {
		s.Work.Labels[k] = v
	}
	for k, v := range meta.Annotations {
		s.Work.Annotations[k] = v
	}
	s.Work.Labels[OriginalSourceLabel] = s.Source
	s.Work.Annotations[DataTypeAnnotation] = DataType
	s.Invalid = readBundle(e.Data(), &s.Work.Spec)
	return s, nil
}

// readAddress reads which work of which cluster the event is about, and
// the source's version of its spec.
func (s *specEvent) readAddress(id string, ext map[string]any) error {
	var err error
	if s.ResourceID, err = cetypes.ToString(ext[ExtResourceID]); err != nil || s.ResourceID == "" {
		return fmt.Errorf("event %s has no %s extension", id, ExtResourceID)
	}
	version, err := cetypes.ToInteger(ext[ExtResourceVersion])
	if err != nil {
		return fmt.Errorf("event %s: %s: %v", id, ExtResourceVersion, err)
	}
	s.Version = int64(version)
	if s.Cluster, err = cetypes.ToString(ext[ExtClusterName]); err != nil || s.Cluster == "" {
		return fmt.Errorf("event %s has no %s extension", id, ExtClusterName)
	}
	return nil
}

// readMetadata reads the metadata extension, if any; an error says why it
// is not an object's metadata.
func readMetadata(ext map[string]any) (metav1.ObjectMeta, error) {
	var meta metav1.ObjectMeta
	v, ok := ext[ExtMetadata]
	if !ok {
		return meta, nil
	}
	raw, err := cetypes.ToString(v)
	if err == nil {
		err = json.Unmarshal([]byte(raw), &meta)
	}
	if err != nil {
		return meta, fmt.Errorf("the %s extension is not an object's metadata: %v", ExtMetadata, err)
	}
	return meta, nil
}

// newWork is the work of the event without labels, annotations or spec.
// The Hub names it (see specs.nameOf); until then it goes by its resource
// id.
func (s *specEvent) newWork() *workv1.ManifestWork {
	return &workv1.ManifestWork{ObjectMeta: metav1.ObjectMeta{
		Name:        s.ResourceID,
		Namespace:   s.Cluster,
		UID:         types.UID(s.ResourceID),
		Generation:  s.Version,
		Labels:      map[string]string{},
		Annotations: map[string]string{},
	}}
}

// readBundle reads the event's data, a manifest bundle, into spec; an error
// says why it is not one.
func readBundle(data []byte, spec *workv1.ManifestWorkSpec) error {
	var bundle manifestBundle
	if err := json.Unmarshal(data, &bundle); err != nil {
		return fmt.Errorf("the event's data is not a manifest bundle: %v", err)
	}
	*spec = workv1.ManifestWorkSpec{
		Workload:        workv1.ManifestsTemplate{Manifests: bundle.Manifests},
		DeleteOption:    bundle.DeleteOption,
		ManifestConfigs: bundle.ManifestConfigs,
		Executor:        bundle.Executer,
	}
	return nil
}

// newEvent starts an event of the agent's.
func newEvent(clientID string, t EventType) cloudevents.Event {
	e := cloudevents.New()
	e.SetID(uuid.NewString())
	e.SetSource(clientID)
	e.SetType(t.String())
	e.SetTime(time.Now())
	return e
}

// encodeStatus builds the status event of a work: an update, a resync
// answer, or the last status of a deleted work.
func encodeStatus(clientID string, t EventType, work *workv1.ManifestWork) (cloudevents.Event, error) {
	e := newEvent(clientID, t)
	hash, err := hashStatus(work.Status)
	if err != nil {
		return e, err
	}
	e.SetExtension(ExtResourceID, string(work.UID))
	e.SetExtension(ExtResourceVersion, int32(work.Generation))
	e.SetExtension(ExtClusterName, work.Namespace)
	e.SetExtension(ExtOriginalSource, work.Labels[OriginalSourceLabel])
	e.SetExtension(ExtSequenceID, sequence.next())
	e.SetExtension(ExtStatusHash, hash)
	data := manifestBundleStatus{Conditions: work.Status.Conditions, ResourceStatus: work.Status.ResourceStatus.Manifests}
	if data.Conditions == nil {
		data.Conditions = []metav1.Condition{}
	}
	if err := e.SetData(cloudevents.ApplicationJSON, data); err != nil {
		return e, err
	}
	return e, nil
}

// encodeSpecResync builds the agent's request for the specs it misses: it
// lists what it holds, and asks every source.
func encodeSpecResync(clientID, cluster string, works []*workv1.ManifestWork) (cloudevents.Event, error) {
	e := newEvent(clientID, EventType{SubResource: SubResourceSpec, Action: ResyncRequest})
	e.SetExtension(ExtClusterName, cluster)
	e.SetExtension(ExtOriginalSource, "")
	list := resourceVersionList{Versions: make([]resourceVersion, 0, len(works))}
	for _, w := range works {
		list.Versions = append(list.Versions, resourceVersion{ResourceID: string(w.UID), ResourceVersion: w.Generation})
	}
	return e, e.SetData(cloudevents.ApplicationJSON, list)
}

// decodeStatusResync reads a source's request for status: the hash of each
// status it holds, by resource id.
func decodeStatusResync(e cloudevents.Event) (map[string]string, error) {
	var list statusHashList
	if len(e.Data()) > 0 {
		if err := json.Unmarshal(e.Data(), &list); err != nil {
			return nil, fmt.Errorf("status resync request %s: %v", e.ID(), err)
		}
	}
	hashes := make(map[string]string, len(list.Hashes))
	for _, h := range list.Hashes {
		hashes[h.ResourceID] = h.StatusHash
	}
	return hashes, nil
}

// hashStatus is the hash a source keeps of a work's status, as OCM computes
// it: SHA-256 of the JSON of the status as an unstructured object, keys
// sorted, in lowercase hex.
func hashStatus(status workv1.ManifestWorkStatus) (string, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&status)
	if err != nil {
		return "", err
	}
	raw, err := json.Marshal(u)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:]), nil
}

// sequenceIDs hands out the sequence ids of status events: ids that grow
// with each event of this agent, shaped as snowflake ids (milliseconds since
// 2010-11-04, a node number and a count within the millisecond), as OCM's
// agent sends them.
type sequenceIDs struct {
	mu   sync.Mutex
	last int64
	step int64
}

const snowflakeEpoch = 1288834974657 // ms

var sequence sequenceIDs

func (s *sequenceIDs) next() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now().UnixMilli() - snowflakeEpoch
	if now <= s.last {
		s.step++
		if s.step == 1<<12 {
			s.last++
			s.step = 0
		}
		now = s.last
	} else {
		s.last, s.step = now, 0
	}
	return fmt.Sprint(now<<22 | 1<<12 | s.step)
}
