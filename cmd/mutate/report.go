package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

// gateDoc is a gate run as data: what -json prints, what a shard writes
// and what -merge combines. Everything in it is a function of the run's
// configuration (no times, no worker count), so a merge of shards and the
// run they split print the same bytes. The lines a reader needs (the
// control's verdict, each tie's summary, the problems) are derived from
// the data by finish, on both paths alike.
type gateDoc struct {
	Run string `json:"run"`
	// Build is the executable that ran it (cli.BuildID): -merge takes
	// only parts its own executable wrote.
	Build   string      `json:"build"`
	Shard   *cli.Shard  `json:"shard,omitempty"`
	Status  string      `json:"status"`
	Control controlDoc  `json:"control"`
	Lazy    bool        `json:"lazy,omitempty"`
	Suite   []jsonCheck `json:"suite"`
	// Mutants is a shard's part of the mutant list, in run order.
	Mutants   []string     `json:"shard_mutants,omitempty"`
	Results   []jsonResult `json:"results"`
	Summary   []string     `json:"summary"`
	Changed   []string     `json:"witnesses_changed,omitempty"`
	Witnesses string       `json:"witnesses"`
	Rewritten bool         `json:"witnesses_rewritten,omitempty"`
	Problems  []string     `json:"problems,omitempty"`

	// Not printed: the run's own knowledge for finish and the text report.
	ties     []model.TiePolicy
	baseline string
	elapsed  time.Duration
	times    []time.Duration // per result, for the text table
	update   bool
}

// controlDoc is the baseline's part: what it was checked by and not, what
// it tripped, and the verdict lines the text report prints.
type controlDoc struct {
	Baseline   string        `json:"baseline"`
	Title      string        `json:"title,omitempty"`
	Checked    []string      `json:"checked"`
	NotChecked []string      `json:"not_checked"`
	Findings   []jsonFinding `json:"findings,omitempty"`
	ScopeLines []string      `json:"scope"`
	Safety     string        `json:"safety"`
	SpecText   string        `json:"spec_text"`
	Verdict    string        `json:"verdict"`
}

type jsonFinding struct {
	Tie       string `json:"tie"`
	Check     string `json:"check"`
	Invariant string `json:"invariant"`
	Detail    string `json:"detail"`
}

type jsonResult struct {
	ID        string   `json:"id"`
	Rule      string   `json:"rule"`
	Section   string   `json:"section"`
	Tie       string   `json:"tie"`
	Status    string   `json:"status"`
	CaughtBy  string   `json:"caught_by,omitempty"`
	Invariant string   `json:"invariant,omitempty"`
	Depth     *int     `json:"depth,omitempty"`
	DepthText string   `json:"depth_text,omitempty"`
	Work      int64    `json:"states_or_points,omitempty"`
	Checks    int      `json:"checks_run"`
	Findings  []string `json:"caught_by_all,omitempty"`
	Missed    []string `json:"missed,omitempty"`
	Skipped   []string `json:"skipped,omitempty"`
	Problems  []string `json:"problems,omitempty"`
}

type jsonCheck struct {
	Name string `json:"name"`
	Work int64  `json:"work"`
}

// newDoc is the document of a finished run (before finish).
func newDoc(head string, rep *mutants.Report, changed []string, update bool) *gateDoc {
	d := &gateDoc{Run: head, Build: cli.BuildID(), Lazy: rep.Lazy, Changed: changed, ties: rep.Options.Ties, baseline: rep.Options.BaselineName,
		elapsed: rep.Elapsed, update: update}
	d.Control.Baseline = rep.Options.BaselineName
	for _, tie := range rep.Options.Ties {
		for _, f := range rep.Control[tie] {
			d.Control.Findings = append(d.Control.Findings, jsonFinding{tie.String(), f.Check, f.Invariant, f.Detail})
		}
	}
	for _, c := range rep.Suite {
		d.Suite = append(d.Suite, jsonCheck{c.Name, c.Work})
	}
	for _, r := range rep.Results {
		j := jsonResult{ID: r.Mutant.ID, Rule: r.Mutant.Rule, Section: r.Mutant.Section, Tie: r.Tie.String(), Status: r.ShownStatus(),
			Checks: r.Ran, Findings: r.CaughtBy(), Missed: r.Missed, Skipped: r.Skipped, Problems: r.Problems(rep.Options.All)}
		if f := r.First; f != nil {
			dep := f.Depth
			j.CaughtBy, j.Invariant, j.Depth, j.Work, j.DepthText = f.Check, f.Invariant, &dep, f.Work, mutants.DepthString(f)
		}
		d.Results = append(d.Results, j)
		d.times = append(d.times, r.Elapsed)
	}
	return d
}

