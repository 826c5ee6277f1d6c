package mutants

import (
	"reflect"
	"slices"
	"sync/atomic"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// The control runs each check through a traced copy of its rules: every
// function field is wrapped to record that it was called and, where the
// field's arguments are plain values and its results comparable, to ask
// each mutant that replaces the field (a shadow) the same question and
// record whether it ever answered differently (reach.go says what that
// decides). The wrappers return the rule's own answers, so the control's
// findings are those of its untraced rules.

// shadow is a mutant asked alongside the control: its id, its rule set
// under the run's tie and how that differs from the control's.
type shadow struct {
	id    string
	rules *model.Rules
	diff  ruleDiff
}

// probe is one function field of one traced run.
type probe struct {
	hit    atomic.Bool
	ids    []string      // the shadows asked, by id
	differ []atomic.Bool // per shadow: it answered differently, or panicked
}

func (p *probe) mark() {
	if !p.hit.Load() {
		p.hit.Store(true)
	}
}

// compare asks every shadow that has agreed so far whether it agrees on
// this call (same(i)).
func (p *probe) compare(same func(i int) bool) {
	for i := range p.differ {
		if !p.differ[i].Load() && !agrees(same, i) {
			p.differ[i].Store(true)
		}
	}
}

// agrees is same(i); a shadow that panics where the rule answered does
// not agree.
func agrees(same func(int) bool, i int) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return same(i)
}

// traced returns a copy of base whose function fields record what the run
// asks (shadows asked alongside), and the function that reads the record
// once the run is over.
func traced(base *model.Rules, shadows []shadow) (*model.Rules, func() *controlTrace) {
	rules := base.Clone()
	v := reflect.ValueOf(rules).Elem()
	probes := make([]*probe, len(ruleFields))
	for i, f := range ruleFields {
		fv := v.FieldByIndex(f.index)
		if !f.fn || fv.IsNil() {
			continue
		}
		p := &probe{}
		var alts []any
		for _, s := range shadows {
			if slices.Contains(s.diff.changed, i) {
				p.ids = append(p.ids, s.id)
				alts = append(alts, reflect.ValueOf(s.rules).Elem().FieldByIndex(f.index).Interface())
			}
		}
		p.differ = make([]atomic.Bool, len(alts))
		w, shadowed := wrap(fv.Interface(), alts, p)
		if w == nil {
			continue // a signature wrap does not know: taken as called by every run
		}
		if !shadowed {
			p.ids, p.differ = nil, nil
		}
		fv.Set(reflect.ValueOf(w))
		probes[i] = p
	}
	return rules, func() *controlTrace {
		t := &controlTrace{reached: make([]bool, len(ruleFields)), agreed: make([]map[string]bool, len(ruleFields))}
		for i, f := range ruleFields {
			p := probes[i]
			switch {
			case !f.fn:
			case p == nil:
				t.reached[i] = true
			default:
				t.reached[i] = p.hit.Load()
				for j, id := range p.ids {
					if !p.differ[j].Load() {
						if t.agreed[i] == nil {
							t.agreed[i] = map[string]bool{}
						}
						t.agreed[i][id] = true
					}
				}
			}
		}
		return t
	}
}

