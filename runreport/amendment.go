package runreport

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/witnessfile"
)

// Suite is a run of every check of the gate's suite with an amendment as
// the rule set.
type Suite struct {
	Amendment amendments.Amendment
	// Ties are the tie policies run (Amendment.Ties of those asked for).
	Ties    []model.TiePolicy
	Workers int
	Catalog *exhaustive.Catalog
	// Head is the run's first line; WitnessDir receives the witnesses.
	Head, WitnessDir string
	// Progress, when set, receives the runner's progress lines.
	Progress func(string)
	// Warn receives a witness that could not be written; the run goes on.
	Warn func(error)
}

// AmendmentTies is the tie policies a run of the amendment covers when
// tie ("clear", "set" or "both") is asked for: those, or the amendment's
// own when it decides ties itself (Amendment.Ties). named says the caller
// named tie rather than took a default: a policy named other than the
// one the amendment decides is refused.
func AmendmentTies(am amendments.Amendment, tie string, named bool) ([]model.TiePolicy, error) {
	tl, err := model.ParseTies(tie)
	if err != nil {
		return nil, err
	}
	if am.Pinned && named && (len(tl) != 1 || tl[0] != am.Tie) {
		return nil, fmt.Errorf("-tie %s: amendment %s decides ties itself (%s)", tie, am.Name, am.Tie)
	}
	return am.Ties(tl), nil
}

// AmendmentReport is what a whole-suite run of an amendment found, as its
// JSON document.
type AmendmentReport struct {
	Run        string   `json:"run"`
	Amendment  string   `json:"amendment"`
	Title      string   `json:"title"`
	Section    string   `json:"section"`
	Baseline   string   `json:"baseline"`
	Checked    []string `json:"checked"`
	NotChecked []string `json:"not_checked"`
	Safety     []string `json:"safety_findings"`
	SpecText   []string `json:"spec_text_findings"`
	Changes    []string `json:"changes"`
	Visible    []string `json:"visible_difference"`
	Witnesses  []string `json:"witnesses"`
	Verdict    string   `json:"verdict"`

	am    amendments.Amendment
	scope mutants.Scope
}

// RunSuite runs every check of the gate's suite (every universe,
// simulation, cube, load search, the history walk and the community
// universes) with the amendment as the rule set, as the gate's control
// runs them, and reports one verdict that rests on all of them: an
// amendment is never called safe on a part of the suite. Each check it
// fails writes its shortest witness; what a user can see differ is the
// lockstep search of proposed and the amendment (exhaustive.Diff).
func RunSuite(s Suite) (*AmendmentReport, error) {
	am := s.Amendment
	if len(s.Ties) == 0 {
		return nil, fmt.Errorf("amendment %s: no tie policy to run", am.Name)
	}
	warn := s.Warn
	if warn == nil {
		warn = func(error) {}
	}
	diffs := map[model.TiePolicy]*amendments.Diff{}
	for _, t := range s.Ties {
		diffs[t] = &amendments.Diff{}
	}
	opts := mutants.Options{
		Ties: s.Ties, Workers: s.Workers, Catalog: s.Catalog, ControlOnly: true, BaselineName: am.Name, Progress: s.Progress,
		Baseline: func(t model.TiePolicy) ruleset.Set {
			d := diffs[t]
			if d == nil {
				d = &amendments.Diff{}
			}
			set := am.Set(t)
			set.Model = d.Wrap(set.Model, am.Baseline(t))
			set.Model.Name = am.Name
			return set
		},
	}
	rep, err := mutants.Run(opts)
	if err != nil {
		return nil, err
	}
	out := &AmendmentReport{Run: s.Head, Amendment: am.Name, Title: am.Title, Section: am.Section, Baseline: model.ProposedName, am: am}
	sc := rep.ControlScope()
	out.scope = sc
	for _, c := range [][]string{sc.Safety, sc.SpecText} {
		out.Checked = append(out.Checked, c...)
	}
	slices.Sort(out.Checked)
	out.NotChecked = append([]string{}, sc.NotRun...)
	var safety, conf []string
	for _, t := range s.Ties {
		for _, f := range rep.Control[t] {
			line := fmt.Sprintf("%s %s (%s, %s)", f.Check, f.Invariant, t, mutants.DepthString(f))
			if mutants.IsConformanceName(f.Check) {
				conf = append(conf, line)
			} else {
				safety = append(safety, line)
			}
			if f.Witness == nil {
				continue
			}
			p, err := writeFindingWitness(s.WitnessDir, am.Name, f, t)
			if err != nil {
				warn(err)
				continue
			}
			out.Witnesses = append(out.Witnesses, p)
		}
		out.Changes = append(out.Changes, fmt.Sprintf("tie %s, every check: %s", t, diffs[t]))
	}
	conf = append(conf, am.TextDifferences()...)
	var diffWitness string
	out.Visible, diffWitness = visibleDifference(s.Catalog, am, s.Ties[0], s.WitnessDir)
	if diffWitness != "" {
		out.Witnesses = append(out.Witnesses, diffWitness)
	}
	out.Safety, out.SpecText = nonNil(safety), nonNil(conf)
	out.Verdict = mutants.Verdict(sc, safety, conf)
	return out, nil
}