// finish derives the lines from the data: the control's scope and
// verdict, each tie's summary, the problems and the status. Control
// findings are put in (tie, check) order first, so the order they were
// found in (which a lazy or sharded run changes) never shows.
func (d *gateDoc) finish() {
	tieIdx := func(s string) int {
		for i, t := range d.ties {
			if t.String() == s {
				return i
			}
		}
		return len(d.ties)
	}
	slices.SortStableFunc(d.Control.Findings, func(a, b jsonFinding) int {
		if x, y := tieIdx(a.Tie), tieIdx(b.Tie); x != y {
			return x - y
		}
		return strings.Compare(a.Check, b.Check)
	})
	ran := map[string]bool{}
	for _, c := range d.Suite {
		ran[c.Name] = true
	}
	all := mutants.SuiteChecks(cat)
	slices.SortStableFunc(all, func(a, b mutants.Check) int { return strings.Compare(a.Name, b.Name) })
	scope := mutants.ScopeOf(all, func(n string) bool { return ran[n] })
	c := &d.Control
	c.Checked, c.NotChecked = nil, scope.NotRun
	for _, ch := range all {
		if ran[ch.Name] {
			c.Checked = append(c.Checked, ch.Name)
		}
	}
	if c.NotChecked == nil {
		c.NotChecked = []string{}
	}
	if a, ok := amendments.Lookup(d.baseline); ok {
		c.Title = fmt.Sprintf("amendment %s (%s): %s", a.Name, a.Section, a.Title)
	}
	if r, ok := mutants.LookupReading(d.baseline); ok {
		c.Title = fmt.Sprintf("reading %s (%s)", r.Name, r.Section)
	}
	c.ScopeLines = mutants.ScopeLines(scope, "")
	var safety, conf []string
	for _, f := range c.Findings {
		s := fmt.Sprintf("%s %s (%s)", f.Check, f.Invariant, f.Tie)
		if mutants.IsConformanceName(f.Check) {
			conf = append(conf, s)
		} else {
			safety = append(safety, s)
		}
	}
	if a, ok := amendments.Lookup(d.baseline); ok {
		conf = append(conf, a.TextDifferences()...)
	}
	c.Safety, c.SpecText = safetyLine(scope, safety), specTextLine(scope, conf, d.baseline)
	c.Verdict = mutants.Verdict(scope, safety, conf)
	if len(safety) > 0 {
		// A mutant of an unsafe baseline is not judged: a check the
		// baseline fails cannot catch it, so "survived" would be noise
		// beside the one finding that matters, the baseline's own.
		for i := range d.Results {
			if r := &d.Results[i]; r.Status == mutants.StatusSurvived || r.Status == mutants.StatusSpecText {
				r.Status, r.Problems = StatusNotJudged, nil
			}
		}
	}

	d.Summary = nil
	for _, tie := range d.ties {
		d.Summary = append(d.Summary, d.summaryLine(tie))
	}
	switch {
	case d.update && len(d.Changed) > 0:
		d.Witnesses, d.Rewritten = "rewrote "+strings.Join(d.Changed, ", "), true
	case d.baseline != "proposed":
		d.Witnesses = "not compared (the golden files are recorded against spec)"
	case len(d.Changed) == 0:
		d.Witnesses = "every golden file matches"
	default:
		d.Witnesses = "changed: " + strings.Join(d.Changed, ", ")
	}
	d.Problems = nil
	for _, f := range c.Findings {
		if d.baseline != "proposed" && mutants.IsConformanceName(f.Check) {
			continue // the amendment's expected difference from today's text
		}
		d.Problems = append(d.Problems, fmt.Sprintf("control (%s, tie %s): %s reports %s: %s", d.baseline, f.Tie, f.Check, f.Invariant, f.Detail))
	}
	for _, r := range d.Results {
		for _, p := range r.Problems {
			d.Problems = append(d.Problems, fmt.Sprintf("%s (tie %s): %s", r.ID, r.Tie, p))
		}
	}
	if !d.update {
		for _, ch := range d.Changed {
			d.Problems = append(d.Problems, "witness changed: "+ch+" (rerun with -update to accept)")
		}
	}
	d.Status = "ok"
	if len(d.Problems) > 0 {
		d.Status = "failed"
	}
}

