package runreport

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// EntryOutput is where an entry run's witness goes besides its report:
// the witness directory, the page of its witness (nil: none), and Warn,
// told of a witness file of a search not written (the report goes on).
type EntryOutput struct {
	Dir  string
	Page func(*witnessfile.Witness) error
	Warn func(error)
}

// Report writes the run's witness files under out.Dir, its page, and its
// report to w (with EntryArgs.JSON the walk's document), and returns its
// exit code (internal/cli's). err is an error of the command's input:
// the page could not be written, or a simulation's witness could not
// (without it the run's finding cannot be replayed).
func (r *EntryRun) Report(w io.Writer, out EntryOutput) (code int, err error) {
	switch {
	case r.simulation():
		return r.reportWalkSimulation(w, out)
	case r.walk():
		return r.reportWalk(w, out)
	}
	return r.reportEntry(w, out), nil
}

// reportEntry writes an entry's figures, its violated invariants, its
// smallest witness and the result line.
func (r *EntryRun) reportEntry(w io.Writer, out EntryOutput) int {
	s, e := r.Summary, r.Entry
	fmt.Fprintln(w, r.Header)
	fmt.Fprintf(w, "\nuniverse %s (%s layer): %s\n%s distinct states\n", e.Name, e.Layer, e.Doc, num.Commas(s.Distinct))
	ids := s.ViolatedIDs()
	for _, id := range ids {
		fmt.Fprintf(w, "  %-34s FAIL %s\n", id, num.Commas(s.Violations[id]))
	}
	if s.JSON != nil {
		fmt.Fprintf(w, "\n%s", s.Text)
		name := fmt.Sprintf("explore-%s-depth%d-%s.json", e.Name, r.Depth, r.Rules.Name)
		if e.Layer == ruleset.LayerModel {
			name = fmt.Sprintf("explore-%s-depth%d-%s-%s.json", e.Name, r.Depth, r.Tie, r.Rules.Name)
		}
		p, err := witnessfile.WriteNamed(out.Dir, name, s.JSON)
		if err != nil {
			out.Warn(err)
		} else {
			r.Files = append(r.Files, p)
			fmt.Fprintf(w, "witness written to %s\n", p)
		}
	}
	switch s.Status {
	case search.StatusViolation:
		fmt.Fprintf(w, "\nresult: violation: %s\n", strings.Join(ids, ", "))
		return cli.ExitFailed
	case search.StatusUnknown:
		fmt.Fprintf(w, "\nresult: unknown: %s\n", s.BoundHit)
		return cli.ExitUnknown
	}
	fmt.Fprintln(w, "\nresult: ok, no violation")
	return cli.ExitOK
}

// reportWalk writes the walk's search: its witness files first (a file
// not written is a warning), the page, then the text or the document.
func (r *EntryRun) reportWalk(w io.Writer, out EntryOutput) (int, error) {
	s := r.Summary
	base := fmt.Sprintf("explore-%s%s-depth%d-%s", history.UniverseName, strings.ReplaceAll(r.variantFlag(), " -variant=", "-"), r.Depth, r.Rules.Name)
	files, err := witnessfile.WriteWithText(out.Dir, base, s.Witness, s.Text)
	if err != nil {
		out.Warn(err)
	}
	r.Files = files
	if out.Page != nil && s.Witness != nil {
		if err := out.Page(s.Witness); err != nil {
			return cli.ExitUsage, err
		}
	}
	documented, broken := s.Findings()
	if r.args.JSON {
		code := walkResult(io.Discard, documented, broken, walkBound(s))
		status := map[int]string{cli.ExitOK: "ok", cli.ExitFailed: "violation", cli.ExitUnknown: "unknown"}[code]
		b, _ := json.MarshalIndent(map[string]any{"run": r.Header, "status": status, "universe": history.UniverseName, "rules": r.Rules.Name,
			"depth": r.Depth, "distinct": s.Distinct, "per_depth": s.PerDepth, "rounds": s.Counters["rounds"],
			"documented_limitation": s.Documented, "violations": s.Violations, "witness": s.Witness, "witness_files": files}, "", "  ")
		fmt.Fprintln(w, string(b)) // plain data always marshals (encoding/json sorts its keys)
		return code, nil
	}
	fmt.Fprintln(w, r.Header)
	fmt.Fprintf(w, "\nuniverse %s: %s\n", history.UniverseName, catalog.WalkDoc())
	fmt.Fprintf(w, "new states per depth %s, %s distinct, %s rounds run\n", perDepth(s.PerDepth), num.Commas(s.Distinct), num.Commas(s.Counters["rounds"]))
	writeWalkTable(w, s)
	if s.Witness != nil {
		fmt.Fprintf(w, "\n%s", s.Text)
	}
	for _, f := range files {
		fmt.Fprintf(w, "witness written to %s\n", f)
	}
	return walkResult(w, documented, broken, walkBound(s)), nil
}

