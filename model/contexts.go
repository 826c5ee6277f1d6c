package model

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Entry is one key of a blob's contexts map as it stands on the wire.
type Entry struct {
	Key   string
	Value uint32
}

// Blob is a validated plaintext blob (Content). Contexts are sorted by key
// with no duplicates when produced by this package.
type Blob struct {
	V        int
	ClientID string
	Contexts []Entry
}

// Value returns the value of wire key k, if present.
func (b Blob) Value(k string) (uint32, bool) {
	for _, e := range b.Contexts {
		if e.Key == k {
			return e.Value, true
		}
	}
	return 0, false
}

// SortEntries sorts entries by key, keeping the last of equal keys
// (duplicate keys: last wins).
func SortEntries(es []Entry) []Entry {
	slices.SortStableFunc(es, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	out := es[:0]
	for i, e := range es {
		if i+1 < len(es) && es[i+1].Key == e.Key {
			continue
		}
		out = append(out, e)
	}
	return out
}

// Slot is one component of a collected override group as it arrived: Present
// when the key was in the blob, Valid when its key fits 256 bytes and its
// value is a uint32.
type Slot struct {
	Present bool
	Valid   bool
	Value   uint32
}

// Group is every ov_s:/ov_c:/ov_b: entry of one raw context, collected
// before any decoding (Content Validation).
type Group struct {
	Ctx     string
	S, C, B Slot
}

// Put places one collected component in the group by its key kind.
func (g *Group) Put(kind KeyKind, s Slot) {
	switch kind {
	case KeyS:
		g.S = s
	case KeyC:
		g.C = s
	case KeyB:
		g.B = s
	}
}

// Group rejection reasons.
var (
	ErrGroupPartial = errors.New("override group is neither a complete live triple nor a lone ov_c floor")
	ErrGroupInvalid = errors.New("override group has an invalid sibling (value not uint32 or key over 256 bytes)")
)

// validateGroup is the production group rule: accept exactly (a) a complete
// live triple of valid values or (b) a lone valid ov_c floor; reject every
// other shape whole (the frontier entry of the context is kept by the
// caller).
func validateGroup(g Group) (Reg, error) {
	switch {
	case g.S.Present && g.C.Present && g.B.Present:
		if !g.S.Valid || !g.C.Valid || !g.B.Valid {
			return Reg{}, ErrGroupInvalid
		}
		return Reg{S: g.S.Value, C: g.C.Value, B: g.B.Value}, nil
	case g.C.Present && !g.S.Present && !g.B.Present:
		if !g.C.Valid {
			return Reg{}, ErrGroupInvalid
		}
		return Reg{C: g.C.Value}, nil
	}
	return Reg{}, ErrGroupPartial
}

// sanitizeValue accepts a JSON number literal only if it is a plain
// non-negative integer (no sign, fraction or exponent) no larger than MaxU32.
// 1.0 and 1e3 are rejected: see NOTE.md, "Integer literals".
func sanitizeValue(lit string) (uint32, bool) {
	if lit == "" || len(lit) > 10 {
		return 0, false
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] < '0' || lit[i] > '9' {
			return 0, false
		}
	}
	if len(lit) > 1 && lit[0] == '0' {
		return 0, false // not a JSON number
	}
	v, err := strconv.ParseUint(lit, 10, 32)
	if err != nil {
		return 0, false
	}
	return uint32(v), true
}

// RawEntry is a contexts entry before validation: Valid is false when the
// value failed Rules.SanitizeValue (its Value is then meaningless).
type RawEntry struct {
	Key   string
	Value uint32
	Valid bool
}

// Frontier is a decoded frontier entry keyed by raw context id.
type Frontier struct {
	Ctx   string
	Value uint32
}

// Override is a decoded, accepted override register.
type Override struct {
	Ctx string
	Reg Reg
}

// Drop records one entry or group that validation discarded.
type Drop struct {
	Key    string // the wire key, or ov_*:<ctx> for a group
	Reason string
}

// Decoded is a contexts map split into frontiers and registers. Frontiers
// and Overrides are sorted by raw context id.
type Decoded struct {
	Frontiers []Frontier
	Overrides []Override
	Drops     []Drop
}

// Decode validates and decodes contexts entries through rules: override
// entries are collected per raw context and validated as groups before any
// decoding; frontier entries are dropped one by one (key over 256 bytes,
// invalid value) and unescaped, the larger value winning when an escaped
// and a plain wire key name the same raw context.
func Decode(rules *Rules, entries []RawEntry) Decoded {
	var d Decoded
	type ov struct {
		ctx  string
		kind KeyKind
		e    RawEntry
	}
	var ovs []ov
	for _, e := range entries {
		kind, ctx := rules.GroupKey(e.Key)
		if kind != KeyFrontier {
			ovs = append(ovs, ov{ctx, kind, e})
			continue
		}
		ctx = rules.Unescape(e.Key) // receive side: strip one esc: (Reserved Namespace)
		switch {
		case len(e.Key) > MaxKeyBytes:
			d.Drops = append(d.Drops, Drop{e.Key, "key over 256 bytes"})
		case !e.Valid:
			d.Drops = append(d.Drops, Drop{e.Key, "value not an integer in 0..4294967295"})
		default:
			d.Frontiers = append(d.Frontiers, Frontier{ctx, e.Value})
		}
	}
	slices.SortStableFunc(d.Frontiers, func(a, b Frontier) int { return strings.Compare(a.Ctx, b.Ctx) })
	d.Frontiers = dedupeMax(d.Frontiers)
	if len(ovs) == 0 {
		return d
	}
	slices.SortStableFunc(ovs, func(a, b ov) int { return strings.Compare(a.ctx, b.ctx) })
	for i := 0; i < len(ovs); {
		j := i
		g := Group{Ctx: ovs[i].ctx}
		for ; j < len(ovs) && ovs[j].ctx == g.Ctx; j++ {
			g.Put(ovs[j].kind, Slot{Present: true, Valid: ovs[j].e.Valid && len(ovs[j].e.Key) <= MaxKeyBytes, Value: ovs[j].e.Value})
		}
		if r, err := rules.ValidateGroup(g); err != nil {
			d.Drops = append(d.Drops, Drop{"ov_*:" + g.Ctx, err.Error()})
		} else {
			d.Overrides = append(d.Overrides, Override{g.Ctx, r})
		}
		i = j
	}
	return d
}

// Raw converts validated wire entries to RawEntry values.
func Raw(es []Entry) []RawEntry {
	out := make([]RawEntry, len(es))
	for i, e := range es {
		out[i] = RawEntry{Key: e.Key, Value: e.Value, Valid: true}
	}
	return out
}

func (d Drop) String() string { return fmt.Sprintf("%s: %s", d.Key, d.Reason) }

// dedupeMax collapses runs of equal Ctx in a sorted slice, keeping the max.
func dedupeMax(fs []Frontier) []Frontier {
	out := fs[:0]
	for _, f := range fs {
		if n := len(out); n > 0 && out[n-1].Ctx == f.Ctx {
			out[n-1].Value = max(out[n-1].Value, f.Value)
			continue
		}
		out = append(out, f)
	}
	return out
}
