package mutants

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/witnessfile"
)

// Kinds of generic check.
const (
	KindExplore  = "explore"  // a registered universe, explored to its depth bound
	KindDirected = "directed" // a directed or conformance cube
	KindLoad     = "load"     // a property search of the full-state load
)

// Check is one generic check: it exists for every rule set.
type Check struct {
	// Name is "explore:<universe>", "directed:<key>", "load:<check>" or
	// "simulate:<universe>".
	Name     string
	Kind     string
	Universe string
	Directed *directed.Check
	Prop     string
	// Work orders the suite, cheapest first: the distinct states a
	// universe stores and the points of a cube under the production rules
	// (first tie policy of the run), and for a load search its cases times
	// loadStepsPerCase.
	Work int64
	// TieIndependent checks give the same answer under either policy.
	TieIndependent bool
}

// loadStepsPerCase bounds the steps of one load scenario (a starting
// history, the load, at most 40 interleaved steps): a search's cost in the
// same unit as a state or a point.
const loadStepsPerCase = 45

type runner struct {
	opts  Options
	cache map[string]*Finding // tie-independent results by rule set and check
	ctl   map[string]*Finding // the control's findings by tie and check
	diffs map[string]ruleDiff // by tie and mutant id (runRules against the baseline)
}

// sharedControl holds the control's findings by run settings, tie and
// check, for every run in the process: the control is deterministic, and
// several runs (cmd/mutate's tests, -only runs) ask the same checks. A
// finding's trace asks every mutant of the catalogue alongside the rules,
// whichever the run that made it selected, so it serves every run.
var sharedControl struct {
	sync.Mutex
	m map[string]*Finding
}

// controlKey names what a control finding depends on besides the tie and
// the check: the baseline, the load searches' settings and the universes.
func (r *runner) controlKey() string {
	return fmt.Sprint(r.opts.BaselineName, r.opts.Seed, r.opts.LoadCases, Universes(r.opts.Catalog))
}

// controlFinding is what the baseline finds with check c under tie, run
// once, through traced rules (trace.go) unless the check has rules of its
// own (the history walk).
func (r *runner) controlFinding(c Check, tie model.TiePolicy) *Finding {
	key := tie.String() + "|" + c.Name
	if f, ok := r.ctl[key]; ok {
		return f
	}
	shared := r.controlKey() + "|" + key
	byName := r.opts.BaselineName + "|" + c.Name // runCheck's key of a tie-independent result
	f, ok := r.sharedFinding(c, tie)
	if ok {
		if _, seen := r.cache[byName]; c.TieIndependent && !seen {
			r.cache[byName] = f // as if run here: the other policy reuses it
		}
		r.ctl[key] = f
		return f
	}
	set, trace := r.opts.Baseline(tie), func() *controlTrace { return nil }
	if !modelFree(c) {
		set.Model, trace = traced(set.Model, r.shadows(tie))
	}
	_, reused := r.cache[byName]
	reused = reused && c.TieIndependent
	f = r.runCheck(c, set, r.opts.BaselineName, nil)
	if !reused {
		// In place: the tie-independent cache holds f itself, so its reuse
		// under the other policy carries this trace. A reused result keeps
		// its own (the traced rules here asked nothing).
		f.trace = trace()
	}
	r.ctl[key] = f
	sharedControl.Lock()
	if sharedControl.m == nil {
		sharedControl.m = map[string]*Finding{}
	}
	sharedControl.m[shared] = f
	sharedControl.Unlock()
	return f
}

// sharedFinding is the control's finding for check c under tie if a run in
// the process made it.
func (r *runner) sharedFinding(c Check, tie model.TiePolicy) (*Finding, bool) {
	sharedControl.Lock()
	defer sharedControl.Unlock()
	f, ok := sharedControl.m[r.controlKey()+"|"+tie.String()+"|"+c.Name]
	return f, ok
}

// runRules is the rule set, and its name, that a run under tie checks
// mutant m with.
func (r *runner) runRules(m Mutant, tie model.TiePolicy) (ruleset.Set, string) {
	if r.opts.spec() {
		s := m.SetUnder(tie)
		s.Model = m.RunRules(tie)
		return s, m.ID
	}
	name := r.runName(m)
	return r.onBaseline(m, name, tie), name
}

