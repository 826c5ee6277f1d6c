package community

import (
	"cmp"
	"slices"
)

// RowKind is what a cached row is: a message or a side event that
// decorates one.
type RowKind int

const (
	Message RowKind = iota
	Edit
	Delete
	Reaction
)

var rowKindNames = [...]string{"msg", "edit", "delete", "react"}

func (k RowKind) String() string { return rowKindNames[k] }

// Row is one cached row: its id, time, kind, and for a side event the
// message it decorates.
type Row struct {
	ID, At int
	Kind   RowKind
	Target int
}

// Side reports whether the row decorates another.
func (r Row) Side() bool { return r.Kind != Message }

// Shown is one message of a timeline with the side events folded onto it.
type Shown struct {
	Message Row
	Folded  []Row
}

// Timeline is a channel's read: the newest limit messages before before
// (nil: the first paint), oldest first, whether older ones exist, and the
// side events folded onto them. It reads the rows through Select with the
// side-event budget SideBudget(limit).
func Timeline(r *Rules, db []Row, before *int, limit int) ([]Shown, bool) {
	if limit <= 0 {
		return nil, false
	}
	var span []Row
	for _, row := range db {
		if before == nil || row.At < *before {
			span = append(span, row)
		}
	}
	slices.SortStableFunc(span, newestFirst)
	msgs, side := r.Select(span, limit+1, r.SideBudget(limit))
	more := len(msgs) > limit
	if more {
		msgs = msgs[:limit]
	}
	out := make([]Shown, len(msgs))
	for i, m := range msgs {
		out[len(msgs)-1-i].Message = m
	}
	for _, s := range side {
		for i := range out {
			if out[i].Message.ID == s.Target {
				out[i].Folded = append(out[i].Folded, s)
			}
		}
	}
	return out, more
}

func newestFirst(a, b Row) int { return cmp.Or(cmp.Compare(b.At, a.At), cmp.Compare(b.ID, a.ID)) }

// selectRows is the document's read: the messages and the side events get
// separate budgets over the same span, so a flood of reactions cannot
// displace a row, and a side event newer than the newest row still folds
// (the span has no upper bound but the read's own).
func selectRows(span []Row, limit, sideBudget int) (msgs, side []Row) {
	for _, row := range span {
		if !row.Side() && len(msgs) < limit {
			msgs = append(msgs, row)
		}
	}
	if len(msgs) == 0 {
		return nil, nil
	}
	floor := msgs[len(msgs)-1].At
	for _, row := range span {
		if row.Side() && row.At >= floor && len(side) < sideBudget {
			side = append(side, row)
		}
	}
	return msgs, side
}
