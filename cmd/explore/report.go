package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

func cell(points, violations int) string {
	if points == 0 && violations == 0 {
		return "not checked"
	}
	if violations > 0 {
		return fmt.Sprintf("FAIL %s/%s", num.Commas(violations), num.Commas(points))
	}
	return "PASS " + num.Commas(points)
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.0fms", float64(d.Microseconds())/1000)
}

func writeText(w io.Writer, out *outcome, stderr io.Writer) {
	if len(out.Explore) > 0 {
		u, _ := cat.Universe(out.Universe)
		fmt.Fprintf(w, "\nuniverse %s: %s\n", u.Name, u.Doc)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "tie\tnew states per depth\tdistinct\tchecked\ttransitions\tdevice states\tresult\ttime")
		for _, r := range out.Explore {
			res := r.Status.String()
			if r.BoundHit != "" {
				res += " (" + r.BoundHit + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Tie, exhaustive.PerDepthString(r.PerDepth), num.Commas(r.Distinct),
				num.Commas(r.Checked), num.Commas(r.Transitions), num.Commas(r.DeviceStates), res, ms(r.Elapsed))
		}
		tw.Flush()
		for _, r := range out.Explore {
			for _, l := range r.CoverageLines() {
				fmt.Fprintf(w, "  %s-wins %s\n", r.Tie, l)
			}
		}
	}

	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "ID\tinvariant"
	for _, r := range out.Explore {
		head += "\t" + r.Tie.String() + "-wins"
	}
	var tl []model.TiePolicy
	for _, r := range out.Explore {
		tl = append(tl, r.Tie)
	}
	fmt.Fprintln(tw, head+"\ttime")
	// The invariant rows are the world's table (exhaustive's invariant
	// tables), in label order.
	var rows []exhaustive.InvariantCount
	if len(out.Explore) > 0 {
		rows = slices.Clone(out.Explore[0].Invariants)
		slices.SortStableFunc(rows, func(a, b exhaustive.InvariantCount) int { return naturalCompare(a.Label, b.Label) })
	}
	for _, row := range rows {
		line := row.Label + "\t" + row.Doc
		for _, r := range out.Explore {
			if c, ok := r.Invariant(row.Name); ok {
				if c.Checked == 0 && c.Violations == 0 {
					line += "\tnot checked"
					continue
				}
				line += "\t" + cell(int(c.Checked), int(c.Violations)) + " " + c.Unit
			}
		}
		fmt.Fprintln(tw, line+"\t(search)")
	}
	for _, s := range out.Directed {
		line := s.Label + "\t" + s.Name + " [" + s.Key + "]"
		for i, t := range tl {
			switch {
			case !s.TieIndependent:
				line += "\t" + cell(s.Points[t], s.Violations[t])
			case i == 0:
				line += "\t" + cell(s.Points[model.ClearWins], s.Violations[model.ClearWins]) + " (either tie)"
			default:
				line += "\t"
			}
		}
		fmt.Fprintln(tw, line+"\t"+ms(s.Elapsed))
	}
	tw.Flush()
	for _, s := range out.Directed {
		if t := s.TallyString(); t != "" {
			fmt.Fprintf(w, "  %s: %s\n", s.Key, t)
		}
	}

	for _, nw := range out.witnesses() {
		text, err := witnessText(nw.w)
		if err != nil {
			fmt.Fprintln(stderr, "explore: rendering witness:", err)
			continue
		}
		fmt.Fprintf(w, "\n%s", text)
	}
	for _, f := range out.Files {
		fmt.Fprintf(w, "witness written to %s\n", f)
	}
	writeVerdict(w, out)
	fmt.Fprintf(w, "\nresult: %s\n", resultLine(out))
}

func resultLine(out *outcome) string {
	var failed []string
	for _, r := range out.Explore {
		for _, c := range r.Invariants {
			if c.Violations > 0 {
				failed = append(failed, fmt.Sprintf("%s (%s)", c.Name, r.Tie))
			}
		}
	}
	for _, s := range out.Directed {
		for _, t := range []model.TiePolicy{model.ClearWins, model.SetWins} {
			if s.Violations[t] > 0 {
				failed = append(failed, fmt.Sprintf("%s (%s)", s.Key, t))
			}
		}
	}
	switch {
	case out.Status == "violation" && (out.Amendment != nil || out.Reading != nil):
		// The verdict above judges them: a spec-text difference alone is
		// not a failure of an amendment or of a reading of the text.
		return "checks that failed: " + strings.Join(failed, ", ") + "; the run exits by its verdict (above)"
	case out.Status == "violation":
		return "violation: " + strings.Join(failed, ", ")
	case out.Status == "unknown":
		return "unknown: a resource bound was hit before the depth bound"
	}
	return "ok, no violation"
}

type jsonInvariant struct {
	Name       string `json:"name"`
	Label      string `json:"label"`
	Unit       string `json:"unit"`
	Checked    int64  `json:"checked"`
	Violations int64  `json:"violations"`
}

