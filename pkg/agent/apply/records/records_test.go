package records

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/manifestwork/work/pkg/agent/apply"
)

const work = "cluster1/w"

func record(spec, content uint64, ignored map[uint64]uint64) Record {
	return Record{LastApplied: apply.LastApplied{Spec: spec, IgnoredFields: ignored}, Content: content}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	records := map[uint64]Record{
		1:              record(10, 100, nil),
		^uint64(0):     record(^uint64(0), 0, map[uint64]uint64{7: 70, 8: 80}),
		1 << 40:        record(0, 1, map[uint64]uint64{}),
		12345678901234: record(5, 6, map[uint64]uint64{9: 0}),
	}
	encoded := encode(records)
	got, err := Decode(encoded)
	require.NoError(t, err)
	require.Len(t, got, len(records))
	for id, want := range records {
		assert.True(t, equal(want, got[id]), "record %d: want %+v, got %+v", id, want, got[id])
	}
	assert.Equal(t, encoded, encode(got), "encoding is deterministic")
	assert.Empty(t, encode(nil), "no records, no annotation")
}

func TestDecodeRefusesDamage(t *testing.T) {
	good := encode(map[uint64]Record{1: record(2, 3, map[uint64]uint64{4: 5})})
	for name, text := range map[string]string{
		"not base64":      "!!!",
		"unknown format":  "Ag",
		"truncated":       good[:len(good)-4],
		"trailing bytes":  good + "AAAA",
		"count too large": "AQU",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Decode(text)
			assert.Error(t, err)
		})
	}
	got, err := Decode("")
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestEncodeStaysWithinAnAnnotation(t *testing.T) {
	records := map[uint64]Record{}
	for i := range uint64(7000) {
		records[i] = record(i, i, nil)
	}
	assert.Empty(t, encode(records), "too many records are not persisted")
	delete(records, 0)
	for i := uint64(6000); i < 7000; i++ {
		delete(records, i)
	}
	assert.Less(t, len(encode(records)), maxEncoded)
	assert.NotEmpty(t, encode(records))
}

func TestStore(t *testing.T) {
	s := NewStore()
	assert.False(t, s.Known(work))

	persisted := encode(map[uint64]Record{1: record(10, 100, nil), 2: record(20, 200, nil)})
	s.Load(work, persisted)
	assert.True(t, s.Known(work))
	r, ok := s.Get(work, 1)
	require.True(t, ok)
	assert.Equal(t, record(10, 100, nil), r)

	s.Load(work, "")
	_, ok = s.Get(work, 1)
	assert.True(t, ok, "a known work is not loaded again")

	assert.False(t, s.Put(work, 1, record(10, 100, nil)), "the same record is no change")
	assert.True(t, s.Put(work, 1, record(10, 101, nil)))
	assert.True(t, s.Put(work, 3, record(30, 300, map[uint64]uint64{1: 2})))
	assert.False(t, s.Put(work, 3, record(30, 300, map[uint64]uint64{1: 2})))
	assert.True(t, s.Put(work, 3, record(30, 300, map[uint64]uint64{1: 3})))

	assert.True(t, s.Retain(work, []uint64{1, 3}))
	assert.False(t, s.Retain(work, []uint64{1, 3}))
	_, ok = s.Get(work, 2)
	assert.False(t, ok)

	decoded, err := Decode(s.Encode(work))
	require.NoError(t, err)
	assert.Len(t, decoded, 2)

	s.Forget(work)
	assert.False(t, s.Known(work))
	assert.Empty(t, s.Encode(work))

	s.Load("cluster1/broken", "!!!")
	assert.True(t, s.Known("cluster1/broken"), "damaged records are dropped, the objects looked at again")
	assert.Empty(t, s.Encode("cluster1/broken"))
}

func TestObjectID(t *testing.T) {
	cm := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	secrets := schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	v2 := schema.GroupVersionResource{Version: "v2", Resource: "configmaps"}
	assert.NotEqual(t, ObjectID(cm, "a", "b"), ObjectID(secrets, "a", "b"))
	assert.NotEqual(t, ObjectID(cm, "a", "bc"), ObjectID(cm, "ab", "c"))
	assert.Equal(t, ObjectID(cm, "a", "b"), ObjectID(v2, "a", "b"), "the version does not make another object")
}