// runName names mutant m's rule set in a run.
func (r *runner) runName(m Mutant) string {
	if r.opts.spec() {
		return m.ID
	}
	return m.ID + "@" + r.opts.BaselineName
}

// diff is what mutant m changes of the baseline under tie: of the run's
// rules, or for a one-installation mutant of the rules its device 0
// decides through.
func (r *runner) diff(m Mutant, tie model.TiePolicy) ruleDiff {
	key := tie.String() + "|" + m.ID
	if d, ok := r.diffs[key]; ok {
		return d
	}
	var d ruleDiff
	switch {
	case m.Change.Model == nil:
		d = ruleDiff{} // not decidable: the walk's and the community's rules are apart
	case m.OneDevice && !r.opts.spec():
		d = ruleDiff{} // the variant's device 0 is built from spec, not the baseline
	case m.OneDevice:
		d = diffRules(r.opts.Baseline(tie).Model, m.RulesUnder(tie))
	default:
		set, _ := r.runRules(m, tie)
		d = diffRules(r.opts.Baseline(tie).Model, set.Model)
	}
	if r.diffs == nil {
		r.diffs = map[string]ruleDiff{}
	}
	r.diffs[key] = d
	return d
}

// shadows are the mutants whose replaced decisions the control's runs
// under tie ask alongside its own: every one of the catalogue, selected or
// not (the findings serve every run, sharedControl), that replaces
// function fields of the run's rule set only.
func (r *runner) shadows(tie model.TiePolicy) []shadow {
	var out []shadow
	for _, m := range All() {
		if m.OneDevice || m.Change.Model == nil {
			continue
		}
		if d := r.diff(m, tie); d.decidable && len(d.changed) > 0 {
			set, _ := r.runRules(m, tie)
			out = append(out, shadow{id: m.ID, rules: set.Model, diff: d})
		}
	}
	return out
}

// asControl is the control's finding for check c under tie when mutant m
// is sure to run it exactly as the control did (reach.go), relabelled as
// the mutant's; nil when the check must run. A one-installation mutant is
// decided only when device 0's rules are the run's own: its variant is
// then the universe itself, which the control explored up to device
// symmetry (exact: a violation's image under a renaming is one too).
func (r *runner) asControl(c Check, tie model.TiePolicy, m Mutant) *Finding {
	// The walk's and the community mechanisms' checks decide through rules
	// of their own, which the traced model.Rules never see (the community
	// checks skip, exactly, a universe a mutant's rules never reach).
	if modelFree(c) {
		return nil
	}
	ctl := r.controlFinding(c, tie)
	d := r.diff(m, tie)
	if ctl.Caught() || (m.OneDevice && (!d.decidable || len(d.changed) > 0)) || !ctl.trace.unchanged(m.ID, d) {
		return nil
	}
	f := &Finding{Check: c.Name, Work: ctl.Work, Depth: -1, AsControl: true}
	if r.opts.Progress != nil {
		r.opts.Progress(fmt.Sprintf("%s tie=%s %s: nothing (as the control: no decision it asked differs)", r.runName(m), tie, c.Name))
	}
	return f
}

// trippedIn is what the control found on the checks of suite, per tie,
// in check name order.
func (r *runner) trippedIn(suite []Check) map[model.TiePolicy][]*Finding {
	in := map[string]bool{}
	for _, c := range suite {
		in[c.Name] = true
	}
	out := map[model.TiePolicy][]*Finding{}
	for tie, fs := range r.tripped() {
		for _, f := range fs {
			if in[f.Check] {
				out[tie] = append(out[tie], f)
			}
		}
	}
	return out
}