type jsonExplore struct {
	Universe     string               `json:"universe"`
	Depth        int                  `json:"depth"`
	Tie          string               `json:"tie"`
	Rules        string               `json:"rules"`
	Status       string               `json:"status"`
	BoundHit     string               `json:"bound_hit,omitempty"`
	Distinct     int                  `json:"distinct"`
	PerDepth     []int                `json:"per_depth"`
	Checked      int                  `json:"checked_at_bound"`
	Transitions  int64                `json:"transitions"`
	Registers    int64                `json:"registers_checked"`
	DeviceStates int                  `json:"device_states"`
	Invariants   []jsonInvariant      `json:"invariants"`
	Witness      *witnessfile.Witness `json:"witness,omitempty"`
	// Witnesses is one per violated invariant, with -all.
	Witnesses []*witnessfile.Witness `json:"witnesses,omitempty"`
	ElapsedMS float64                `json:"elapsed_ms"`
	// Network universes only.
	Symmetry   *bool            `json:"symmetry,omitempty"`
	Actions    map[string]int64 `json:"actions,omitempty"`
	Sometimes  map[string]int64 `json:"sometimes,omitempty"`
	Deliveries map[string]int64 `json:"deliveries,omitempty"`
	Oracle     map[string]int64 `json:"oracle,omitempty"`
	Unreached  []string         `json:"unreached,omitempty"`
}

func countMap(cs []exhaustive.CoverageCount) map[string]int64 {
	if cs == nil {
		return nil
	}
	m := map[string]int64{}
	for _, c := range cs {
		m[c.Name] = c.Count
	}
	return m
}

type jsonCheck struct {
	Key            string                 `json:"key"`
	Label          string                 `json:"label"`
	Name           string                 `json:"name"`
	TieIndependent bool                   `json:"tie_independent,omitempty"`
	Points         map[string]int         `json:"points"`
	Violations     map[string]int         `json:"violations"`
	Total          int                    `json:"total"`
	Tallies        map[string]int         `json:"tallies,omitempty"`
	Witnesses      []*witnessfile.Witness `json:"witnesses,omitempty"`
	ElapsedMS      float64                `json:"elapsed_ms"`
}

type jsonOutcome struct {
	Run          string        `json:"run"`
	Status       string        `json:"status"`
	Explore      []jsonExplore `json:"explore"`
	Directed     []jsonCheck   `json:"directed,omitempty"`
	WitnessFiles []string      `json:"witness_files,omitempty"`
}

func toJSON(out *outcome) jsonOutcome {
	j := jsonOutcome{Run: out.Run, Status: out.Status, WitnessFiles: out.Files, Explore: []jsonExplore{}}
	for _, r := range out.Explore {
		e := jsonExplore{Universe: r.Universe, Depth: r.Depth, Tie: r.Tie.String(), Rules: r.Rules, Status: r.Status.String(), BoundHit: r.BoundHit,
			Distinct: r.Distinct, PerDepth: r.PerDepth, Checked: r.Checked, Transitions: r.Transitions, Registers: r.Registers,
			DeviceStates: r.DeviceStates, Witness: r.Witness, ElapsedMS: float64(r.Elapsed.Microseconds()) / 1000}
		if out.All {
			e.Witnesses = r.Witnesses
		}
		for _, c := range r.Invariants {
			e.Invariants = append(e.Invariants, jsonInvariant{Name: c.Name, Label: c.Label, Unit: c.Unit, Checked: c.Checked, Violations: c.Violations})
		}
		if r.Actions != nil {
			sym := r.Symmetry
			e.Symmetry, e.Actions, e.Sometimes, e.Deliveries, e.Oracle = &sym, countMap(r.Actions), countMap(r.Sometimes), countMap(r.Deliveries), countMap(r.Oracle)
			e.Unreached = r.Unreached()
		}
		j.Explore = append(j.Explore, e)
	}
	for _, s := range out.Directed {
		c := jsonCheck{Key: s.Key, Label: s.Label, Name: s.Name, TieIndependent: s.TieIndependent, Points: map[string]int{}, Violations: map[string]int{},
			Total: s.Total, Tallies: s.Tallies, Witnesses: s.Witnesses, ElapsedMS: float64(s.Elapsed.Microseconds()) / 1000}
		for t, n := range s.Points {
			c.Points[t.String()] = n
		}
		for t, n := range s.Violations {
			c.Violations[t.String()] = n
		}
		j.Directed = append(j.Directed, c)
	}
	return j
}

func writeJSON(w io.Writer, out *outcome) {
	b, _ := json.Marshal(toJSON(out)) // plain data always marshals
	w.Write(append(b, '\n'))
}

// naturalCompare orders labels with their numbers as numbers (N2 < N10),
// then by the rest.
func naturalCompare(a, b string) int {
	pa, na := splitLabel(a)
	pb, nb := splitLabel(b)
	if c := strings.Compare(pa, pb); c != 0 {
		return c
	}
	return na - nb
}

func splitLabel(s string) (string, int) {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 {
		return s, -1
	}
	n, j := 0, i
	for ; j < len(s) && s[j] >= '0' && s[j] <= '9'; j++ {
		n = n*10 + int(s[j]-'0')
	}
	return s[:i], n
}
