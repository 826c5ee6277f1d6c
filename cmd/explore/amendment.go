package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/ruleset"
)

// suiteFlags are the flags with a meaning when an amendment runs the whole
// suite (explore -rules NAME without -universe): every other run flag
// bounds one universe, and the suite's checks have their own bounds.
var suiteFlags = map[string]bool{"rules": true, "tie": true, "workers": true, "witness": true, "progress": true, "json": true,
	"cpuprofile": true, "memprofile": true}

// amendmentReport is what a whole-suite run of an amendment found, as
// -json prints it.
type amendmentReport struct {
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
}

// exploreAmendment runs every check of the gate's suite (every universe,
// simulation, cube, load search, the history walk and the community
// universes) with the amendment as the rule set, as the gate's control
// runs them, and reports one verdict that rests on all of them: a spec
// author's amendment is never called safe on a part of the suite. Each
// check it fails writes its shortest witness.
func exploreAmendment(o *options, am amendments.Amendment, stdout, stderr io.Writer) int {
	for _, f := range o.set {
		if !suiteFlags[f] {
			return usageError(stderr, fmt.Errorf("-%s bounds one universe: with -rules %s alone every check of the suite runs at its own bounds (add -universe U to explore one universe)", f, am.Name))
		}
	}
	tl, err := cliTies(o, am)
	if err != nil {
		return usageError(stderr, err)
	}
	diffs := map[model.TiePolicy]*amendments.Diff{}
	for _, t := range tl {
		diffs[t] = &amendments.Diff{}
	}
	opts := mutants.Options{
		Ties: tl, Workers: o.workers, Catalog: cat, ControlOnly: true, BaselineName: am.Name,
		Baseline: func(t model.TiePolicy) ruleset.Set {
			d := diffs[t]
			if d == nil {
				d = &amendments.Diff{}
			}
			s := am.Set(t)
			s.Model = d.Wrap(s.Model, am.Baseline(t))
			s.Model.Name = am.Name
			return s
		},
	}
	if o.progress > 0 {
		opts.Progress = func(s string) { fmt.Fprintln(stderr, "explore:", s) }
	}
	head := fmt.Sprintf("explore -rules=%s -tie=%s -workers=%d: the whole suite (version %s)", am.Name, tieNames(tl), o.workers, cli.Version())
	if !o.json {
		fmt.Fprintln(stdout, head)
	}
	rep, err := mutants.Run(opts)
	if err != nil {
		return usageError(stderr, err)
	}
	out := amendmentReport{Run: head, Amendment: am.Name, Title: am.Title, Section: am.Section, Baseline: model.ProposedName}
	sc := rep.ControlScope()
	for _, c := range [][]string{sc.Safety, sc.SpecText} {
		out.Checked = append(out.Checked, c...)
	}
	slices.Sort(out.Checked)
	out.NotChecked = append([]string{}, sc.NotRun...)
	var safety, conf []string
	for _, t := range tl {
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
			p, err := writeAmendmentWitness(o.witness, am.Name, f, t)
			if err != nil {
				fmt.Fprintln(stderr, "explore:", err)
				continue
			}
			out.Witnesses = append(out.Witnesses, p)
		}
		out.Changes = append(out.Changes, fmt.Sprintf("tie %s, every check: %s", t, diffs[t]))
	}
	conf = append(conf, am.TextDifferences()...)
	var diffWitness string
	out.Visible, diffWitness = visibleDifference(am, tl[0], o.witness)
	if diffWitness != "" {
		out.Witnesses = append(out.Witnesses, diffWitness)
	}
	out.Safety, out.SpecText = nonNil(safety), nonNil(conf)
	out.Verdict = mutants.Verdict(sc, safety, conf)
	if o.json {
		b, _ := json.MarshalIndent(out, "", "  ") // plain data always marshals
		fmt.Fprintln(stdout, string(b))
	} else {
		writeAmendmentText(stdout, am, sc, out)
	}
	return mutants.VerdictExit(out.Verdict)
}

func writeAmendmentText(w io.Writer, am amendments.Amendment, sc mutants.Scope, out amendmentReport) {
	what := "amendment"
	if _, ok := mutants.LookupReading(am.Name); ok {
		what = "reading"
	}
	fmt.Fprintf(w, "\n%s %s (%s): %s\n  why: %s\n", what, am.Name, am.Section, am.Title, am.Rationale)
	fmt.Fprintf(w, "  applied to %s (the text and every proposal, ERRATA.md), and compared with it\n", out.Baseline)
	for _, c := range out.Changes {
		fmt.Fprintf(w, "  what it decides otherwise, %s\n", c)
	}
	for _, l := range out.Visible {
		fmt.Fprintln(w, "  "+l)
	}
	for _, l := range mutants.ScopeLines(sc, "") {
		fmt.Fprintln(w, l)
	}
	switch {
	case len(out.Safety) > 0:
		fmt.Fprintf(w, "safety: BROKEN: %s\n", strings.Join(out.Safety, ", "))
	default:
		fmt.Fprintf(w, "safety: every check run holds (%d)\n", len(sc.Safety))
	}
	switch {
	case len(out.SpecText) > 0:
		fmt.Fprintf(w, "spec-text conformance: differs from today's spec text: %s\n", strings.Join(out.SpecText, ", "))
	default:
		fmt.Fprintf(w, "spec-text conformance: does what the spec's text says on the %d conformance checks\n", len(sc.SpecText))
	}
	for _, p := range out.Witnesses {
		fmt.Fprintf(w, "witness written to %s (explore -replay %s; -html FILE draws it)\n", p, p)
	}
	fmt.Fprintf(w, "verdict: %s\n", out.Verdict)
}

// writeAmendmentWitness writes a finding's witness, named by amendment,
// check and tie, with its text beside it.
func writeAmendmentWitness(dir, name string, f *mutants.Finding, t model.TiePolicy) (string, error) {
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

func tieNames(tl []model.TiePolicy) string {
	if len(tl) == 2 {
		return "both"
	}
	return tl[0].String()
}

// cliTies is the tie policies an amendment's run covers: -tie, or the
// amendment's own when it decides ties itself (another -tie is refused).
func cliTies(o *options, am amendments.Amendment) ([]model.TiePolicy, error) {
	tl, err := cli.ParseTies(o.tie)
	if err != nil {
		return nil, err
	}
	if am.Pinned && o.isSet("tie") && (len(tl) != 1 || tl[0] != am.Tie) {
		return nil, fmt.Errorf("-tie %s: amendment %s decides ties itself (%s)", o.tie, am.Name, am.Tie)
	}
	return am.Ties(tl), nil
}

// visibleDifference is what a user can see change under the amendment:
// the lockstep search of proposed and the amendment in the reference
// universe (explore -diff), as lines, and the witness file of the
// difference written to dir ("" when none was found or written).
func visibleDifference(am amendments.Amendment, tie model.TiePolicy, dir string) ([]string, string) {
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
	p, err := writeDiffWitness(dir, res.WitnessJSON(tie), res.A, res.B, u.Name, tie.String())
	if err != nil {
		return append(lines, "  (witness not written: "+err.Error()+")"), ""
	}
	return lines, p
}

// readingAmendment is a reading of the text (mutants.Readings) as the
// change of proposed it is, so the whole suite judges it as it judges an
// amendment: its conformance checks, which decide the text's literal
// reading, report a spec-text difference, and its safety is the verdict.
func readingAmendment(rd mutants.Reading) amendments.Amendment {
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
