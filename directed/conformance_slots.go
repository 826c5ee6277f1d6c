package directed

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// The slot-split conformance cube: canonical candidates dealt into
// coordinates by model.SplitBlob through the rules, under budgets from
// roomy to too small, judged against the spec's text with the check's own
// reading of the wire (wireContext), never the rules' grouping.

// wireContext is the spec's reading of a wire key: ov_s:, ov_c: and ov_b:
// keys are override entries of the raw id after the prefix; every other key
// is a frontier entry whose raw id is the key with exactly one leading esc:
// stripped (Reserved Namespace, unescape-before-group).
func wireContext(key string) (override bool, raw string) {
	for _, p := range []string{model.PrefixS, model.PrefixC, model.PrefixB} {
		if rest, ok := strings.CutPrefix(key, p); ok {
			return true, rest
		}
	}
	return false, strings.TrimPrefix(key, model.EscMarker)
}

// childOf is the spec's child scheme: thread:<64 lowercase hex> and
// msg:<64 lowercase hex> only (Read Context Schemes).
func isChild(raw string) bool {
	for _, p := range []string{"thread:", "msg:"} {
		if rest, ok := strings.CutPrefix(raw, p); ok && len(rest) == 64 && strings.Trim(rest, "0123456789abcdef") == "" {
			return true
		}
	}
	return false
}

func hexID(i int) string { return fmt.Sprintf("%064x", i) }

// The candidates' child contexts; splitParent resolves the first five to
// the channel "chan" and leaves the sixth unresolved.
var (
	childIDs    = []string{"thread:" + hexID(1), "thread:" + hexID(2), "msg:" + hexID(3), "msg:" + hexID(4), "thread:" + hexID(5), "thread:" + hexID(6)}
	splitParent = func(raw string) (string, bool) {
		if i := slices.Index(childIDs, raw); i >= 0 && i < 5 {
			return "chan", true
		}
		return "", false
	}
)

func fillers(prefix string, n int, base uint32) []model.Entry {
	out := make([]model.Entry, n)
	for i := range out {
		out[i] = model.Entry{Key: fmt.Sprintf("%s%02d", prefix, i), Value: base + uint32(i)}
	}
	return out
}

func live(ctx string, s, c, b uint32) []model.Entry {
	return []model.Entry{{Key: model.PrefixS + ctx, Value: s}, {Key: model.PrefixC + ctx, Value: c}, {Key: model.PrefixB + ctx, Value: b}}
}

// splitCandidates are canonical candidate blobs as a publisher holds them:
// frontier-only contexts whose keys sort before the override-bearing ones
// (so a deal that ignores the primary pin moves them out), a reserved id
// published escaped, children dominated or not by their channel, and a
// state whose floors alone outgrow small coordinates.
var splitCandidates = []struct {
	name    string
	entries func() []model.Entry
}{
	{"escaped reserved id", func() []model.Entry {
		es := append(fillers("a", 30, 100), model.Entry{Key: "esc:ov_s:evil", Value: 10}, model.Entry{Key: "esc:esc:x", Value: 5})
		return append(es, live("ov_s:evil", 1, 0, 10)...)
	}},
	{"override sorting last", func() []model.Entry {
		es := append(fillers("a", 40, 100), model.Entry{Key: "zz", Value: 50}, model.Entry{Key: "zy", Value: 60}, model.Entry{Key: model.PrefixC + "zy", Value: 4})
		return append(es, live("zz", 3, 2, 50)...)
	}},
	{"children of a channel", func() []model.Entry {
		es := append(fillers("a", 20, 100), model.Entry{Key: "chan", Value: 100},
			model.Entry{Key: childIDs[0], Value: 90}, model.Entry{Key: childIDs[1], Value: 150},
			model.Entry{Key: childIDs[2], Value: 100}, model.Entry{Key: childIDs[3], Value: 120},
			model.Entry{Key: childIDs[4], Value: 50}, model.Entry{Key: childIDs[5], Value: 10},
			model.Entry{Key: "msg:short", Value: 5})
		return append(es, live(childIDs[4], 1, 0, 100)...)
	}},
	{"sixty floors", func() []model.Entry {
		es := fillers("a", 20, 100)
		for i := range 60 {
			ctx := fmt.Sprintf("o%02d", i)
			es = append(es, model.Entry{Key: ctx, Value: 200 + uint32(i)}, model.Entry{Key: model.PrefixC + ctx, Value: uint32(i%9 + 1)})
		}
		return es
	}},
}

