package community

import (
	"fmt"
	"testing"
)

// TestTimelineFold holds the read path's fold at its edges: a side event
// dated the oldest shown message's own second is inside the span and
// folds onto it, one newer than the newest message folds too, and the
// side budget takes the newest side events. The document's rows all
// differ in second in the side universe, so the tie is held here.
func TestTimelineFold(t *testing.T) {
	msg := func(id, at int) Row { return Row{ID: id, At: at} }
	side := func(id, at int, k RowKind, target int) Row { return Row{ID: id, At: at, Kind: k, Target: target} }
	tests := []struct {
		name  string
		db    []Row
		limit int
		want  string // shown messages oldest first, each with the ids folded onto it
		more  bool
	}{
		{"side event at the oldest shown row's second", []Row{msg(1, 10), msg(2, 20), side(3, 10, Reaction, 1)}, 2,
			"1[3] 2[]", false},
		{"edit at the oldest shown row's second, older rows unshown", []Row{msg(0, 5), msg(1, 10), msg(2, 20), side(3, 10, Edit, 1), side(4, 5, Reaction, 0)}, 2,
			"1[3] 2[]", true},
		{"side event newer than the newest row", []Row{msg(1, 10), msg(2, 20), side(3, 30, Delete, 2)}, 2,
			"1[] 2[3]", false},
		{"side event on a message the read does not show", []Row{msg(0, 5), msg(1, 10), side(3, 10, Reaction, 0)}, 1,
			"1[]", true},
		{"side budget takes the newest", []Row{msg(1, 10), side(2, 11, Reaction, 1), side(3, 12, Reaction, 1), side(4, 13, Reaction, 1),
			side(5, 14, Reaction, 1), side(6, 15, Reaction, 1)}, 1,
			"1[6 5 4 3]", false},
		{"side events at one second, ties by id", []Row{msg(1, 10), side(2, 10, Reaction, 1), side(3, 10, Edit, 1)}, 1,
			"1[3 2]", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			shown, more := Timeline(Spec(), tc.db, nil, tc.limit)
			got := ""
			for i, s := range shown {
				if i > 0 {
					got += " "
				}
				got += fmt.Sprintf("%d%v", s.Message.ID, ids(s.Folded))
			}
			if got != tc.want || more != tc.more {
				t.Fatalf("shown %q (more %v), want %q (more %v)", got, more, tc.want, tc.more)
			}
		})
	}
}
