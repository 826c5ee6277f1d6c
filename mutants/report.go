package mutants

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/model"
)

// PythonHarness says what catches each of the formal note's mutants in its
// Python harness (mutation.py, as measured: shared/reference, §6–§7), for
// the side-by-side column of the mutant table.
var PythonHarness = map[string]string{
	"M1": "comparison with the correct liveness function; its explorer finds nothing at depth 3 or 4",
	"M2": "comparison with the correct device after set, set, clear; its explorer finds nothing at depth 4",
	"M3": "nothing is injected: the two tie policies are seen to differ on one register",
	"M4": "a scenario written for it (the pass-3 history); its deep-history cube would (132 points)",
	"M5": "nothing is injected: the correct sanitiser is seen to drop 2^32",
	"M6": "its explorer at depth 3 (convergence, 16 states)",
	"M7": "a scenario written for it (the pass-1/2 pair); its merge-closure cube would (1,736 pairs)",
	"M8": "its interleaved-delivery test, under clear-wins only",
	"M9": "its escaped-context slot test, under clear-wins only",
}

// DepthString renders a witness depth: a cube point, N actions or steps.
func DepthString(f *Finding) string {
	switch {
	case f == nil:
		return "—"
	case f.Depth < 0:
		return "point"
	case f.Witness != nil && f.Witness.Kind == KindLoad:
		return plural(f.Depth, "step")
	}
	return plural(f.Depth, "action")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// found renders a finding as its check name, with the witness depth for an
// explorer witness.
func found(f *Finding) string {
	if f.Witness != nil && f.Witness.Kind == KindExplore {
		return fmt.Sprintf("%s@%d", f.Check, f.Depth)
	}
	return f.Check
}

// TableRow is a mutant's row of the mutant table, from its clear-wins
// and set-wins results: the rule and section, the first check that caught
// it under clear-wins and its witness depth, every check the gate saw catch
// it (explorer witnesses with their depth), the set-wins outcome, and what
// catches it in the Python harness.
func TableRow(clear, set *Result) string {
	m := clear.Mutant
	first, depth := clear.Status, "—"
	if clear.First != nil {
		first, depth = clear.First.Check, DepthString(clear.First)
	}
	var all []string
	for _, f := range clear.Findings {
		all = append(all, found(f))
	}
	also := strings.Join(all, ", ")
	if also == "" {
		also = "—"
	}
	setOut := "not run"
	if set != nil {
		setOut = "survives"
		if set.First != nil {
			setOut = found(set.First)
		}
	}
	py := PythonHarness[m.ID]
	if py == "" {
		py = "—"
	}
	return fmt.Sprintf("| %s | %s (%s) | %s | %s | %s | %s | %s |", m.ID, m.Rule, m.Section, first, depth, also, setOut, py)
}

// TableRows are the rows of every mutant run under both tie policies.
func (rep *Report) TableRows() []string {
	byKey := map[string]*Result{}
	for _, r := range rep.Results {
		byKey[r.Mutant.ID+"/"+r.Tie.String()] = r
	}
	var out []string
	for _, r := range rep.Results {
		if r.Tie != model.ClearWins {
			continue
		}
		out = append(out, TableRow(r, byKey[r.Mutant.ID+"/"+model.SetWins.String()]))
	}
	return out
}

// Problems lists everything that fails the gate: the control tripping a
// check, and each result's problems. Under an amendment (a baseline other
// than spec) a spec-text conformance check the control fails is the
// amendment's expected difference from today's text, not a problem; its
// safety findings are.
func (rep *Report) Problems() []string {
	var out []string
	for _, tie := range rep.Options.Ties {
		for _, f := range rep.Control[tie] {
			if !rep.Options.spec() && IsConformanceName(f.Check) {
				continue
			}
			out = append(out, fmt.Sprintf("control (%s, tie %s): %s reports %s: %s", rep.Options.BaselineName, tie, f.Check, f.Invariant, f.Detail))
		}
	}
	for _, r := range rep.Results {
		for _, p := range r.Problems(rep.Options.All) {
			out = append(out, fmt.Sprintf("%s (tie %s): %s", r.Mutant.ID, r.Tie, p))
		}
	}
	return out
}

// Work is the total the suite explores under the production rules, for
// the header of a report: universes (states) and cubes (points).
func (rep *Report) Work() (states, points int64) {
	for _, c := range rep.Suite {
		switch c.Kind {
		case KindExplore:
			states += c.Work
		case KindDirected:
			points += c.Work
		}
	}
	return states, points
}

// Scope is what a verdict covers: the checks that ran, by what they
// assert, and the checks of the suite that did not run.
type Scope struct {
	Safety, SpecText []string // names of the checks run, in suite order
	NotRun           []string // names of the suite's checks not run
}

// ScopeOf splits the suite into what ran (ran reports it) by class, and
// what did not.
func ScopeOf(suite []Check, ran func(name string) bool) Scope {
	var s Scope
	for _, c := range suite {
		switch {
		case !ran(c.Name):
			s.NotRun = append(s.NotRun, c.Name)
		case IsConformance(c):
			s.SpecText = append(s.SpecText, c.Name)
		default:
			s.Safety = append(s.Safety, c.Name)
		}
	}
	return s
}

// ControlScope is what the run's control covered: the checks it ran (the
// whole suite, or with -only the ones the mutants reached).
func (rep *Report) ControlScope() Scope {
	done := map[string]bool{}
	for _, c := range rep.Suite {
		done[c.Name] = true
	}
	all := SuiteChecks(rep.Options.Catalog)
	slices.SortStableFunc(all, func(a, b Check) int { return strings.Compare(a.Name, b.Name) })
	return ScopeOf(all, func(n string) bool { return done[n] })
}

// Verdict is the one-line verdict on a rule set from what a run checked:
// broken lists the safety findings, differs the spec-text ones. It never
// claims more than the scope: with a check of the suite not run and no
// safety finding, the verdict is unknown, never safe.
func Verdict(s Scope, broken, differs []string) string {
	if len(broken) > 0 {
		return "UNSAFE: " + strings.Join(broken, ", ")
	}
	if len(s.NotRun) > 0 {
		v := fmt.Sprintf("UNKNOWN: no safety finding on the %s run, but %s of the suite not run: %s",
			plural(len(s.Safety), "safety check"), plural(len(s.NotRun), "check"), strings.Join(s.NotRun, ", "))
		if len(differs) > 0 {
			v += "; spec-text difference: " + strings.Join(differs, ", ")
		}
		return v
	}
	switch {
	case len(differs) > 0:
		return "safe, with a spec-text difference: " + strings.Join(differs, ", ")
	case len(s.SpecText) == 0:
		return "safe; spec-text conformance not checked"
	}
	return "safe, agreeing with today's spec text"
}

// VerdictExit is the exit code a verdict line stands for, the same for
// explore and mutate: 0 safe (a spec-text difference alone included),
// 1 unsafe, 3 unknown.
func VerdictExit(verdict string) int {
	switch {
	case strings.HasPrefix(verdict, "UNSAFE"):
		return 1
	case strings.HasPrefix(verdict, "UNKNOWN"):
		return 3
	}
	return 0
}

// ScopeLines says what a scope checked and what it did not, one line
// each, indented by indent.
func ScopeLines(s Scope, indent string) []string {
	total := len(s.Safety) + len(s.SpecText) + len(s.NotRun)
	run := fmt.Sprintf("%schecked: %d of %d checks: %d safety, %d spec-text conformance", indent,
		total-len(s.NotRun), total, len(s.Safety), len(s.SpecText))
	not := indent + "not checked: nothing"
	if len(s.NotRun) > 0 {
		not = fmt.Sprintf("%snot checked (%d): %s", indent, len(s.NotRun), strings.Join(s.NotRun, ", "))
	}
	return []string{run, not}
}

// SpecTextOnly reports whether a mutant survived only because every check
// that could have caught it is a spec-text conformance check the baseline
// itself fails: under an amendment that rewrites the text such a check
// asserts, the check cannot tell the mutant from the amendment, and no
// safety check objects to it either. Such a survivor is a spec-text
// difference, not a safety failure (M17 and M22 under b-max-frontier,
// which only action-conformance catches). Under the spec baseline a
// conformance check the control fails is itself a gate failure.
func (r *Result) SpecTextOnly() bool {
	if r.Status != StatusSurvived || r.Mutant.Equivalent != "" || len(r.Skipped) == 0 {
		return false
	}
	for _, c := range r.Skipped {
		if !IsConformanceName(c) {
			return false
		}
	}
	return true
}

// StatusSpecText is the status a report shows for a SpecTextOnly survivor.
const StatusSpecText = "spec-text difference"

// ShownStatus is the status a report prints for r: StatusSpecText for a
// survivor only spec-text conformance could have caught, else r.Status.
func (r *Result) ShownStatus() string {
	if r.SpecTextOnly() {
		return StatusSpecText
	}
	return r.Status
}

// CountSentence says how many mutants the catalogue holds, by layer (the
// override layer's M, the load's L, the history walk's H), and how many
// each tie policy's gate must catch (all but those declared equivalent
// under it, named): the one place the catalogue's count is written from
// (pinned by TestNoteCountsTheCatalogue).
func CountSentence() string {
	by := map[byte]int{}
	eq := map[model.TiePolicy][]string{}
	all := All()
	for _, m := range all {
		by[m.ID[0]]++
		for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
			if m.EquivalentUnder(tie) != "" {
				eq[tie] = append(eq[tie], m.ID)
			}
		}
	}
	part := func(tie model.TiePolicy) string {
		ids := eq[tie]
		s := fmt.Sprintf("under %s-wins %d are caught", tie, len(all)-len(ids))
		switch len(ids) {
		case 0:
			return s
		case 1:
			return s + " and " + ids[0] + " survives as declared equivalent"
		}
		return s + " and " + strings.Join(ids, ", ") + " survive as declared equivalent"
	}
	return fmt.Sprintf("%d mutants (%d of the override layer, %d of the load, %d of the history walk, %d of the community mechanisms): %s; %s",
		len(all), by['M'], by['L'], by['H'], by['K'], part(model.ClearWins), part(model.SetWins))
}