// wrap wraps fn, a rule of a signature Rules uses, with probe p; shadowed
// is true when alts (the shadows' replacements, in p.ids order) are asked
// alongside: only where every argument is a plain value (nothing a rule
// could change under another) and every result compares with ==. It
// returns nil for a signature it does not know.
func wrap(fn any, alts []any, p *probe) (w any, shadowed bool) {
	switch f := fn.(type) {
	// The override layer.
	case func(model.Reg, model.Reg) model.Reg: // Join
		return w2(f, as[func(model.Reg, model.Reg) model.Reg](alts), p, eq), true
	case func(model.Reg, uint32, model.TiePolicy) bool: // Live
		return w3(f, as[func(model.Reg, uint32, model.TiePolicy) bool](alts), p, eq), true
	case func(model.Reg, uint32, bool) (model.Reg, model.Shape): // Canonical
		return w3x2(f, as[func(model.Reg, uint32, bool) (model.Reg, model.Shape)](alts), p, eq, eq), true
	case func(model.Reg, uint32, bool) (model.Reg, error): // MarkUnread, MarkRead
		return w3x2(f, as[func(model.Reg, uint32, bool) (model.Reg, error)](alts), p, eq, sameErr), true
	case func(uint32, uint32) uint32: // UnreadBase, CanonicalFrontier
		return w2(f, as[func(uint32, uint32) uint32](alts), p, eq), true
	case func(string) (uint32, bool): // SanitizeValue
		return w1x2(f, as[func(string) (uint32, bool)](alts), p, eq, eq), true
	case func(model.Group) (model.Reg, error): // ValidateGroup
		return w1x2(f, as[func(model.Group) (model.Reg, error)](alts), p, eq, sameErr), true
	case func(int, int) int: // CountEntries
		return w2(f, as[func(int, int) int](alts), p, eq), true
	case func(string) bool: // BadKeyDiscards, RequireProof
		return w1(f, as[func(string) bool](alts), p, eq), true
	case func(string) (model.KeyKind, string): // GroupKey
		return w1x2(f, as[func(string) (model.KeyKind, string)](alts), p, eq, eq), true
	case func(string) string: // Escape, Unescape
		return w1(f, as[func(string) string](alts), p, eq), true
	// Slots.
	case func(string, model.KeyKind, string) string: // GroupOf
		return w3(f, as[func(string, model.KeyKind, string) string](alts), p, eq), true
	case func([]model.SlotGroup, model.Capacity) ([]int, error): // Assign
		return w2x2(f, nil, p, nil, nil), false
	case func(string, uint32, uint32, bool) bool: // Dominated
		return w4(f, as[func(string, uint32, uint32, bool) bool](alts), p, eq), true
	case func(model.EvictCandidate) (int, bool): // EvictOrder
		return w1x2(f, as[func(model.EvictCandidate) (int, bool)](alts), p, eq, eq), true
	case func([]model.Entry, []model.Entry, []model.Entry) bool: // Republish
		return w3(f, nil, p, nil), false
	case func(int64, int64, bool) int64: // CreatedAt
		return w3(f, as[func(int64, int64, bool) int64](alts), p, eq), true
	case func(model.Self, string, string) model.BlobRole: // Role (Self holds a slice)
		return w3(f, nil, p, nil), false
	case func(string) error: // OverrideKeysFit
		return w1(f, as[func(string) error](alts), p, sameErr), true
	case func(model.DeleteFacts) error: // MayDelete
		return w1(f, as[func(model.DeleteFacts) error](alts), p, sameErr), true
	case func([]model.ChannelMessage) (uint32, bool): // ChannelRead
		return w1x2(f, nil, p, nil, nil), false
	// The full-state load.
	case func() int: // Floor
		return w0(f, as[func() int](alts), p, eq), true
	case func(int) int: // Passes
		return w1(f, as[func(int) int](alts), p, eq), true
	case func(int) bool: // SettleFence
		return w1(f, as[func(int) bool](alts), p, eq), true
	case func(bool) (model.Verdict, model.Reason): // Lost
		return w1x2(f, as[func(bool) (model.Verdict, model.Reason)](alts), p, eq, eq), true
	case func(string, int) nostr.Filter: // EnumerationFilter
		return w2(f, nil, p, nil), false
	case func(*nostr.Event, *nostr.Event) bool: // Retain
		return w2(f, nil, p, nil), false
	case func(*nostr.Event, bool) bool: // CursorFrom
		return w2(f, nil, p, nil), false
	case func(nostr.Timestamp) bool: // PinWindow
		return w1(f, as[func(nostr.Timestamp) bool](alts), p, eq), true
	case func(int, int, int) bool: // Exhausted
		return w3(f, as[func(int, int, int) bool](alts), p, eq), true
	case func(int, int) bool: // Finished, FenceFits
		return w2(f, as[func(int, int) bool](alts), p, eq), true
	case func(bool, bool) bool: // FenceEstablished
		return w2(f, as[func(bool, bool) bool](alts), p, eq), true
	case func(*nostr.Event) bool: // FenceCountsForC, FenceMovesCursor, PushIsResult
		return w1(f, nil, p, nil), false
	case func(uint32) (nostr.Timestamp, bool): // FirstUntil
		return w1x2(f, as[func(uint32) (nostr.Timestamp, bool)](alts), p, eq, eq), true
	case func(nostr.Filter, int, bool) (nostr.Filter, bool): // Retry
		return w3x2(f, nil, p, nil, nil), false
	case func(string, []*nostr.Event) string: // OrderEvidence (the results are a slice)
		return w2(f, nil, p, nil), false
	case func(int, int, bool) bool: // OverLimit
		return w3(f, as[func(int, int, bool) bool](alts), p, eq), true
	}
	return nil, false
}

