package comparison

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/witnessfile"
)

// WriteText prints the table: a row per invariant, a column per candidate
// and tie policy, then why each n/a cell cannot be run, then the witness of
// every violated cell.
func (t *Table) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"row"}
	for _, c := range t.Columns {
		head = append(head, c.Header())
	}
	fmt.Fprintln(tw, strings.Join(append(head, "invariant"), "\t"))
	for _, r := range t.Rows {
		line := []string{r.Label}
		for _, c := range r.Cells {
			line = append(line, c.Text())
		}
		fmt.Fprintln(tw, strings.Join(append(line, r.Doc), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if na := t.reasons(); len(na) > 0 {
		fmt.Fprintln(w, "not applicable:")
		for _, l := range na {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if vs := t.violations(); len(vs) > 0 {
		fmt.Fprintln(w, "violated:")
		for _, l := range vs {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	return nil
}

// reasons lists each distinct (candidate, reason) once, with its rows.
func (t *Table) reasons() []string {
	type key struct{ cand, reason string }
	var order []key
	rows := map[key][]string{}
	for _, r := range t.Rows {
		for i, c := range r.Cells {
			if c.Verdict != NA {
				continue
			}
			k := key{t.Columns[i].Candidate, c.Reason}
			if _, ok := rows[k]; !ok {
				order = append(order, k)
			}
			if l := rows[k]; len(l) == 0 || l[len(l)-1] != r.Label {
				rows[k] = append(l, r.Label)
			}
		}
	}
	var out []string
	for _, k := range order {
		out = append(out, fmt.Sprintf("%s %s: %s", k.cand, strings.Join(rows[k], ", "), k.reason))
	}
	return out
}

// violations lists every violated cell with the check that failed and its
// witness (invariant and steps, or the failing point).
func (t *Table) violations() []string {
	var out []string
	for _, r := range t.Rows {
		for i, c := range r.Cells {
			if c.Verdict != Violated {
				continue
			}
			var failed []string
			for _, s := range c.Sources {
				if s.Violations > 0 {
					failed = append(failed, fmt.Sprintf("%s (%s of %s %s)", s.Check, num.Commas(s.Violations), num.Commas(s.Checked), s.Unit))
				}
			}
			l := fmt.Sprintf("%s %s: %s", r.Label, t.Columns[i].Header(), strings.Join(failed, "; "))
			switch w := c.Witness; {
			case w != nil && len(w.Actions) > 0:
				var steps []string
				for _, a := range w.Actions {
					steps = append(steps, actionText(a.Action, a.Device, a.From, a.To, a.Ctx, a.Value))
				}
				l += fmt.Sprintf("; witness %s: %s", w.Invariant, strings.Join(steps, ", "))
			case w != nil:
				l += fmt.Sprintf("; witness %s at %s", w.Invariant, w.Point)
			default:
				for _, s := range c.Sources {
					if s.First != "" {
						l += "; first: " + s.First
						break
					}
				}
			}
			out = append(out, l)
		}
	}
	return out
}

func actionText(name string, dev, from, to *int, ctx string, v uint32) string {
	switch {
	case from != nil && to != nil:
		return fmt.Sprintf("%s d%d->d%d", name, *from, *to)
	case dev != nil && v != 0:
		return fmt.Sprintf("%s d%d %s %d", name, *dev, ctx, v)
	case dev != nil && ctx != "":
		return fmt.Sprintf("%s d%d %s", name, *dev, ctx)
	case dev != nil:
		return fmt.Sprintf("%s d%d", name, *dev)
	}
	return name
}

// WriteJSON prints the table as one JSON object (every source with its
// counts and witness).
func (t *Table) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

// Violated reports whether any cell is violated; Unknown whether any run
// stopped at a bound.
func (t *Table) Violated() bool { return t.any(Violated) }
func (t *Table) Unknown() bool  { return t.any(Unknown) }

func (t *Table) any(v string) bool {
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if c.Verdict == v {
				return true
			}
		}
	}
	return false
}

// Witnesses lists the witness of every violated cell, each once, with a
// file name naming its column and invariant (an invariant belongs to one
// row).
func (t *Table) Witnesses() (names []string, ws []*witnessfile.Witness) {
	for _, r := range t.Rows {
		for i, c := range r.Cells {
			if c.Verdict == Violated && c.Witness != nil {
				col := t.Columns[i]
				names = append(names, fmt.Sprintf("compare-%s-%s-%s.json", fileSafe(col.Candidate), col.Tie, fileSafe(c.Witness.Invariant)))
				ws = append(ws, c.Witness)
			}
		}
	}
	return names, ws
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}
