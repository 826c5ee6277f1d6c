package amendments

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/nip-rs/harness/model"
)

// Diff records, while a run decides through the amended rules, every
// distinct input on which a register rule (join, liveness verdict,
// canonical form, mark-unread, mark-read) decides otherwise than the
// production rules under their own tie policy would. The run itself is
// unchanged: each wrapped rule returns the amended decision.
type Diff struct {
	mu    sync.Mutex
	calls map[string]map[string]bool   // rule -> every distinct input seen
	diff  map[string]map[string]string // rule -> distinct input decided otherwise -> what differs, in words
}

// Wrap returns amended with its register rules wrapped to record into d,
// compared with spec (the production rules; their tie is spec's own).
func (d *Diff) Wrap(amended, spec *model.Rules) *model.Rules {
	d.mu.Lock()
	if d.calls == nil {
		d.calls, d.diff = map[string]map[string]bool{}, map[string]map[string]string{}
	}
	d.mu.Unlock()
	r := amended.Clone()
	aj, al, ac, au, ar := amended.Join, amended.Live, amended.Canonical, amended.MarkUnread, amended.MarkRead
	r.Join = func(a, b model.Reg) model.Reg {
		got, want := aj(a, b), spec.Join(a, b)
		d.note("join", fmt.Sprint(a, b), got != want, func() string {
			return fmt.Sprintf("joining %s and %s: %s gives %s, the amendment %s", regText(a), regText(b), spec.Name, regText(want), regText(got))
		})
		return got
	}
	r.Live = func(g model.Reg, f uint32, tie model.TiePolicy) bool {
		got, want := al(g, f, tie), spec.Live(g, f, spec.Tie)
		d.note("verdict", fmt.Sprint(g, f), got != want, func() string {
			return fmt.Sprintf("%s at frontier %d: %s says %s, the amendment says %s", regText(g), f, spec.Name, activeText(want), activeText(got))
		})
		return got
	}
	r.Canonical = func(g model.Reg, f uint32, live bool) (model.Reg, model.Shape) {
		got, shape := ac(g, f, live)
		want, ws := spec.Canonical(g, f, live)
		d.note("canonical", fmt.Sprint(g, f, live), got != want || shape != ws, func() string {
			return fmt.Sprintf("publishing %s (%s) at frontier %d: %s publishes %s, the amendment %s",
				regText(g), activeText(live), f, spec.Name, shapeText(want, ws), shapeText(got, shape))
		})
		return got, shape
	}
	r.MarkUnread = func(g model.Reg, f uint32, read bool) (model.Reg, error) {
		got, err := au(g, f, read)
		want, werr := spec.MarkUnread(g, f, read)
		d.note("mark-unread", fmt.Sprint(g, f, read), got != want || (err == nil) != (werr == nil), func() string {
			ever := "read before"
			if !read {
				ever = "never read"
			}
			return fmt.Sprintf("mark-unread on %s at frontier %d (%s): %s %s, the amendment %s",
				regText(g), f, ever, spec.Name, actionText(want, werr), actionText(got, err))
		})
		return got, err
	}
	r.MarkRead = func(g model.Reg, f uint32, live bool) (model.Reg, error) {
		got, err := ar(g, f, live)
		want, werr := spec.MarkRead(g, f, live)
		d.note("mark-read", fmt.Sprint(g, f, live), got != want || (err == nil) != (werr == nil), func() string {
			return fmt.Sprintf("explicit mark-read on %s (%s after the frontier advance to %d): %s %s, the amendment %s",
				regText(g), activeText(live), f, spec.Name, actionText(want, werr), actionText(got, err))
		})
		return got, err
	}
	return r
}

// regText, activeText, shapeText and actionText say a decision in the
// spec's own terms, for a reader of NIP-RS who does not read Go.
func regText(g model.Reg) string {
	return fmt.Sprintf("register (S, C, B) = (%d, %d, %d)", g.S, g.C, g.B)
}

func activeText(live bool) string {
	if live {
		return "active"
	}
	return "inactive"
}

func shapeText(g model.Reg, s model.Shape) string {
	switch s {
	case model.ShapeOmit:
		return "no override keys"
	case model.ShapeFloor:
		return fmt.Sprintf("the tombstone floor ov_c = %d", g.C)
	}
	return fmt.Sprintf("ov_s = %d, ov_c = %d, ov_b = %d", g.S, g.C, g.B)
}

func actionText(g model.Reg, err error) string {
	if err != nil {
		return fmt.Sprintf("reports failure (%v), leaving (%d, %d, %d)", err, g.S, g.C, g.B)
	}
	return fmt.Sprintf("makes (%d, %d, %d)", g.S, g.C, g.B)
}

func (d *Diff) note(rule, input string, differs bool, explain func() string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.calls[rule] == nil {
		d.calls[rule], d.diff[rule] = map[string]bool{}, map[string]string{}
	}
	d.calls[rule][input] = true
	if _, seen := d.diff[rule][input]; differs && !seen {
		d.diff[rule][input] = explain()
	}
}

// Count is one rule's figures: distinct inputs decided, and decided
// otherwise than the spec.
type Count struct {
	Rule            string
	Inputs, Differs int
	// Example says, in the spec's terms, what differs on the smallest
	// differing input (in text order of the inputs).
	Example string
}

// Counts lists every rule the run decided, sorted by rule name.
func (d *Diff) Counts() []Count {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Count
	for rule, in := range d.calls {
		c := Count{Rule: rule, Inputs: len(in), Differs: len(d.diff[rule])}
		if c.Differs > 0 {
			ex := make([]string, 0, c.Differs)
			for k := range d.diff[rule] {
				ex = append(ex, k)
			}
			slices.Sort(ex)
			c.Example = d.diff[rule][ex[0]]
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Count) int { return strings.Compare(a.Rule, b.Rule) })
	return out
}

// Differs is the total of differing inputs over every rule.
func (d *Diff) Differs() int {
	n := 0
	for _, c := range d.Counts() {
		n += c.Differs
	}
	return n
}

// String is one line: the total, then each rule's differing/decided.
func (d *Diff) String() string {
	var parts []string
	for _, c := range d.Counts() {
		s := fmt.Sprintf("%s: %d of %d distinct inputs", c.Rule, c.Differs, c.Inputs)
		if c.Example != "" {
			s += "; e.g. " + c.Example
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no register rule was decided"
	}
	return fmt.Sprintf("%d distinct rule inputs decided otherwise: %s", d.Differs(), strings.Join(parts, "; "))
}