// tripped is what the control found, per tie, in check name order.
func (r *runner) tripped() map[model.TiePolicy][]*Finding {
	var keys []string
	for k := range r.ctl {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := map[model.TiePolicy][]*Finding{}
	for _, k := range keys {
		if f := r.ctl[k]; f.Caught() {
			tie, _ := model.ParseTiePolicy(k[:strings.IndexByte(k, '|')])
			out[tie] = append(out[tie], f)
		}
	}
	return out
}

// SuiteChecks lists every generic check, unordered: each registered
// universe (one-device variants excluded), each directed check, the three
// load checks run under the conformant relays (props.GateProfiles), a
// simulation of each registered universe, the liveness check of each
// liveness universe, the walk's safety and liveness checks, and the
// community universes' safety checks and liveness properties.
func SuiteChecks(cat *exhaustive.Catalog) []Check {
	var out []Check
	for _, u := range Universes(cat) {
		out = append(out, Check{Name: KindExplore + ":" + u, Kind: KindExplore, Universe: u})
	}
	for _, d := range directed.Checks() {
		out = append(out, Check{Name: KindDirected + ":" + d.Key, Kind: KindDirected, Directed: d, TieIndependent: d.TieIndependent})
	}
	for _, p := range []string{props.CheckSoundness, props.CheckQuiescent, props.CheckTermination} {
		out = append(out, Check{Name: KindLoad + ":" + p, Kind: KindLoad, Prop: p, TieIndependent: true})
	}
	out = append(out, simulateChecks(cat)...)
	out = append(out, livenessChecks()...)
	out = append(append(out, historyChecks()...), walkLivenessChecks()...)
	return append(append(out, communityChecks()...), communityLivenessChecks()...)
}

// controls caches the control per tie policies and load settings: it is
// deterministic, and runs in one process (cmd/mutate's tests) share it.
var controls struct {
	sync.Mutex
	m map[string]controlRun
}

type controlRun struct {
	suite []Check
	found map[model.TiePolicy][]*Finding
	ctl   map[string]*Finding
}

// control runs every check under the production rules, under each tie
// policy, and orders the suite by Work, cheapest first (ties by kind, then
// name). It returns what the control tripped.
func (r *runner) control() ([]Check, map[model.TiePolicy][]*Finding) {
	key := fmt.Sprint(r.opts.BaselineName, r.opts.Ties, r.opts.Seed, r.opts.LoadCases, Universes(r.opts.Catalog))
	controls.Lock()
	defer controls.Unlock()
	if c, ok := controls.m[key]; ok {
		r.ctl = c.ctl
		return c.suite, c.found
	}
	checks := SuiteChecks(r.opts.Catalog)
	found := map[model.TiePolicy][]*Finding{}
	for i := range checks {
		for _, tie := range r.opts.Ties {
			f := r.controlFinding(checks[i], tie)
			if tie == r.opts.Ties[0] {
				checks[i].Work = f.Work
			}
			if f.Caught() {
				found[tie] = append(found[tie], f)
			}
		}
		if checks[i].Kind == KindLoad {
			checks[i].Work = int64(r.opts.LoadCases) * loadStepsPerCase
		}
	}
	slices.SortStableFunc(checks, func(a, b Check) int {
		return cmp.Or(cmp.Compare(a.Work, b.Work), strings.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name))
	})
	if controls.m == nil {
		controls.m = map[string]controlRun{}
	}
	controls.m[key] = controlRun{checks, found, r.ctl}
	return checks, found
}

// runCheck runs one check under the layer of set (named name) it checks,
// under the set's tie policy; m is nil for the control.
func (r *runner) runCheck(c Check, set ruleset.Set, name string, m *Mutant) *Finding {
	rules := set.Model
	key := name + "|" + c.Name
	if c.TieIndependent {
		if f, ok := r.cache[key]; ok {
			return retied(f, rules.Tie)
		}
	}
	start := time.Now()
	var f *Finding
	switch c.Kind {
	case KindExplore:
		f = r.explore(c, rules, m)
	case KindDirected:
		f = r.directed(c, rules)
	case KindHistory:
		f = r.history(set.History, m)
	case KindWalkLiveness:
		f = r.walkLiveness(set.History, m)
	case KindCommunity:
		f = r.community(c, set.Community, m)
	case KindCommunityLiveness:
		f = r.communityLiveness(c, set.Community)
	case KindSimulate:
		f = r.simulate(c, rules)
	case KindLiveness:
		f = r.liveness(c, rules)
	default:
		f = r.load(c, rules)
	}
	f.Check, f.Elapsed = c.Name, time.Since(start)
	if r.opts.Progress != nil {
		what := "nothing"
		if f.Caught() {
			what = f.Invariant
		}
		r.opts.Progress(fmt.Sprintf("%s tie=%s %s: %s (%s)", name, rules.Tie, c.Name, what, f.Elapsed.Round(time.Millisecond)))
	}
	if c.TieIndependent {
		r.cache[key] = f
	}
	return f
}