var splitBudgets = []struct {
	name string
	b    model.Budget
}{
	{"default", model.DefaultBudget()},
	{"400 bytes", model.Budget{PlaintextBytes: 400}},
	{"400 bytes, 2 coordinates", model.Budget{PlaintextBytes: 400, MaxCoordinates: 2}},
	{"8 entries per coordinate", model.Budget{PlaintextBytes: model.PlaintextBudget, MaxEntries: 8}},
	{"horizon 60", model.Budget{PlaintextBytes: model.PlaintextBudget, Horizon: 40, Now: 100}},
	{"250 bytes", model.Budget{PlaintextBytes: 250}},
}

func candidateNames() []string {
	var out []string
	for _, c := range splitCandidates {
		out = append(out, c.name)
	}
	return out
}

func budgetNames() []string {
	var out []string
	for _, b := range splitBudgets {
		out = append(out, b.name)
	}
	return out
}

// slotConformance (tie-independent): over every candidate and budget, the
// split keeps each logical context's entries in one coordinate, keeps every
// ov_* entry and the frontier entry of its context in the primary, never
// evicts an ov_* entry, evicts frontier entries only as dominated children
// (at or below their resolved channel), past the horizon or for the budget,
// publishes exactly the candidate minus what it evicted, respects the
// budget, gives the same plan for the entries in any order, and refuses
// exactly when it must: always when the ov_* entries alone outgrow a
// coordinate, never when they fit with their frontier entries.
func slotConformance() *Check {
	return &Check{
		Key: "slot-split-conformance", Label: "C2", Name: "slot split as the Co-Location, Budget and Eviction rules state",
		Params:         []Param{{Name: "candidate", Enum: candidateNames()}, {Name: "budget", Enum: budgetNames()}},
		TieIndependent: true,
		Cube: func(*model.Rules) []Point {
			return product(seq(len(splitCandidates)), seq(len(splitBudgets)))
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				c, b := splitCandidates[p[0]], splitBudgets[p[1]]
				cand := model.Blob{V: 1, ClientID: "client-aabbccdd", Contexts: model.SortEntries(c.entries())}
				if v, d := judgeSplit(rules, cand, b.b); v != "" {
					return Outcome{Violation: v, Detail: fmt.Sprintf("%s under %s: %s", c.name, b.name, d)}
				}
				return Outcome{}
			}
		},
	}
}

// Invariants of the slot-split cube.
const (
	InvSplitRefusal     = "C2-split-refusal"
	InvSplitBudget      = "C2-split-over-budget"
	InvSplitUnion       = "C2-split-not-the-candidate"
	InvSplitEviction    = "C2-split-eviction"
	InvSplitCoLocation  = "C2-split-override-outside-primary"
	InvSplitGroupWhole  = "C2-split-group-divided"
	InvSplitDeterminism = "C2-split-not-deterministic"
)

