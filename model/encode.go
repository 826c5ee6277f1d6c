package model

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// EncodeBlob serialises a blob deterministically: the fixed top-level order
// {"v","client_id","contexts"} and contexts keys in sorted order, strings
// escaped as encoding/json does. It encodes what it is given; canonical
// publication is the replica's job (Replica.Candidate).
func EncodeBlob(b Blob) []byte {
	es := b.Contexts
	if !strictlySorted(es) {
		es = SortEntries(slices.Clone(es))
	}
	n := 40 + len(b.ClientID)
	for _, e := range es {
		n += len(e.Key) + 14 // quotes, colon, comma, up to 10 digits
	}
	buf := make([]byte, 0, n)
	buf = append(buf, `{"v":`...)
	buf = strconv.AppendInt(buf, int64(b.V), 10)
	buf = append(buf, `,"client_id":`...)
	buf = appendJSONString(buf, b.ClientID)
	buf = append(buf, `,"contexts":{`...)
	for i, e := range es {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendJSONString(buf, e.Key)
		buf = append(buf, ':')
		buf = strconv.AppendUint(buf, uint64(e.Value), 10)
	}
	return append(buf, "}}"...)
}

// EncodedSize is len(EncodeBlob(b)), the plaintext size the 32 KiB budget
// is measured on (Bounds and Budget).
func EncodedSize(b Blob) int { return len(EncodeBlob(b)) }

func appendJSONString(buf []byte, s string) []byte {
	if isPlainASCII(s) {
		buf = append(buf, '"')
		buf = append(buf, s...)
		return append(buf, '"')
	}
	q, _ := json.Marshal(s) // a string always marshals
	return append(buf, q...)
}

// isPlainASCII reports whether s needs no JSON escaping at all.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// strictlySorted reports whether keys are in increasing order with no
// repeats, so EncodeBlob never writes a duplicate key.
func strictlySorted(es []Entry) bool {
	for i := 1; i < len(es); i++ {
		if strings.Compare(es[i-1].Key, es[i].Key) >= 0 {
			return false
		}
	}
	return true
}
