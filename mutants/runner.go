package mutants

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
)

// Options of a run.
type Options struct {
	Ties []model.TiePolicy
	// Only restricts the run to these mutant ids (nil: every mutant).
	Only []string
	// All runs every check for every mutant. Otherwise a mutant's run
	// stops at the first check that catches it, and under clear-wins every
	// check its catalogue entry expects to catch it is run as well.
	All     bool
	Workers int
	// Seed and LoadCases drive the load searches: the seed of their
	// generator (0: DefaultSeed) and the cases per search.
	Seed      uint64
	LoadCases int
	// Progress, if set, receives a line per check run; Started, if set,
	// is called as each mutant run (a mutant under a tie) starts, so a
	// gauge counts runs that run no check too.
	Progress func(string)
	Started  func(id string, tie model.TiePolicy)
	// Keep, if set, restricts the run to the selected mutants at the
	// positions it keeps (a shard's part of the list); the control runs
	// as it would for the whole list.
	Keep func(i int) bool
	// Catalog names the universes and rule sets; nil means the project's
	// own with every mutant registered (exhaustive.NewCatalog, Register).
	Catalog *exhaustive.Catalog
	// Baseline is the rule set, every layer of it, that the control runs
	// and every mutant of the core changes, under a tie policy; nil means
	// the production rules (ruleset.Proposed). BaselineName names it
	// ("proposed" by default). Under another baseline a check the control
	// trips cannot tell a mutant from it, so no mutant runs it, and the
	// catalogue's expectations (made against proposed) are not required.
	// A mutant of the walk's or the community's rules changes the rule set
	// its catalogue entry names (Mutant.Set), whatever the baseline.
	Baseline     func(model.TiePolicy) ruleset.Set
	BaselineName string
	// ControlOnly runs the whole control and no mutant: the verdict on the
	// baseline alone (explore -rules AMENDMENT).
	ControlOnly bool
}

// spec reports whether the run's baseline is the production rules.
func (o *Options) spec() bool { return o.BaselineName == "proposed" }

// DefaultSeed and DefaultLoadCases are the load searches' defaults, those
// of the props tests' searches.
const (
	DefaultSeed      uint64 = 20240601
	DefaultLoadCases int    = 1000
)

