package records

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// formatVersion is the first byte of the encoded records.
const formatVersion = 1

// maxEncoded bounds the annotation: the API server refuses objects whose
// annotations exceed 256 KiB together. It holds some 6,000 records; the
// records of a larger work are not persisted, and a restart looks at its
// objects once more.
const maxEncoded = 200 << 10

// encode writes records as base64 (without padding) of: the format
// version, the number of records, and for each record in order of its
// object ID: the ID, Spec and Content as 8-byte little-endian numbers, the
// number of ignored fields, and for each in order of its path hash the path
// hash and the value hash. About 32 characters a record.
func encode(records map[uint64]Record) string {
	if len(records) == 0 {
		return ""
	}
	buf := []byte{formatVersion}
	buf = binary.AppendUvarint(buf, uint64(len(records)))
	for _, id := range slices.Sorted(maps.Keys(records)) {
		r := records[id]
		buf = binary.LittleEndian.AppendUint64(buf, id)
		buf = binary.LittleEndian.AppendUint64(buf, r.Spec)
		buf = binary.LittleEndian.AppendUint64(buf, r.Content)
		buf = binary.AppendUvarint(buf, uint64(len(r.IgnoredFields)))
		for _, path := range slices.Sorted(maps.Keys(r.IgnoredFields)) {
			buf = binary.LittleEndian.AppendUint64(buf, path)
			buf = binary.LittleEndian.AppendUint64(buf, r.IgnoredFields[path])
		}
	}
	if base64.RawStdEncoding.EncodedLen(len(buf)) > maxEncoded {
		return ""
	}
	return base64.RawStdEncoding.EncodeToString(buf)
}

// Decode reads what Encode wrote; "" is no records.
func Decode(encoded string) (map[uint64]Record, error) {
	records := map[uint64]Record{}
	if encoded == "" {
		return records, nil
	}
	buf, err := base64.RawStdEncoding.DecodeString(encoded)
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	r := reader{buf: buf}
	if v := r.byte(); v != formatVersion {
		return nil, fmt.Errorf("records: unknown format %d", v)
	}
	n := r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		id := r.uint64()
		var rec Record
		rec.Spec, rec.Content = r.uint64(), r.uint64()
		if fields := r.uvarint(); fields > 0 && r.err == nil {
			rec.IgnoredFields = make(map[uint64]uint64, min(fields, 64))
			for j := uint64(0); j < fields && r.err == nil; j++ {
				path := r.uint64()
				rec.IgnoredFields[path] = r.uint64()
			}
		}
		records[id] = rec
	}
	if r.err == nil && len(r.buf) > 0 {
		r.err = errors.New("trailing bytes")
	}
	if r.err != nil {
		return nil, fmt.Errorf("records: %w", r.err)
	}
	return records, nil
}

// reader reads the encoding, remembering the first error.
type reader struct {
	buf []byte
	err error
}

var errShort = errors.New("truncated")

func (r *reader) byte() byte {
	if r.err != nil || len(r.buf) < 1 {
		r.err = errShort
		return 0
	}
	b := r.buf[0]
	r.buf = r.buf[1:]
	return b
}

func (r *reader) uint64() uint64 {
	if r.err != nil || len(r.buf) < 8 {
		r.err = errShort
		return 0
	}
	v := binary.LittleEndian.Uint64(r.buf)
	r.buf = r.buf[8:]
	return v
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.buf = r.buf[n:]
	return v
}
