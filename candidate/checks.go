package candidate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// The encoding world's invariants. I2 and I3 are the reference universe's
// (exhaustive's IDs); I7 and ID state two rows of the formal note's
// comparison as invariants over every checked state, for any encoding.
const (
	InvRegression  = exhaustive.InvRegression
	InvConvergence = exhaustive.InvConvergence
	// InvLegacyRewrite: a production legacy client reading an upgraded
	// device's publication and republishing it (same slot) must not change
	// what an upgraded reader of the publication holds.
	InvLegacyRewrite = "I7-legacy-rewrite"
	// InvIdentity: no verdict may depend on how client ids compare; the
	// ids are random per installation (a reinstall draws a new one), so an
	// outcome they decide is decided arbitrarily.
	InvIdentity = "ID-identity-free"
)

const (
	unitSteps search.Unit = iota
	unitStates
	unitPublications
)

var unitNames = []string{"steps", "states", "publications"}

// Table is the encoding world's invariant table, in precedence order.
var Table = []search.Invariant{
	{ID: InvRegression, Label: "I3", Doc: "no frontier regression (every executed transition)", Unit: unitSteps,
		Section: "Merge Rule"},
	{ID: InvConvergence, Label: "I2", Doc: "convergence at the bound (every delivery order, per device)", Unit: unitStates,
		Section: "Merge Rule, Wire Encoding"},
	{ID: InvLegacyRewrite, Label: "I7", Doc: "a legacy rewrite of every upgraded publication changes nothing an upgraded reader holds", Unit: unitPublications,
		Section: "Backwards Compatibility, Wire Encoding"},
	{ID: InvIdentity, Label: "ID", Doc: "no verdict depends on how client ids compare (ids mirrored, every publication received)", Unit: unitStates,
		Section: "Merge Rule, Client-ID Rotation"},
}

type finding struct {
	inv    string
	detail string
}

func indexed(fs []finding) []search.Finding {
	if len(fs) == 0 {
		return nil
	}
	out := make([]search.Finding, len(fs))
	for i, f := range fs {
		k := search.Index(Table, f.inv)
		if k < 0 {
			panic("candidate: a check emitted " + f.inv + ", which the table does not declare") // a programming error
		}
		out[i] = search.Finding{Inv: k, Detail: f.detail}
	}
	return out
}

// stateChecks runs the state invariants on a row; callers hold w.mu.
func (w *world) stateChecks(row []int32, tl *search.Tally) []finding {
	var out []finding
	tl.Add(unitStates, 1)
	if f, ok := w.convergence(row); !ok {
		out = append(out, f)
	}
	for dev, id := range row {
		if w.u.Devices[dev].Legacy {
			continue
		}
		tl.Add(unitPublications, 1)
		if f, ok := w.legacyRewrite(dev, id); !ok {
			out = append(out, f)
		}
	}
	if f, ok := w.identity(row); !ok {
		out = append(out, f)
	}
	return out
}

// convergence is the reference universe's I2: every device publishes once;
// for every order of those publications a copy of every upgraded device
// receives all of them (its own included); each device's verdicts must not
// depend on the order.
func (w *world) convergence(row []int32) (finding, bool) {
	pubs := make([]int32, len(row))
	for i := range row {
		pubs[i] = w.pubOf(i, row[i])
	}
	perms := exhaustive.Permutations(len(row))
	got := make([][]bool, len(perms))
	for dev := range row {
		if w.u.Devices[dev].Legacy {
			continue
		}
		for k, p := range perms {
			x := row[dev]
			for _, src := range p {
				x = w.receive(dev, pubs[src], x).next
			}
			got[k] = append(got[k], w.verdicts(w.devs[dev].state[x])...)
		}
	}
	agree := true
	for k := range got {
		agree = agree && slices.Equal(got[0], got[k])
	}
	if agree {
		return finding{}, true
	}
	var outcomes []string
	seen := map[string]bool{}
	for k, p := range perms {
		if o := w.describe(got[k]); !seen[o] {
			seen[o] = true
			outcomes = append(outcomes, "order "+exhaustive.OrderString(p)+": "+o)
		}
	}
	return finding{InvConvergence, "verdicts depend on delivery order; " + strings.Join(outcomes, "; ")}, false
}

func (w *world) verdicts(d Device) []bool {
	out := make([]bool, len(w.u.Contexts))
	for i, ctx := range w.u.Contexts {
		out[i] = d.Live(ctx)
	}
	return out
}

