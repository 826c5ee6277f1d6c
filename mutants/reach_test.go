package mutants

import (
	"slices"
	"testing"

	"github.com/nip-rs/harness/model"
)

// TestTracedWrapsEveryRule: every function field of model.Rules, nested
// ones included, gets a probe. A field of a signature trace.go does not
// know still gives right answers (it counts as asked by every run), but no
// mutant of it would ever be taken from the control's run: add its case.
func TestTracedWrapsEveryRule(t *testing.T) {
	base := model.Proposed()
	rules, _ := traced(base, nil)
	d := diffRules(base, rules)
	var fns []int
	for i, f := range ruleFields {
		if f.fn {
			fns = append(fns, i)
		}
	}
	for _, i := range fns {
		if !slices.Contains(d.changed, i) {
			t.Errorf("%s is not traced: add its signature to wrap (trace.go)", ruleFields[i].path)
		}
	}
	if len(fns) < 30 {
		t.Errorf("only %d function fields found in model.Rules", len(fns))
	}
}

// TestDiffRules: a mutant differs from the production rules in the fields
// it replaces and only there; a one-installation mutant whose device
// decides as the run's rules do differs in nothing.
func TestDiffRules(t *testing.T) {
	if d := diffRules(model.Proposed(), model.Proposed().Clone()); !d.decidable || len(d.changed) > 0 {
		t.Errorf("spec against its clone: %+v", d)
	}
	for _, m := range append(Core(), Load()...) {
		for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
			d := diffRules(model.Proposed().WithTie(tie), m.RulesUnder(tie))
			switch {
			case m.OneDevice && tie == model.SetWins:
				if !d.decidable || len(d.changed) > 0 {
					t.Errorf("%s under %s: %+v, want no difference", m.ID, tie, d)
				}
			case m.OneDevice:
				if d.decidable {
					t.Errorf("%s under %s: a different tie must not be decidable", m.ID, tie)
				}
			case !d.decidable || len(d.changed) == 0:
				t.Errorf("%s under %s: %+v, want the replaced fields", m.ID, tie, d)
			}
		}
	}
}

// TestTraceRecordsCallsAndAnswers: a traced run records which fields it
// called and which shadows ever answered differently; a mutant is taken
// as unchanged only when every field it replaces was not called or was
// always answered alike.
func TestTraceRecordsCallsAndAnswers(t *testing.T) {
	m1, _ := Lookup("M1")   // Live without F <= B
	m27, _ := Lookup("M27") // Live without S > 0: equivalent under clear-wins
	m17, _ := Lookup("M17") // MarkUnread
	base := model.Proposed()
	var sh []shadow
	for _, m := range []Mutant{m1, m27, m17} {
		r := m.RulesUnder(model.ClearWins)
		sh = append(sh, shadow{id: m.ID, rules: r, diff: diffRules(base, r)})
	}
	rules, done := traced(base, sh)
	for _, g := range []model.Reg{{}, {S: 2, C: 1, B: 5}, {S: 1, C: 1, B: 5}} {
		for _, f := range []uint32{0, 5, 9} {
			if got, want := rules.IsLive(g, f), base.IsLive(g, f); got != want {
				t.Fatalf("traced Live(%v, %d) = %t, want %t", g, f, got, want)
			}
		}
	}
	tr := done()
	for _, c := range []struct {
		m    Mutant
		want bool
	}{{m1, false}, {m27, true}, {m17, true}} {
		if got := tr.unchanged(c.m.ID, sh[slices.IndexFunc(sh, func(s shadow) bool { return s.id == c.m.ID })].diff); got != c.want {
			t.Errorf("%s unchanged: %t, want %t", c.m.ID, got, c.want)
		}
	}
	// M17 (B := max(B, F)) answers a mark-unread below the baseline
	// alike, above it differently.
	for i, g := range []model.Reg{{S: 1, C: 1, B: 3}, {S: 1, C: 1, B: 9}} {
		if _, err := rules.MarkUnread(g, 7, true); err != nil {
			t.Fatal(err)
		}
		if got := done().unchanged("M17", sh[2].diff); got != (i == 0) {
			t.Errorf("M17 unchanged after a mark-unread of %v at 7: %t", g, got)
		}
	}
}

// TestAsControlIsTheRun runs for real every check the gate takes from the
// control's run, for a mutant of each kind (a load rule under clear-wins,
// M27 under clear-wins where it is equivalent by its shadowed answers, M3
// under set-wins where its device decides as the others), over the checks
// cheaper than the network universes (the load searches aside), and
// requires the same finding.
func TestAsControlIsTheRun(t *testing.T) {
	opts := Options{Only: []string{"L1", "M27", "M3"}}
	opts.fill()
	ms, err := selected(opts.Only)
	if err != nil {
		t.Fatal(err)
	}
	tieOf := map[string]model.TiePolicy{"L1": model.ClearWins, "M27": model.ClearWins, "M3": model.SetWins}
	r := &runner{opts: opts, cache: map[string]*Finding{}, ctl: map[string]*Finding{}}
	decided := 0
	for _, m := range ms {
		tie := tieOf[m.ID]
		for _, c := range SuiteChecks(opts.Catalog) {
			switch {
			// The community checks skip a universe the mutant's rules
			// never reach on their own (work 0): nothing to compare.
			case c.Kind == KindHistory, c.Kind == KindLoad, c.Kind == KindCommunity, m.OneDevice && c.Kind != KindExplore,
				c.Kind == KindExplore && slices.Contains([]string{"network", "network-whole"}, c.Universe):
				continue
			}
			f := r.asControl(c, tie, m)
			if f == nil {
				continue
			}
			decided++
			rules, name := r.runRules(m, tie)
			g := r.runCheck(c, rules, name, &m)
			switch {
			case g.Caught():
				t.Errorf("%s %s %s: taken from the control, but the run catches it: %s", m.ID, tie, c.Name, g.Invariant)
			case !m.OneDevice && g.Work != f.Work:
				// A variant is explored without device symmetry: its work differs.
				t.Errorf("%s %s %s: work %d, the control's %d", m.ID, tie, c.Name, g.Work, f.Work)
			}
		}
	}
	if decided < 40 {
		t.Errorf("only %d checks taken from the control", decided)
	}
}
