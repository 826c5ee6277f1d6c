package model

import (
	"slices"
	"strings"
)

// ParentResolver derives a thread:/msg: context's parent channel from the
// event graph (Read Context Schemes); ok is false when it cannot be resolved.
// A nil resolver resolves nothing.
type ParentResolver func(raw string) (parent string, ok bool)

// Effective is the hierarchical frontier rule: a thread: or msg: context
// takes max(own, own(parent)); a channel, an opaque id, or an unresolvable
// child takes its own value (Hierarchical Frontier Rule).
func Effective(own func(string) uint32, parent ParentResolver, ctx string) uint32 {
	v := own(ctx)
	if parent == nil || ContextScheme(ctx) == SchemeOpaque {
		return v
	}
	if p, ok := parent(ctx); ok {
		return max(v, own(p))
	}
	return v
}

// Unread is the unread verdict (Liveness Predicate): a message newer than the
// effective frontier, or an active override.
func Unread(latest, effective uint32, live bool) bool {
	return latest > effective || live
}

// State is the merge of any number of blobs: frontier max per raw context and
// registers joined componentwise.
type State struct {
	Frontiers map[string]uint32
	Regs      map[string]Reg
}

// MergeBlobs merges blobs through rules (Merge Rule; Fetching step 4).
func MergeBlobs(rules *Rules, blobs ...Blob) State {
	st := State{Frontiers: map[string]uint32{}, Regs: map[string]Reg{}}
	for _, b := range blobs {
		d := Decode(rules, Raw(b.Contexts))
		for _, f := range d.Frontiers {
			st.Frontiers[f.Ctx] = max(st.Frontiers[f.Ctx], f.Value)
		}
		for _, o := range d.Overrides {
			st.Regs[o.Ctx] = rules.Join(st.Regs[o.Ctx], o.Reg)
		}
	}
	return st
}

// Effective is the state's effective frontier of ctx.
func (s State) Effective(parent ParentResolver, ctx string) uint32 {
	return Effective(func(c string) uint32 { return s.Frontiers[c] }, parent, ctx)
}

// needsRepublish is the re-publish decision of Live Subscription and
// Convergence, rules 2 and 3: true iff some entry of the canonical candidate
// differs from, or is absent in, the canonical last-published blob. Both
// arguments are canonical wire entries; debounce is the caller's.
func needsRepublish(candidate, lastPublished []Entry) bool {
	last := make(map[string]uint32, len(lastPublished))
	for _, e := range lastPublished {
		last[e.Key] = e.Value
	}
	for _, e := range candidate {
		if v, ok := last[e.Key]; !ok || v != e.Value {
			return true
		}
	}
	return false
}

// sortedKeys returns map keys in order, for deterministic iteration.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, strings.Compare)
	return ks
}