// Exit is the exit code the verdict stands for (mutants.VerdictExit).
func (r *AmendmentReport) Exit() int { return mutants.VerdictExit(r.Verdict) }

// WriteText writes the report after its first line: the change, what it
// decides otherwise, what a user sees differ, what was checked, the two
// verdicts, the witnesses and the verdict line.
func (r *AmendmentReport) WriteText(w io.Writer) {
	am, sc := r.am, r.scope
	what := "amendment"
	if _, ok := mutants.LookupReading(am.Name); ok {
		what = "reading"
	}
	fmt.Fprintf(w, "\n%s %s (%s): %s\n  why: %s\n", what, am.Name, am.Section, am.Title, am.Rationale)
	fmt.Fprintf(w, "  applied to %s (the text and every proposal, ERRATA.md), and compared with it\n", r.Baseline)
	for _, c := range r.Changes {
		fmt.Fprintf(w, "  what it decides otherwise, %s\n", c)
	}
	for _, l := range r.Visible {
		fmt.Fprintln(w, "  "+l)
	}
	for _, l := range mutants.ScopeLines(sc, "") {
		fmt.Fprintln(w, l)
	}
	switch {
	case len(r.Safety) > 0:
		fmt.Fprintf(w, "safety: BROKEN: %s\n", strings.Join(r.Safety, ", "))
	default:
		fmt.Fprintf(w, "safety: every check run holds (%d)\n", len(sc.Safety))
	}
	switch {
	case len(r.SpecText) > 0:
		fmt.Fprintf(w, "spec-text conformance: differs from today's spec text: %s\n", strings.Join(r.SpecText, ", "))
	default:
		fmt.Fprintf(w, "spec-text conformance: does what the spec's text says on the %d conformance checks\n", len(sc.SpecText))
	}
	for _, p := range r.Witnesses {
		fmt.Fprintf(w, "witness written to %s (explore -replay %s; -html FILE draws it)\n", p, p)
	}
	fmt.Fprintf(w, "verdict: %s\n", r.Verdict)
}

// writeFindingWitness writes a finding's witness, named by amendment,
// check and tie, with its text beside it.
func writeFindingWitness(dir, name string, f *mutants.Finding, t model.TiePolicy) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("witness directory: %w", err)
	}
	base := filepath.Join(dir, fmt.Sprintf("amendment-%s-%s-%s", name, strings.ReplaceAll(f.Check, ":", "-"), t))
	if err := os.WriteFile(base+".json", f.Witness.JSON, 0o644); err != nil {
		return "", fmt.Errorf("write witness: %w", err)
	}
	if f.Witness.Text != "" {
		if err := os.WriteFile(base+".txt", []byte(f.Witness.Text), 0o644); err != nil {
			return "", fmt.Errorf("write witness: %w", err)
		}
	}
	return base + ".json", nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// visibleDifference is what a user can see change under the amendment:
// the lockstep search of proposed and the amendment in the reference
// universe (explore -diff), as lines, and the witness file of the
// difference written to dir ("" when none was found or written).
func visibleDifference(cat *exhaustive.Catalog, am amendments.Amendment, tie model.TiePolicy, dir string) ([]string, string) {
	u, err := cat.Universe("reference")
	if err != nil {
		return []string{"what a user sees differ: unknown (" + err.Error() + ")"}, ""
	}
	res, err := exhaustive.Diff(u, am.Baseline(tie), am.Rules(tie), 0)
	if err != nil {
		return []string{"what a user sees differ: unknown (" + err.Error() + ")"}, ""
	}
	if res.Differences == nil {
		return []string{fmt.Sprintf("what a user sees differ: nothing in the reference universe to depth %d (%d distinct pairs of states; explore -diff %s,%s)", res.Depth, res.Pairs, res.A, res.B)}, ""
	}
	lines := append([]string{"what a user sees differ (explore -diff " + res.A + "," + res.B + "):"}, res.Lines()...)
	p, err := witnessfile.WriteDiff(dir, res.WitnessJSON(tie), res.A, res.B, u.Name, tie.String())
	if err != nil {
		return append(lines, "  (witness not written: "+err.Error()+")"), ""
	}
	return lines, p
}

// ReadingAmendment is a reading of the text (mutants.Readings) as the
// change of proposed it is, so the whole suite judges it as it judges an
// amendment: its conformance checks, which decide the text's literal
// reading, report a spec-text difference, and its safety is the verdict.
func ReadingAmendment(rd mutants.Reading) amendments.Amendment {
	return amendments.Amendment{
		Name: rd.Name, Section: rd.Section,
		Title:     "the other reading of a sentence of the text (ERRATA.md, \"Sentences with two readings\")",
		Rationale: "a client that reads the sentence the other way; the text's literal reading is spec",
		Change: ruleset.OnModel(func(r *model.Rules) {
			tie := r.Tie
			*r = *rd.Rules().WithTie(tie)
		}),
	}
}