// walkBound is the bound that cut the walk's search short, or "" when it
// ran to its depth.
func walkBound(s *catalog.Summary) string {
	if s.Status == search.StatusUnknown {
		return s.BoundHit
	}
	return ""
}

// reportWalkSimulation writes the walk's simulation: the seed and the
// figures, the table, the shrunk witness and its files, the result.
func (r *EntryRun) reportWalkSimulation(w io.Writer, out EntryOutput) (int, error) {
	s, a := r.Summary, r.args
	c := s.Counters
	fmt.Fprintln(w, r.Header)
	fmt.Fprintf(w, "seed %d: %d walks, %d steps, %d states checked, %d rounds, %d walks stuck\n",
		a.Seed, c["walks"], c["steps"], s.Distinct, c["rounds"], c["stuck"])
	writeWalkTable(w, s)
	documented, broken := s.Findings()
	if s.Witness != nil {
		kind := "violation"
		if _, known := s.Documented[s.Witness.Invariant]; known {
			kind = "documented limitation"
		}
		fmt.Fprintf(w, "%s %s in walk %d after %d steps, shrunk to %d\n%s", kind, s.Witness.Invariant, c["walk"], c["raw_depth"], len(s.Witness.Actions), s.Text)
		files, err := witnessfile.WriteWithText(out.Dir, fmt.Sprintf("simulate-%s-seed%d-%s", history.UniverseName, a.Seed, r.Rules.Name), s.Witness, s.Text)
		if err != nil {
			return cli.ExitUsage, err
		}
		r.Files = files
		for _, f := range files {
			fmt.Fprintf(w, "witness written to %s\n", f)
		}
		if out.Page != nil {
			if err := out.Page(s.Witness); err != nil {
				return cli.ExitUsage, err
			}
		}
	}
	return walkResult(w, documented, broken, ""), nil
}

// walkResult is the last lines of a walk run and its exit code: only a
// violation the rule set is not documented to have fails it.
func walkResult(w io.Writer, documented, broken []string, bound string) int {
	switch {
	case len(broken) > 0:
		fmt.Fprintf(w, "\nresult: violation: %s\n", strings.Join(broken, ", "))
		return cli.ExitFailed
	case bound != "":
		// What lies past the bound did not run: not ok, even when all
		// found so far is the documented limitation.
		fmt.Fprintf(w, "\nresult: unknown: %s\n", bound)
		return cli.ExitUnknown
	case len(documented) > 0:
		fmt.Fprintf(w, "\nresult: ok, only the rule set's documented limitation: %s\n", strings.Join(documented, ", "))
		return cli.ExitOK
	}
	fmt.Fprintln(w, "\nresult: ok, no violation")
	return cli.ExitOK
}

// writeWalkTable writes one row per invariant of the walk: what it says
// and whether it held, failed, or failed as documented.
func writeWalkTable(w io.Writer, s *catalog.Summary) {
	fmt.Fprintln(w)
	for _, inv := range history.Invariants {
		res := "holds"
		if n := s.Violations[inv.ID]; n > 0 {
			res = "FAIL " + num.Commas(n)
		}
		if n := s.Documented[inv.ID]; n > 0 {
			res = "documented limitation, " + num.Commas(n)
		}
		fmt.Fprintf(w, "  %-4s %-22s %s: %s\n", inv.Label, inv.ID, inv.Doc, res)
	}
}

func perDepth(ns []int) string {
	var ss []string
	for _, n := range ns {
		ss = append(ss, num.Commas(n))
	}
	return strings.Join(ss, "/")
}

// WorseExit is the exit code of two runs together: a violation outranks
// an unknown result, which outranks ok.
func WorseExit(a, b int) int {
	rank := func(c int) int {
		switch c {
		case cli.ExitFailed:
			return 2
		case cli.ExitUnknown:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}
