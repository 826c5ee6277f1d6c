package spec

import (
	"fmt"
	"slices"
	"strings"
)

// Problem kinds, in the order Audit reports them per row.
const (
	ProblemStale         = "stale"          // the row's sentence is not in the spec (edited or removed)
	ProblemSection       = "section"        // the sentence stands under another section now
	ProblemKeyword       = "keyword"        // the sentence's requirement word changed
	ProblemUnknownCheck  = "unknown-check"  // a named check does not exist
	ProblemUnknownMutant = "unknown-mutant" // a named mutant is not in the catalogue
	ProblemNotCaught     = "not-caught"     // a named mutant is caught by none of the row's checks
	ProblemUnlisted      = "unlisted"       // a MUST or MUST NOT sentence has no row
)

// Problem is one disagreement between the table, the spec and the
// catalogue.
type Problem struct {
	Kind string
	// ID is the requirement's id; empty for an unlisted sentence.
	ID     string
	Detail string
}

func (p Problem) String() string {
	if p.ID == "" {
		return fmt.Sprintf("%s: %s", p.Kind, p.Detail)
	}
	return fmt.Sprintf("%s %s: %s", p.ID, p.Kind, p.Detail)
}

// Audit compares the requirements with the spec's sentences and the
// catalogue. Rows are audited in table order, then unlisted sentences are
// reported in spec order; an unlisted sentence names the stale rows of its
// section, the likely old version of an edited sentence.
func Audit(reqs []Requirement, sents []Sentence, cat *Catalogue) []Problem {
	var out []Problem
	byFP := map[string]Sentence{}
	for _, s := range sents {
		byFP[s.Fingerprint] = s
	}
	listed := map[string]bool{}
	staleBySection := map[string][]string{}
	for _, r := range reqs {
		listed[r.Fingerprint] = true
		add := func(kind, format string, args ...any) {
			out = append(out, Problem{Kind: kind, ID: r.ID, Detail: fmt.Sprintf(format, args...)})
		}
		s, ok := byFP[r.Fingerprint]
		switch {
		case !ok:
			staleBySection[r.Section] = append(staleBySection[r.Section], r.ID)
			what := "it argued no check"
			if len(r.Checks) > 0 {
				what = "its checks " + strings.Join(r.Checks, ", ") + " now enforce no listed sentence"
			}
			add(ProblemStale, "%s, %q: the sentence is no longer in the spec (edited or removed); %s", r.Section, r.Paraphrase, what)
		case s.Section != r.Section:
			add(ProblemSection, "the sentence now stands under %q, the row says %q", s.Section, r.Section)
		case s.Keyword != r.Keyword:
			add(ProblemKeyword, "the sentence now says %s, the row says %s", s.Keyword, r.Keyword)
		}
		out = append(out, checkProblems(r, cat)...)
	}
	for _, s := range sents {
		if !s.Mandatory() || listed[s.Fingerprint] {
			continue
		}
		hint := ""
		if ids := staleBySection[s.Section]; len(ids) > 0 {
			hint = "; stale rows of that section: " + strings.Join(ids, ", ")
		}
		out = append(out, Problem{Kind: ProblemUnlisted, Detail: fmt.Sprintf("line %d (%s, fingerprint %s), no requirement lists %q%s",
			s.Line, s.Section, s.Fingerprint, s.Text, hint)})
	}
	return out
}

// AuditChecks is the part of Audit that needs no spec text: every check a
// row names exists, and every mutant it names is in the catalogue and
// caught by one of the row's checks. Whether the rows still stand in the
// text, and every MUST sentence has one, it cannot say.
func AuditChecks(reqs []Requirement, cat *Catalogue) []Problem {
	var out []Problem
	for _, r := range reqs {
		out = append(out, checkProblems(r, cat)...)
	}
	return out
}

// checkProblems is one row's checks and mutants against the catalogue.
func checkProblems(r Requirement, cat *Catalogue) []Problem {
	var out []Problem
	add := func(kind, format string, args ...any) {
		out = append(out, Problem{Kind: kind, ID: r.ID, Detail: fmt.Sprintf(format, args...)})
	}
	for _, c := range r.Checks {
		if !cat.Known(c) {
			add(ProblemUnknownCheck, "%s does not exist", c)
		}
	}
	for _, m := range r.Mutants {
		caught, ok := cat.CaughtBy[m]
		if !ok {
			add(ProblemUnknownMutant, "%s is not in the mutant catalogue", m)
			continue
		}
		if !slices.ContainsFunc(r.Checks, func(c string) bool { return caught[c] }) {
			add(ProblemNotCaught, "%s is caught by none of %s (caught by %s)", m, strings.Join(r.Checks, ", "), strings.Join(sortedSet(caught), ", "))
		}
	}
	return out
}

// Statuses of a requirement, in the order the table counts them.
const (
	StatusCaught  = "check, a mutant is caught by it"
	StatusTested  = "check by tests only (the note says why no mutant)"
	StatusArgued  = "argued only"
	StatusOutside = "uncheckable here"
)

// Statuses lists every status in table order.
var Statuses = []string{StatusCaught, StatusTested, StatusArgued, StatusOutside}

// Status classifies a requirement: a check row with a mutant caught by
// one of its checks shows its checks can fail; a check row without one
// rests on tests whose note says why no mutant of the seam exists.
func (c *Catalogue) Status(r Requirement) string {
	switch r.Kind {
	case KindArgued:
		return StatusArgued
	case KindOutside:
		return StatusOutside
	}
	for _, m := range r.Mutants {
		if slices.ContainsFunc(r.Checks, func(ch string) bool { return c.CaughtBy[m][ch] }) {
			return StatusCaught
		}
	}
	return StatusTested
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	if len(out) == 0 {
		return []string{"nothing"}
	}
	return out
}