func setupFailure(err error) *Finding {
	return &Finding{Invariant: "setup", Detail: err.Error(), Depth: -1}
}

func (r *runner) explore(c Check, rules *model.Rules, m *Mutant) *Finding {
	name := c.Universe
	if m != nil && m.OneDevice {
		name = VariantName(c.Universe, m.ID) // rules are the production rules (Mutant.RunRules)
	}
	u, err := r.opts.Catalog.Universe(name)
	if err != nil {
		return setupFailure(err)
	}
	res, err := exhaustive.Explore(exhaustive.Config{Universe: u, Rules: rules, Workers: r.opts.Workers, StopAtFirst: m != nil})
	if err != nil {
		return setupFailure(err)
	}
	f := &Finding{Work: int64(res.Distinct), Depth: -1}
	if res.Status == exhaustive.StatusUnknown {
		return setupFailure(fmt.Errorf("%s: %s", name, res.BoundHit))
	}
	if w := res.Witness; w != nil {
		text, err := exhaustive.Text(r.opts.Catalog, w)
		if err != nil {
			return setupFailure(err)
		}
		f.Invariant, f.Detail, f.Depth = w.Invariant, w.Detail, len(w.Actions)
		f.Witness = &Witness{Kind: KindExplore, JSON: w.JSON(), Text: text}
	}
	return f
}

func (r *runner) directed(c Check, rules *model.Rules) *Finding {
	res := directed.Run(c.Directed, rules, r.opts.Workers)
	f := &Finding{Work: int64(res.Points), Depth: -1}
	if w := res.Witness; w != nil {
		f.Invariant, f.Detail = w.Invariant, w.Detail
		f.Witness = &Witness{Kind: KindDirected, JSON: w.JSON(), Text: w.Text}
	}
	return f
}

func (r *runner) load(c Check, rules *model.Rules) *Finding {
	w, err := props.SearchProfiles(props.SearchConfig{Check: c.Prop, Rules: rules,
		Cases: r.opts.LoadCases, Seed: r.opts.Seed}, props.GateProfiles(c.Prop))
	if err != nil {
		return setupFailure(err)
	}
	f := &Finding{Depth: -1}
	if w == nil {
		return f
	}
	data, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return setupFailure(err)
	}
	_, log := props.Replay(*w, rules)
	inv, detail, _ := strings.Cut(w.Violation, ": ")
	f.Invariant, f.Detail, f.Depth = inv, detail, len(w.Steps)
	f.Witness = &Witness{Kind: KindLoad, JSON: append(data, '\n'),
		Text: fmt.Sprintf("check %s, rules %s, %s\nviolation: %s\n\n%s\n", w.Check, w.Rules, w.Config, w.Violation, strings.Join(log, "\n"))}
	return f
}

// retied is a cached tie-independent finding as the run under tie would
// have written it: a directed witness names the tie policy it ran under, so
// the same finding reused under the other policy is relabelled (its golden
// file then does not depend on which policies one run covered).
func retied(f *Finding, tie model.TiePolicy) *Finding {
	if f.Witness == nil || f.Witness.Kind != KindDirected {
		return f
	}
	w, err := witnessfile.Parse(f.Witness.JSON)
	if err != nil || w.Tie == tie.String() {
		return f
	}
	w.Tie = tie.String()
	g := *f
	g.Witness = &Witness{Kind: KindDirected, JSON: w.JSON(), Text: w.DirectedText()}
	return &g
}

// modelFree reports whether check c decides only through the walk's or the
// community mechanisms' rules, never through model.Rules: their safety and
// their liveness checks.
func modelFree(c Check) bool {
	switch c.Kind {
	case KindHistory, KindWalkLiveness, KindCommunity, KindCommunityLiveness:
		return true
	}
	return false
}