// ChangedFields names the rule fields the mutant replaces, each with what
// it holds ("Slots.GroupOf (a function of its own)", "Tie (set, not
// clear)"): the production rules and the mutant's, compared field by field
// (a function field by the code it runs). A witness page
// says with it where the mutant's change is, beside the rule it drops.
func (m Mutant) ChangedFields() []string {
	if m.Change.History != nil {
		a := historyBase(m.ID)
		b := a.Clone()
		m.Change.History(b)
		return diffFields(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), "")
	}
	if m.Change.Community != nil {
		a, b := community.Spec(), community.Spec().Clone()
		m.Change.Community(b)
		return diffFields(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), "")
	}
	a, b := model.Proposed(), model.Proposed().Clone()
	m.Change.ApplyModel(b)
	return diffFields(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), "")
}

func diffFields(a, b reflect.Value, prefix string) []string {
	var out []string
	for i := range a.NumField() {
		f := a.Type().Field(i)
		if !f.IsExported() || f.Name == "Name" {
			continue
		}
		x, y := a.Field(i), b.Field(i)
		switch x.Kind() {
		case reflect.Struct:
			out = append(out, diffFields(x, y, prefix+f.Name+".")...)
		case reflect.Func:
			if x.IsNil() != y.IsNil() || (!x.IsNil() && x.Pointer() != y.Pointer()) {
				out = append(out, prefix+f.Name+" (a function of its own)")
			}
		default:
			if !reflect.DeepEqual(x.Interface(), y.Interface()) {
				out = append(out, fmt.Sprintf("%s%s (%v, not %v)", prefix, f.Name, y.Interface(), x.Interface()))
			}
		}
	}
	return out
}