// describe renders the upgraded devices' verdicts, in device order.
func (w *world) describe(live []bool) string {
	var parts []string
	i := 0
	for dev, spec := range w.u.Devices {
		if spec.Legacy {
			continue
		}
		var cs []string
		for _, ctx := range w.u.Contexts {
			cs = append(cs, ctx+"="+liveWord(live[i]))
			i++
		}
		parts = append(parts, fmt.Sprintf("d%d(%s)", dev, strings.Join(cs, ",")))
	}
	return strings.Join(parts, " ")
}

// legacyRewrite checks one upgraded device state (memoised): its
// publication, and the same publication after a production legacy client
// (model.LegacyCarry, reading through model.ParseBlobLegacy) received it and
// republished, must leave two fresh upgraded readers in the same state.
func (w *world) legacyRewrite(dev int, id int32) (finding, bool) {
	t := w.devs[dev]
	if t.legC[id] == 0 {
		t.legC[id], t.legD[id] = 1, ""
		if d := legacyRewriteDiff(w.enc, w.rules, t.state[id], w.u.Contexts, model.LegacyCarry); d != "" {
			t.legC[id], t.legD[id] = 2, fmt.Sprintf("d%d: %s", dev, d)
		}
	}
	return finding{InvLegacyRewrite, t.legD[id]}, t.legC[id] == 1
}

// legacyRewriteDiff is what a rewrite of d's publication by a legacy client
// in mode changes for an upgraded reader, or "" when nothing. The world
// uses the production legacy client (model.LegacyCarry).
func legacyRewriteDiff(enc Encoding, rules *model.Rules, d Device, ctxs []string, mode model.LegacyMode) string {
	pub := d.Publish()
	legacy := NewLegacy("legacy", mode)
	if err := legacy.Receive(pub); err != nil {
		return "the legacy reader refuses the publication: " + err.Error()
	}
	rewritten := legacy.Publish()
	direct, viaLegacy := enc.Upgraded("reader", rules), enc.Upgraded("reader", rules)
	errD, errL := direct.Receive(pub), viaLegacy.Receive(rewritten)
	if errD == nil && errL == nil && string(direct.AppendKey(nil)) == string(viaLegacy.AppendKey(nil)) {
		return ""
	}
	return fmt.Sprintf("published %s; after a legacy rewrite %s; a reader of the publication holds [%s], a reader of the rewrite [%s]",
		pub, rewritten, direct.View(ctxs), viaLegacy.View(ctxs))
}

// identity compares the upgraded devices' verdicts after each receives
// every publication (in device order) with the same after every client id
// in the state is mirrored: the i-th smallest id becomes the i-th largest.
// A renaming of random ids is as likely as the original, so a verdict that
// changes is decided by the ids, not by what the users did. Callers hold
// w.mu; the renamed states are interned like any other, so every receipt
// is memoised.
func (w *world) identity(row []int32) (finding, bool) {
	var names []string
	for dev, id := range row {
		names = append(names, w.devs[dev].state[id].IDs()...)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	mirror := map[string]string{}
	for i, n := range names {
		mirror[n] = names[len(names)-1-i]
	}
	rename := func(s string) string {
		if m, ok := mirror[s]; ok {
			return m
		}
		return s
	}
	renamed := make([]int32, len(row))
	for dev, id := range row {
		renamed[dev] = w.intern(dev, w.devs[dev].state[id].Renamed(rename))
	}
	a, b := w.afterAll(row), w.afterAll(renamed)
	if slices.Equal(a, b) {
		return finding{}, true
	}
	var pairs []string
	for _, n := range names {
		if n < mirror[n] {
			pairs = append(pairs, n+"<->"+mirror[n])
		}
	}
	return finding{InvIdentity, fmt.Sprintf("after every publication is received: %s; with client ids mirrored (%s): %s",
		w.describe(a), strings.Join(pairs, ", "), w.describe(b))}, false
}

// afterAll is every upgraded device's verdicts after receiving every
// device's publication, in device order; callers hold w.mu.
func (w *world) afterAll(row []int32) []bool {
	var out []bool
	for dev, id := range row {
		if w.u.Devices[dev].Legacy {
			continue
		}
		x := id
		for src := range row {
			x = w.receive(dev, w.pubOf(src, row[src]), x).next
		}
		out = append(out, w.verdicts(w.devs[dev].state[x])...)
	}
	return out
}