func safetyLine(scope mutants.Scope, safety []string) string {
	switch {
	case len(safety) > 0:
		return "BROKEN: " + strings.Join(safety, ", ")
	case len(scope.NotRun) > 0:
		return fmt.Sprintf("holds on the %d safety checks run; not decided on the %d not run", len(scope.Safety), len(scope.NotRun))
	}
	return fmt.Sprintf("holds on every safety check (%d: universes, simulations, law and hazard cubes, load soundness)", len(scope.Safety))
}

func specTextLine(scope mutants.Scope, conf []string, baseline string) string {
	unused := ""
	if baseline != "proposed" {
		unused = " (expected of an amendment; those checks are not used to catch mutants)"
	}
	switch {
	case len(conf) > 0:
		return "differs from today's spec text: " + strings.Join(conf, ", ") + unused
	case len(scope.SpecText) == 0:
		return "not checked (no conformance check ran)"
	case len(scope.NotRun) > 0:
		return fmt.Sprintf("agrees with today's spec text on the %d conformance checks run (%s); the others not run",
			len(scope.SpecText), strings.Join(scope.SpecText, ", "))
	}
	return fmt.Sprintf("agrees with today's spec text (all %d conformance checks)", len(scope.SpecText))
}

// StatusNotJudged is what a mutant that no check caught shows when the
// baseline itself fails a safety check.
const StatusNotJudged = "not judged"

// summaryLine is one tie policy's outcome: the counts, and for every
// mutant that survived, is a spec-text difference or is equivalent, why.
func (d *gateDoc) summaryLine(tie model.TiePolicy) string {
	var caught, unjudged int
	var surv, text, eq []string
	for _, r := range d.Results {
		if r.Tie != tie.String() {
			continue
		}
		m, _ := mutants.Lookup(r.ID)
		switch r.Status {
		case mutants.StatusCaught:
			caught++
		case StatusNotJudged:
			unjudged++
		case mutants.StatusEquivalent:
			eq = append(eq, fmt.Sprintf("%s, expected: %s", r.ID, m.EquivalentUnder(tie)))
		case mutants.StatusSpecText:
			text = append(text, fmt.Sprintf("%s, only %s could catch it, a spec-text conformance check %s itself fails, and no safety check objects",
				r.ID, strings.Join(r.Skipped, ", "), d.baseline))
		default:
			why := "not expected"
			switch {
			case len(r.Skipped) > 0:
				why = "the baseline itself fails " + strings.Join(r.Skipped, ", ")
			case tie != model.ClearWins:
				why = "outcomes under set-wins are recorded, not required"
			}
			surv = append(surv, fmt.Sprintf("%s, %s", r.ID, why))
		}
	}
	line := fmt.Sprintf("%s-wins: %d caught, %d survived, %d equivalent", tie, caught, len(surv), len(eq))
	if len(text) > 0 {
		line = fmt.Sprintf("%s-wins: %d caught, %d survived, %d spec-text differences, %d equivalent", tie, caught, len(surv), len(text), len(eq))
	}
	if unjudged > 0 {
		line += fmt.Sprintf(", %d not judged (the baseline itself fails a safety check)", unjudged)
	}
	if len(surv) > 0 {
		line += "; survived: " + strings.Join(surv, "; ")
	}
	if len(text) > 0 {
		line += "; spec-text differences (not safety failures): " + strings.Join(text, "; ")
	}
	if len(eq) > 0 {
		line += "; equivalent: " + strings.Join(eq, "; ")
	}
	return line
}

func (d *gateDoc) writeJSON(w io.Writer) {
	b, _ := json.MarshalIndent(d, "", "  ") // plain data always marshals
	fmt.Fprintln(w, string(b))
}