func as[F any](alts []any) []F {
	out := make([]F, len(alts))
	for i, a := range alts {
		out[i] = a.(F)
	}
	return out
}

func eq[T comparable](a, b T) bool { return a == b }

// sameErr compares errors by identity: a fresh error with the same text
// counts as different (a run may branch on errors.Is).
func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t.Comparable() && a == b
}

// The wrappers, by arity and number of results. With no alts they only
// mark the call.

func w0[R any](f func() R, alts []func() R, p *probe, eq func(R, R) bool) func() R {
	if len(alts) == 0 {
		return func() R { p.mark(); return f() }
	}
	return func() R {
		r := f()
		p.mark()
		p.compare(func(i int) bool { return eq(alts[i](), r) })
		return r
	}
}

func w1[A, R any](f func(A) R, alts []func(A) R, p *probe, eq func(R, R) bool) func(A) R {
	if len(alts) == 0 {
		return func(a A) R { p.mark(); return f(a) }
	}
	return func(a A) R {
		r := f(a)
		p.mark()
		p.compare(func(i int) bool { return eq(alts[i](a), r) })
		return r
	}
}

func w1x2[A, R, S any](f func(A) (R, S), alts []func(A) (R, S), p *probe, eqR func(R, R) bool, eqS func(S, S) bool) func(A) (R, S) {
	if len(alts) == 0 {
		return func(a A) (R, S) { p.mark(); return f(a) }
	}
	return func(a A) (R, S) {
		r, s := f(a)
		p.mark()
		p.compare(func(i int) bool { r2, s2 := alts[i](a); return eqR(r2, r) && eqS(s2, s) })
		return r, s
	}
}

func w2[A, B, R any](f func(A, B) R, alts []func(A, B) R, p *probe, eq func(R, R) bool) func(A, B) R {
	if len(alts) == 0 {
		return func(a A, b B) R { p.mark(); return f(a, b) }
	}
	return func(a A, b B) R {
		r := f(a, b)
		p.mark()
		p.compare(func(i int) bool { return eq(alts[i](a, b), r) })
		return r
	}
}

func w2x2[A, B, R, S any](f func(A, B) (R, S), alts []func(A, B) (R, S), p *probe, eqR func(R, R) bool, eqS func(S, S) bool) func(A, B) (R, S) {
	if len(alts) == 0 {
		return func(a A, b B) (R, S) { p.mark(); return f(a, b) }
	}
	return func(a A, b B) (R, S) {
		r, s := f(a, b)
		p.mark()
		p.compare(func(i int) bool { r2, s2 := alts[i](a, b); return eqR(r2, r) && eqS(s2, s) })
		return r, s
	}
}

func w3[A, B, C, R any](f func(A, B, C) R, alts []func(A, B, C) R, p *probe, eq func(R, R) bool) func(A, B, C) R {
	if len(alts) == 0 {
		return func(a A, b B, c C) R { p.mark(); return f(a, b, c) }
	}
	return func(a A, b B, c C) R {
		r := f(a, b, c)
		p.mark()
		p.compare(func(i int) bool { return eq(alts[i](a, b, c), r) })
		return r
	}
}

func w3x2[A, B, C, R, S any](f func(A, B, C) (R, S), alts []func(A, B, C) (R, S), p *probe, eqR func(R, R) bool, eqS func(S, S) bool) func(A, B, C) (R, S) {
	if len(alts) == 0 {
		return func(a A, b B, c C) (R, S) { p.mark(); return f(a, b, c) }
	}
	return func(a A, b B, c C) (R, S) {
		r, s := f(a, b, c)
		p.mark()
		p.compare(func(i int) bool { r2, s2 := alts[i](a, b, c); return eqR(r2, r) && eqS(s2, s) })
		return r, s
	}
}

func w4[A, B, C, D, R any](f func(A, B, C, D) R, alts []func(A, B, C, D) R, p *probe, eq func(R, R) bool) func(A, B, C, D) R {
	if len(alts) == 0 {
		return func(a A, b B, c C, d D) R { p.mark(); return f(a, b, c, d) }
	}
	return func(a A, b B, c C, d D) R {
		r := f(a, b, c, d)
		p.mark()
		p.compare(func(i int) bool { return eq(alts[i](a, b, c, d), r) })
		return r
	}
}
