package model

import (
	"slices"
	"strconv"
	"strings"
)

// Legacy client behaviour: what a client without the override layer does
// with a blob. The checks use these functions to model a legacy device. Such
// a client knows only frontier entries, so every key it does not understand,
// ov_s:/ov_c:/ov_b: and esc: keys included, is an opaque context to it,
// kept, max-merged per wire key and republished verbatim. Its pruning and
// trimming recognise child contexts by a bare msg:/thread: prefix.

// LegacySanitize is a legacy client's per-entry sanitising of entries whose
// values are already uint32: every key of at most 256 bytes is kept, opaque,
// with no override-group validation. The result is sorted and unique
// (duplicate keys: last wins); drops are sorted by key.
func LegacySanitize(entries []Entry) ([]Entry, []Drop) {
	kept := make([]Entry, 0, len(entries))
	var drops []Drop
	for _, e := range entries {
		if len(e.Key) > MaxKeyBytes {
			drops = append(drops, Drop{Key: e.Key, Reason: ReasonKeyTooLong})
			continue
		}
		kept = append(kept, e)
	}
	return SortEntries(kept), sortDrops(drops)
}

// ParseBlobLegacy parses plaintext as a legacy client does: the blob-level
// rules are those of ParseBlobWith, and every entry is then judged on its
// own (key valid UTF-8 and at most 256 bytes, value through
// rules.SanitizeValue), override keys included, with no group rule.
func ParseBlobLegacy(rules *Rules, data []byte) (Blob, Report, error) {
	if rules == nil {
		rules = Proposed()
	}
	doc, rep, raws, err := scanContexts(rules, data)
	if err != nil {
		return Blob{}, Report{}, err
	}
	es := make([]Entry, 0, len(raws))
	for _, r := range raws {
		v, reason := entryValue(rules, r)
		if kr := keyReason(r); kr != "" {
			reason = kr
		}
		if reason != "" {
			rep.Drops = append(rep.Drops, Drop{Key: r.key, Reason: reason})
			continue
		}
		es = append(es, Entry{Key: r.key, Value: v})
	}
	rep.Drops = sortDrops(rep.Drops)
	return Blob{V: 1, ClientID: doc.clientID, Contexts: SortEntries(es)}, rep, nil
}

// LegacyPrune drops child entries older than the horizon: keys starting with
// msg: or thread: (any remainder; legacy clients do not check the 64-hex
// shape) whose value is below horizon. Every other key, ov_* included, is
// kept. The input is not modified.
func LegacyPrune(entries []Entry, horizon uint32) []Entry {
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if ChildPrefixed(e.Key) && e.Value < horizon {
			continue
		}
		out = append(out, e)
	}
	return out
}

// LegacyTrim fits a blob into maxBytes of encoded plaintext the way a legacy
// client does: it evicts only msg:/thread:-prefixed entries, lowest value
// first (ties by key), until EncodeBlob's output fits. Channel frontiers and
// opaque keys, ov_* included, are never evicted, so the result may still
// not fit; fits reports whether it does. The result is sorted; the input is
// not modified.
func LegacyTrim(clientID string, entries []Entry, maxBytes int) ([]Entry, bool) {
	es := SortEntries(slices.Clone(entries))
	size := EncodedSize(Blob{V: 1, ClientID: clientID, Contexts: es})
	if size <= maxBytes {
		return es, true
	}
	var victims []Entry
	for _, e := range es {
		if ChildPrefixed(e.Key) {
			victims = append(victims, e)
		}
	}
	slices.SortFunc(victims, func(a, b Entry) int {
		if a.Value != b.Value {
			if a.Value < b.Value {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Key, b.Key)
	})
	evict := make(map[string]bool, len(victims))
	n := len(es)
	for _, v := range victims {
		if size <= maxBytes {
			break
		}
		// An entry costs its encoding plus the comma separating it from a
		// neighbour (the last remaining entry has none).
		size -= entrySize(v)
		if n > 1 {
			size--
		}
		n--
		evict[v.Key] = true
	}
	out := es[:0]
	for _, e := range es {
		if !evict[e.Key] {
			out = append(out, e)
		}
	}
	return out, size <= maxBytes
}

// entrySize is the number of bytes EncodeBlob spends on e, without commas.
func entrySize(e Entry) int {
	return len(appendJSONString(nil, e.Key)) + 1 + len(strconv.FormatUint(uint64(e.Value), 10))
}
