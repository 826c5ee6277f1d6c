package community

import (
	"fmt"
	"slices"
	"strings"
)

// The side universe: a channel's cached rows grow by messages and by side
// events (reactions, edits, deletes) on one of the three newest messages.
// After every step the first paint and the page before it are read with a
// row limit of two; the rows shown must be the newest messages, and every
// side event on a shown message in the read's span must be folded.
const (
	InvRows   = "V1-rows"
	InvFolded = "V2-folded"
	sideName  = "side"
	sideLimit = 2
)

type sideState struct {
	now  int
	rows []Row
}

func (s *sideState) Key() string { return s.String() }

func (s *sideState) String() string {
	var b strings.Builder
	for i, r := range s.rows {
		if i > 0 {
			b.WriteString(" ")
		}
		if r.Side() {
			fmt.Fprintf(&b, "%s@%d->#%d", r.Kind, r.At, r.Target)
		} else {
			fmt.Fprintf(&b, "#%d@%d", r.ID, r.At)
		}
	}
	return b.String()
}

// SideUniverse is the read path's universe at depth.
func SideUniverse(depth int) *Universe {
	acts := []Action{{"message", 0}}
	for _, k := range []RowKind{Reaction, Edit, Delete} {
		for i := 0; i < 3; i++ {
			acts = append(acts, Action{k.String(), i})
		}
	}
	return &Universe{
		Name:       sideName,
		Doc:        "the read path: messages and side events under separate budgets, side events folded outside the row window",
		Depth:      depth,
		Invariants: []string{InvRows, InvFolded},
		Initial:    func() State { return &sideState{} },
		Actions:    acts,
		Step: func(r *Rules, st State, a Action) (State, bool, []Violation) {
			s0, ok := st.(*sideState)
			if !ok {
				return nil, false, nil
			}
			s := &sideState{now: s0.now + 1, rows: slices.Clone(s0.rows)}
			row := Row{ID: len(s.rows), At: s.now}
			if a.Name != "message" {
				k := slices.Index(rowKindNames[:], a.Name)
				var msgs []Row
				for _, r := range s.rows {
					if !r.Side() {
						msgs = append(msgs, r)
					}
				}
				if k <= 0 || a.Arg < 0 || a.Arg >= len(msgs) {
					return nil, false, nil
				}
				row.Kind, row.Target = RowKind(k), msgs[len(msgs)-1-a.Arg].ID
			}
			s.rows = append(s.rows, row)
			return s, true, sideCheck(r, s.rows)
		},
	}
}

// sideCheck reads the first paint and the page before it and judges them
// against the rows themselves.
func sideCheck(r *Rules, rows []Row) []Violation {
	var out []Violation
	var before *int
	for page := 0; page < 2; page++ {
		shown, more := Timeline(r, rows, before, sideLimit)
		var msgs []Row
		for _, row := range rows {
			if !row.Side() && (before == nil || row.At < *before) {
				msgs = append(msgs, row)
			}
		}
		slices.SortFunc(msgs, newestFirst)
		want := msgs[:min(sideLimit, len(msgs))]
		got := make([]Row, len(shown))
		for i, s := range shown {
			got[len(shown)-1-i] = s.Message
		}
		if !slices.Equal(got, want) || more != (len(msgs) > sideLimit) {
			out = append(out, Violation{InvRows, fmt.Sprintf("page %d shows %v (more %v), the newest messages are %v (more %v)", page, ids(got), more, ids(want), len(msgs) > sideLimit)})
			return out
		}
		if len(want) == 0 {
			return out
		}
		floor := want[len(want)-1].At
		var span []Row
		for _, row := range rows {
			if row.Side() && row.At >= floor && (before == nil || row.At < *before) {
				span = append(span, row)
			}
		}
		if len(span) <= SideEventFactor*sideLimit {
			for _, sd := range span {
				i := slices.IndexFunc(shown, func(s Shown) bool { return s.Message.ID == sd.Target })
				if i >= 0 && !slices.Contains(shown[i].Folded, sd) {
					out = append(out, Violation{InvFolded, fmt.Sprintf("page %d: the %s at %d on message #%d is not folded onto it", page, sd.Kind, sd.At, sd.Target)})
					return out
				}
			}
		}
		b := floor
		before = &b
	}
	return out
}

func ids(rows []Row) []int {
	out := make([]int, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}
