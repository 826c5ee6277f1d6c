package history

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// KindHistory is the witness kind of this universe's witnesses.
const KindHistory = witnessfile.KindHistory

// UniverseName names the universe in witness files.
const UniverseName = "walk"

func (u UniverseConfig) params() witnessfile.Params {
	p := witnessfile.Params{
		{Name: "page", Num: int64(u.Round.PageWraps)},
		{Name: "catch-up-pages", Num: int64(u.Round.CatchUpPages)},
		{Name: "load-older-pages", Num: int64(u.Round.LoadOlderPages)},
		{Name: "overlap", Num: u.Round.OverlapMs},
		{Name: "max-t", Num: int64(u.MaxT)},
	}
	// The variants' options, only when set: a default universe's witness
	// names exactly the five above.
	for _, o := range []struct {
		name string
		v    int64
	}{{"tick", int64(u.Tick)}, {"cap", int64(u.Cap)}, {"future", b2i(u.Future)}, {"strays", b2i(u.Strays)}, {"backdate", b2i(u.Backdate)}, {"skew", u.Round.SkewMs},
		{"absurd", b2i(u.Absurd)}, {"unrecorded", b2i(u.Unrecorded)}} {
		if o.v != 0 {
			p = append(p, witnessfile.ParamValue{Name: o.name, Num: o.v})
		}
	}
	return p
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func universeOf(w *witnessfile.Witness) (UniverseConfig, error) {
	u := UniverseConfig{Depth: w.Depth}
	fields := map[string]*int64{}
	var page, cu, lo, ov, mt, tick, capped, future, strays, backdate, skew, absurd, unrecorded int64
	fields["page"], fields["catch-up-pages"], fields["load-older-pages"], fields["overlap"], fields["max-t"] = &page, &cu, &lo, &ov, &mt
	fields["tick"], fields["cap"], fields["future"], fields["strays"], fields["backdate"], fields["skew"] = &tick, &capped, &future, &strays, &backdate, &skew
	fields["absurd"], fields["unrecorded"] = &absurd, &unrecorded
	seen := map[string]bool{}
	for _, p := range w.Point {
		dst, ok := fields[p.Name]
		if !ok || p.IsStr || seen[p.Name] {
			return u, witnessfile.Bad("point parameter %s: want each of page, catch-up-pages, load-older-pages, overlap, max-t once (and optionally tick, cap, future, strays, backdate, skew, absurd, unrecorded), as integers", p.Name)
		}
		seen[p.Name] = true
		*dst = p.Num
	}
	for _, name := range []string{"page", "catch-up-pages", "load-older-pages", "overlap", "max-t"} {
		if !seen[name] {
			return u, witnessfile.Bad("point %s: want page, catch-up-pages, load-older-pages, overlap and max-t", w.Point)
		}
	}
	// The walk is sized at most as production is (Defaults): a larger page,
	// budget or overlap is no configuration the client runs, and every
	// value is bounded before it sizes anything.
	d := Defaults()
	for _, f := range []struct {
		name   string
		v, max int64
		min    int64
	}{{"page", page, int64(d.PageWraps), 1}, {"catch-up-pages", cu, int64(d.CatchUpPages), 1}, {"load-older-pages", lo, int64(d.LoadOlderPages), 1},
		{"overlap", ov, d.OverlapMs, 0}, {"max-t", mt, maxSlots, 2}, {"tick", tick, maxSlots, 0}, {"cap", capped, maxSlots, 0},
		{"future", future, 1, 0}, {"strays", strays, 1, 0}, {"backdate", backdate, 1, 0}, {"skew", skew, d.SkewMs, 0},
		{"absurd", absurd, 1, 0}, {"unrecorded", unrecorded, 1, 0}} {
		if f.v < f.min || f.v > f.max {
			return u, witnessfile.Bad("point %s %d: want %d..%d", f.name, f.v, f.min, f.max)
		}
	}
	u.Round = Config{PageWraps: int(page), CatchUpPages: int(cu), LoadOlderPages: int(lo), OverlapMs: ov, SkewMs: skew}
	u.MaxT, u.Tick, u.Cap, u.Future, u.Strays, u.Backdate = int(mt), int(tick), int(capped), future == 1, strays == 1, backdate == 1
	u.Absurd, u.Unrecorded = absurd == 1, unrecorded == 1
	if err := u.Validate(); err != nil {
		return u, witnessfile.Bad("%v", err)
	}
	return u, nil
}

var publishNames = [...]string{"relay0", "relay1", "both"}

func actionOf(t int) witnessfile.Action {
	switch {
	case t <= tPublishBoth:
		return witnessfile.Action{Action: "publish", Ctx: publishNames[t]}
	case t == tLive:
		return witnessfile.Action{Action: "live"}
	case t == tRekey:
		return witnessfile.Action{Action: "rekey"}
	case t == tFuture:
		return witnessfile.Action{Action: "publish-future", Ctx: "both"}
	case t == tBackdate:
		return witnessfile.Action{Action: "publish-backdated", Ctx: "both"}
	case t == tAbsurd:
		return witnessfile.Action{Action: "publish-before-0", Ctx: "both"}
	}
	rt := decodeRound(t)
	a := witnessfile.Action{Action: rt.intent.String(), Ctx: fmt.Sprintf("relay0=%s relay1=%s", rt.b[0], rt.b[1])}
	if rt.mid {
		a.Value = 1
	}
	return a
}

// transOf parses an action back to its transition.
func transOf(a witnessfile.Action) (int, error) {
	if a.Device != nil || a.From != nil || a.To != nil || a.Msg != 0 {
		return 0, witnessfile.Bad("action %q: history actions carry only ctx and value", a.Action)
	}
	switch a.Action {
	case "publish":
		for i, n := range publishNames {
			if a.Ctx == n && a.Value == 0 {
				return i, nil
			}
		}
		return 0, witnessfile.Bad("publish to %q: want relay0, relay1 or both", a.Ctx)
	case "publish-future", "publish-backdated", "publish-before-0":
		if a.Ctx != "both" || a.Value != 0 {
			return 0, witnessfile.Bad("%s takes ctx both and no value", a.Action)
		}
		switch a.Action {
		case "publish-future":
			return tFuture, nil
		case "publish-before-0":
			return tAbsurd, nil
		}
		return tBackdate, nil
	case "live", "rekey":
		if a.Ctx != "" || a.Value != 0 {
			return 0, witnessfile.Bad("action %s takes no ctx or value", a.Action)
		}
		if a.Action == "live" {
			return tLive, nil
		}
		return tRekey, nil
	case CatchUp.String(), Older.String():
		rt := roundTrans{intent: CatchUp, mid: a.Value == 1}
		if a.Action == Older.String() {
			rt.intent = Older
		}
		if a.Value > 1 {
			return 0, witnessfile.Bad("round value %d: want 0 or 1 (a wrap arriving during the round)", a.Value)
		}
		for _, c := range append(append([][relays]behaviour(nil), combos...), hostileCombos...) {
			if a.Ctx == fmt.Sprintf("relay0=%s relay1=%s", c[0], c[1]) {
				rt.b = c
				return roundTransition(rt), nil
			}
		}
		return 0, witnessfile.Bad("round behaviours %q: want relay0=<mode> relay1=<mode>, at most one relay other than answers", a.Ctx)
	}
	return 0, witnessfile.Bad("unknown action %q", a.Action)
}

// Replay re-runs a history witness under the rule set it names ("spec" or
// "healing"; see RuleSets) and reports what it found. An error (wrapping
// witnessfile.ErrBad) means the witness does not parse or fit the universe.
func Replay(w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	mk, ok := RuleSets()[w.Rules]
	if !ok {
		return nil, witnessfile.Bad("rules %q: this package defines spec, healing and proposed (a mutant's witness replays with ReplayWith)", w.Rules)
	}
	return ReplayWith(w, mk())
}

// ReplayWith re-runs a history witness under rules: every action from the
// initial state, every check after each, and reports each violation seen.
// Reproduced is true when the witness's invariant failed again.
func ReplayWith(w *witnessfile.Witness, rules *Rules) (*witnessfile.Replayed, error) {
	if w.Kind != KindHistory || w.Universe != UniverseName {
		return nil, witnessfile.Bad("kind %q universe %q: want %s/%s", w.Kind, w.Universe, KindHistory, UniverseName)
	}
	if search.Index(Invariants, w.Invariant) < 0 {
		return nil, witnessfile.Bad("unknown invariant %q", w.Invariant)
	}
	if err := w.CheckTrace(); err != nil {
		return nil, err
	}
	u, err := universeOf(w)
	if err != nil {
		return nil, err
	}
	world, err := NewWorld(u, rules, ReportAll)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "witness %s: universe %s, depth bound %d, rules %s\n", w.Invariant, UniverseName, w.Depth, rules.Name)
	fmt.Fprintf(&b, "config: %s\n", w.Point)
	s := initial()
	fmt.Fprintf(&b, "initial state:\n%s\n", s)
	rep := &witnessfile.Replayed{}
	note := func(step int, fs []search.Finding) {
		for _, f := range fs {
			id := Invariants[f.Inv].ID
			rep.Found = append(rep.Found, fmt.Sprintf("step %d: %s: %s", step, id, f.Detail))
			if id == w.Invariant && !rep.Reproduced {
				rep.Reproduced = true
				rep.Detail = f.Detail
			}
			kind := "violation"
			if Known(rules, id) {
				kind = "documented limitation"
			}
			fmt.Fprintf(&b, "%s %s: %s\n", kind, id, f.Detail)
		}
	}
	note(0, world.checkState(s))
	for i, a := range w.Actions {
		t, err := transOf(a)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
		n, fs, ok := world.step(s, t)
		if !ok {
			return nil, witnessfile.Bad("step %d: %s is not enabled", i+1, describe(a))
		}
		fmt.Fprintf(&b, "step %d: %s\n%s\n", i+1, describe(a), n)
		s = n
		note(i+1, append(fs, world.checkState(s)...))
	}
	if !rep.Reproduced {
		fmt.Fprintf(&b, "not reproduced: %s did not fail\n", w.Invariant)
	}
	rep.Text = b.String()
	return rep, nil
}

func describe(a witnessfile.Action) string {
	s := a.Action
	if a.Ctx != "" {
		s += " " + a.Ctx
	}
	if a.Value == 1 {
		s += ", a wrap arrives during it"
	}
	return s
}