func (o *Options) fill() {
	if len(o.Ties) == 0 {
		o.Ties = []model.TiePolicy{model.ClearWins, model.SetWins}
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.LoadCases <= 0 {
		o.LoadCases = DefaultLoadCases
	}
	if o.Catalog == nil {
		o.Catalog = exhaustive.NewCatalog()
		Register(o.Catalog)
	}
	if o.Baseline == nil {
		o.Baseline = func(t model.TiePolicy) ruleset.Set { return ruleset.Proposed().WithTie(t) }
		o.BaselineName = "proposed"
	}
}

// Finding is what one check found under one rule set and tie policy.
type Finding struct {
	Check     string
	Invariant string // empty when the check found nothing
	Detail    string
	// Depth is the witness's length: actions for an explorer witness,
	// steps for a load witness, -1 for a cube point.
	Depth int
	// Work is the distinct states the explorer stored, or the points of
	// the cube; 0 for a load search.
	Work    int64
	Elapsed time.Duration
	Witness *Witness
	// AsControl is set when the check was not run again for a mutant: the
	// control's run asked no decision the mutant answers differently, so
	// the mutant's run would be the control's (reach.go); the finding is
	// the control's.
	AsControl bool
	// trace is what the control's run asked of its rules (control only).
	trace *controlTrace
}

// Caught reports whether the check reported a violation.
func (f *Finding) Caught() bool { return f.Invariant != "" }

// Witness is a replayable counterexample as its golden files hold it.
type Witness struct {
	Kind string // KindExplore, KindDirected or KindLoad
	JSON []byte
	Text string
}

// Result statuses.
const (
	StatusCaught     = "caught"
	StatusSurvived   = "survived"
	StatusEquivalent = "equivalent" // survived, as its catalogue entry says it must under the tie (Mutant.EquivalentUnder)
)

// Result is one mutant under one tie policy.
type Result struct {
	Mutant Mutant
	Tie    model.TiePolicy
	Status string
	// First is the first check, in run order, that caught the mutant.
	First *Finding
	// Findings are every catching finding of the run, in suite order: the
	// first, the expected ones, or with Options.All every one.
	Findings []*Finding
	// Missed lists the expected checks that did not catch it (clear-wins).
	Missed []string
	// Skipped lists the checks not run because the control trips them.
	Skipped []string
	// Ran is the number of checks run, those taken from the control's run
	// included (Finding.AsControl), Elapsed their total time.
	Ran     int
	Elapsed time.Duration
}

// CaughtBy lists the names of the catching checks, in suite order.
func (r *Result) CaughtBy() []string {
	out := make([]string, len(r.Findings))
	for i, f := range r.Findings {
		out[i] = f.Check
	}
	return out
}

// FirstExplore is the first explorer witness among the findings, if any.
func (r *Result) FirstExplore() *Finding {
	for _, f := range r.Findings {
		if f.Witness != nil && f.Witness.Kind == KindExplore {
			return f
		}
	}
	return nil
}

// Problems lists what makes the result fail the gate: under clear-wins a
// surviving mutant, an equivalent one that was caught, or an expected check
// that did not catch it; with every check run, a set of catching checks
// other than the expected one.
func (r *Result) Problems(all bool) []string {
	if r.Tie != model.ClearWins {
		return nil
	}
	var out []string
	switch {
	case r.Mutant.Equivalent != "" && r.Status != StatusEquivalent:
		out = append(out, "declared equivalent but caught by "+r.First.Check)
	case r.SpecTextOnly():
		// Not a safety failure: a spec-text difference (report.go).
	case r.Mutant.Equivalent == "" && r.Status != StatusCaught && len(r.Skipped) > 0:
		out = append(out, fmt.Sprintf("survived every check it ran; the baseline itself fails %s, which therefore cannot tell the mutant from it",
			strings.Join(r.Skipped, ", ")))
	case r.Mutant.Equivalent == "" && r.Status != StatusCaught:
		out = append(out, "survived every generic check")
	}
	for _, f := range r.Findings {
		if f.Invariant == "setup" {
			out = append(out, fmt.Sprintf("%s could not run, so it caught nothing: %s", f.Check, f.Detail))
		}
	}
	for _, c := range r.Missed {
		out = append(out, "not caught by "+c+", which the catalogue expects")
	}
	if all && r.Mutant.Equivalent == "" && !slices.Equal(sorted(r.CaughtBy()), sorted(r.Mutant.ExpectedBy)) {
		out = append(out, fmt.Sprintf("caught by %v, the catalogue expects %v", r.CaughtBy(), r.Mutant.ExpectedBy))
	}
	return out
}

func sorted(ss []string) []string {
	out := slices.Clone(ss)
	slices.Sort(out)
	return out
}

// Report is a whole run.
type Report struct {
	Options Options
	Suite   []Check
	// Control holds what the production rules tripped (nothing, when the
	// suite is sound), per tie policy.
	Control map[model.TiePolicy][]*Finding
	Results []*Result
	Elapsed time.Duration
	// Lazy is true when the control ran only on the checks the selected
	// mutants reached (Suite lists those).
	Lazy bool
}

// Run executes the control and then every selected mutant under each tie
// policy. With Only set, the control runs lazily: only the checks the
// selected mutants reach, in the same order the full run would take
// (lazy.go).
func Run(opts Options) (*Report, error) {
	opts.fill()
	start := time.Now()
	ms, err := selected(opts.Only)
	if err != nil {
		return nil, err
	}
	if opts.ControlOnly {
		ms, opts.Only = nil, nil
	}
	r := &runner{opts: opts, cache: map[string]*Finding{}, ctl: map[string]*Finding{}}
	rep := &Report{Options: opts}
	var suite walk
	if opts.Only == nil {
		rep.Suite, rep.Control = r.control()
		suite = fullSuite(rep.Suite)
	} else {
		suite = r.newLazySuite()
	}
	for i, m := range ms {
		if opts.Keep != nil && !opts.Keep(i) {
			continue
		}
		for _, tie := range opts.Ties {
			rep.Results = append(rep.Results, r.mutant(suite, m, tie))
		}
	}
	if ls, ok := suite.(*lazySuite); ok {
		// The control's findings of the checks placed in the order only:
		// ordering the rest ran some of their controls, which the run did
		// not use and must not report.
		rep.Suite, rep.Control, rep.Lazy = ls.done, r.trippedIn(ls.done), len(ls.done) < len(SuiteChecks(opts.Catalog))
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func selected(only []string) ([]Mutant, error) {
	if only == nil {
		return All(), nil
	}
	var out []Mutant
	for _, id := range only {
		m, ok := Lookup(id)
		if !ok {
			return nil, fmt.Errorf("unknown mutant %q (see -list)", id)
		}
		out = append(out, m)
	}
	return out, nil
}

// onBaseline is mutant m applied to the run's baseline under tie, named
// name: its change of the core applied to the baseline's, a one-
// installation mutant leaving the run's core rules as the baseline's (its
// variant universes carry it); the walk's and the community's layers those
// of the mutant's own rule set (Mutant.Set).
func (r *runner) onBaseline(m Mutant, name string, tie model.TiePolicy) ruleset.Set {
	change := ruleset.Change{Model: m.Change.Model}
	if m.OneDevice {
		change.Model = nil
	}
	out := change.Apply(r.opts.Baseline(tie), name)
	own := m.SetUnder(tie)
	if m.Change.History != nil {
		out.History = own.History
	}
	if m.Change.Community != nil {
		out.Community = own.Community
	}
	return out
}

// mutant runs the suite, in order, against one mutant under one tie.
func (r *runner) mutant(suite walk, m Mutant, tie model.TiePolicy) *Result {
	res := &Result{Mutant: m, Tie: tie, Status: StatusSurvived}
	if r.opts.Started != nil {
		r.opts.Started(m.ID, tie)
	}
	start := time.Now()
	rules, name := r.runRules(m, tie)
	if !r.opts.spec() {
		if _, err := r.opts.Catalog.Rules(name); err != nil {
			// A witness names its rule set and is rendered by replaying it
			// from the catalogue: the mutant on the baseline needs a name
			// there, or its witness would read as a failure to set up.
			r.opts.Catalog.AddRules(name, func() *model.Rules { return r.onBaseline(m, name, model.ClearWins).Model })
		}
	}
	expected := map[string]bool{}
	if tie == model.ClearWins && !r.opts.All && r.opts.spec() {
		for _, c := range m.ExpectedBy {
			expected[c] = true
		}
	}
	for i := 0; ; i++ {
		if res.First != nil && !r.opts.All && len(expected) == 0 {
			break // nothing left to run: do not place the rest of a lazy suite
		}
		c, ok := suite.at(i)
		if !ok {
			break
		}
		if m.OneDevice && c.Kind != KindExplore {
			continue // a one-installation change has no meaning to a single-rule-set check
		}
		if !m.Checks(c) {
			continue // the walk's rules, the community's and the core's are checked apart
		}
		if res.First != nil && !r.opts.All && !expected[c.Name] {
			continue
		}
		if r.controlFinding(c, tie).Caught() {
			res.Skipped = append(res.Skipped, c.Name)
			delete(expected, c.Name)
			continue // the baseline itself fails it: it cannot tell the mutant apart
		}
		f := r.asControl(c, tie, m)
		if f == nil {
			f = r.runCheck(c, rules, name, &m)
		}
		res.Ran++
		if f.Caught() {
			res.Findings = append(res.Findings, f)
			if res.First == nil {
				res.First = f
			}
		} else if expected[c.Name] {
			res.Missed = append(res.Missed, c.Name)
		}
		delete(expected, c.Name)
	}
	for _, c := range m.ExpectedBy {
		if expected[c] {
			res.Missed = append(res.Missed, c+" (no such check)")
		}
	}
	res.Elapsed = time.Since(start)
	switch {
	case res.First != nil:
		res.Status = StatusCaught
	case m.EquivalentUnder(tie) != "":
		res.Status = StatusEquivalent
	}
	return res
}