func judgeSplit(rules *model.Rules, cand model.Blob, budget model.Budget) (string, string) {
	capBytes, err := budget.BlobCapacity()
	if err != nil {
		return "", "" // no such budget in the cube
	}
	maxEntries := budget.MaxEntries
	if maxEntries == 0 {
		maxEntries = model.MaxEntries
	}
	front := map[string]uint32{}
	overrideCtx := map[string]bool{}
	for _, e := range cand.Contexts {
		if ov, raw := wireContext(e.Key); ov {
			overrideCtx[raw] = true
		} else {
			front[raw] = max(front[raw], e.Value)
		}
	}
	dominated := func(raw string, v uint32) bool {
		if !isChild(raw) {
			return false
		}
		p, ok := splitParent(raw)
		return ok && v <= front[p]
	}
	var ovOnly, required []model.Entry
	for _, e := range cand.Contexts {
		ov, raw := wireContext(e.Key)
		if ov {
			ovOnly = append(ovOnly, e)
		}
		if ov || overrideCtx[raw] && !dominated(raw, e.Value) {
			required = append(required, e)
		}
	}
	fits := func(es []model.Entry) bool {
		return len(es) <= maxEntries && model.EncodedSize(model.Blob{V: cand.V, ClientID: cand.ClientID, Contexts: es}) <= capBytes
	}

	sp, err := model.SplitBlob(rules, cand, budget, splitParent)
	rev := slices.Clone(cand.Contexts)
	slices.Reverse(rev)
	sp2, err2 := model.SplitBlob(rules, model.Blob{V: cand.V, ClientID: cand.ClientID, Contexts: rev}, budget, splitParent)
	if (err == nil) != (err2 == nil) || err == nil && !samePlan(sp, sp2) {
		return InvSplitDeterminism, fmt.Sprintf("sorted entries: %s; reversed entries: %s", planString(sp, err), planString(sp2, err2))
	}
	if err != nil {
		if fits(required) {
			return InvSplitRefusal, fmt.Sprintf("refused (%v) though the override groups fit one coordinate (%d entries)", err, len(required))
		}
		return "", ""
	}
	if !fits(ovOnly) {
		return InvSplitRefusal, fmt.Sprintf("published though the ov_* entries alone (%d) exceed one coordinate: %s", len(ovOnly), planString(sp, nil))
	}
	if budget.MaxCoordinates > 0 && len(sp.Blobs) > budget.MaxCoordinates {
		return InvSplitBudget, fmt.Sprintf("%d coordinates, at most %d allowed", len(sp.Blobs), budget.MaxCoordinates)
	}
	where := map[string]int{}
	seen := map[string]uint32{}
	for i, part := range sp.Blobs {
		if part.V != cand.V || part.ClientID != cand.ClientID {
			return InvSplitUnion, fmt.Sprintf("coordinate %d has v=%d client_id=%q", i, part.V, part.ClientID)
		}
		if size := model.EncodedSize(part); size > capBytes || len(part.Contexts) > maxEntries {
			return InvSplitBudget, fmt.Sprintf("coordinate %d is %d bytes in %d entries (capacity %d bytes, %d entries)", i, size, len(part.Contexts), capBytes, maxEntries)
		}
		for _, e := range part.Contexts {
			if _, dup := seen[e.Key]; dup {
				return InvSplitUnion, fmt.Sprintf("%s published twice", e.Key)
			}
			seen[e.Key] = e.Value
			_, raw := wireContext(e.Key)
			if j, ok := where[raw]; ok && j != i {
				return InvSplitGroupWhole, fmt.Sprintf("context %q has entries in coordinates %d and %d: %s", raw, j, i, planString(sp, nil))
			}
			where[raw] = i
		}
	}
	for _, ev := range sp.Evicted {
		if _, dup := seen[ev.Key]; dup {
			return InvSplitUnion, fmt.Sprintf("%s both published and evicted", ev.Key)
		}
		seen[ev.Key] = ev.Value
		ov, raw := wireContext(ev.Key)
		switch {
		case ov:
			return InvSplitEviction, fmt.Sprintf("ov_* entry %s:%d evicted (%s)", ev.Key, ev.Value, ev.Reason)
		case ev.Reason == model.EvictDominated && !dominated(raw, ev.Value):
			return InvSplitEviction, fmt.Sprintf("%s:%d evicted as dominated, but its channel does not cover it", ev.Key, ev.Value)
		case ev.Reason == model.EvictHorizon && (budget.Horizon <= 0 || int64(ev.Value) >= budget.Now-budget.Horizon):
			return InvSplitEviction, fmt.Sprintf("%s:%d evicted for the horizon, which does not reach it", ev.Key, ev.Value)
		}
	}
	if len(seen) != len(cand.Contexts) {
		return InvSplitUnion, fmt.Sprintf("%d entries published or evicted, the candidate has %d", len(seen), len(cand.Contexts))
	}
	for _, e := range cand.Contexts {
		if v, ok := seen[e.Key]; !ok || v != e.Value {
			return InvSplitUnion, fmt.Sprintf("candidate entry %s:%d is neither published nor evicted as it is", e.Key, e.Value)
		}
		ov, raw := wireContext(e.Key)
		if j, ok := where[raw]; ok && (ov || overrideCtx[raw]) && j != 0 {
			return InvSplitCoLocation, fmt.Sprintf("override-bearing context %q is in coordinate %d, not the primary: %s", raw, j, planString(sp, nil))
		}
	}
	return "", ""
}

func samePlan(a, b model.SplitPlan) bool {
	if len(a.Blobs) != len(b.Blobs) || !slices.Equal(a.Evicted, b.Evicted) {
		return false
	}
	for i := range a.Blobs {
		if !slices.Equal(a.Blobs[i].Contexts, b.Blobs[i].Contexts) {
			return false
		}
	}
	return true
}

// planString renders a plan compactly: each coordinate's keys, then the
// evicted keys.
func planString(sp model.SplitPlan, err error) string {
	if err != nil {
		return "refused: " + err.Error()
	}
	var parts []string
	for i, b := range sp.Blobs {
		var ks []string
		for _, e := range b.Contexts {
			ks = append(ks, e.Key)
		}
		if n := len(ks); n > 6 {
			ks = []string{ks[0], ks[1], ks[2], fmt.Sprintf("…%d more…", n-5), ks[n-2], ks[n-1]}
		}
		parts = append(parts, fmt.Sprintf("coordinate %d {%s}", i, strings.Join(ks, ", ")))
	}
	var ev []string
	for _, e := range sp.Evicted {
		ev = append(ev, e.Key+"("+e.Reason.String()+")")
	}
	if len(ev) > 0 {
		parts = append(parts, "evicted {"+strings.Join(ev, ", ")+"}")
	}
	return strings.Join(parts, "; ")
}
