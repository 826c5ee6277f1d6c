package exhaustive

import (
	"fmt"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
)

// The hierarchy universe's pinned state counts (testdata/figures), under each tie policy, and the same counts at
// one and two workers.
func TestHierarchyStateSpace(t *testing.T) {
	sec := figfile.For(t, *update)
	for _, tc := range []struct {
		tie      model.TiePolicy
		distinct int
	}{{model.ClearWins, 8695}} {
		var first *Result
		for _, workers := range []int{1, 2} {
			res, err := Explore(Config{Universe: HierarchyUniverse(), Rules: model.Proposed().WithTie(tc.tie), Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusOK || res.Distinct != tc.distinct {
				t.Fatalf("%s, %d workers: %s, %d distinct states, want ok and %d", tc.tie, workers, res.Status, res.Distinct, tc.distinct)
			}
			if first != nil && fmt.Sprint(first.PerDepth) != fmt.Sprint(res.PerDepth) {
				t.Fatalf("per-depth counts differ by worker count: %v vs %v", first.PerDepth, res.PerDepth)
			}
			first = res
		}
		sec.Line(fmt.Sprintf("- %s: depth %d, %s distinct states.", tc.tie, hierarchyDepth, num.Commas(tc.distinct)))
	}
}

// The universe really meets the hierarchy: a child's effective frontier
// exceeds its own, and a child's own frontier exceeds the channel's.
func TestHierarchyResolvesChildren(t *testing.T) {
	u := HierarchyUniverse()
	r := newReplica(u.Devices[0], model.Proposed())
	r.Advance(hierChannel, 20)
	r.Advance(hierMsg, 10)
	r.Advance(hierThread, 30)
	if r.Effective(hierMsg) != 20 || r.Effective(hierThread) != 30 {
		t.Fatalf("effective msg %d thread %d, want 20 and 30", r.Effective(hierMsg), r.Effective(hierThread))
	}
	if err := r.MarkUnread(hierMsg); err != nil || r.Reg(hierMsg).B != 20 || !r.Live(hierMsg) {
		t.Fatalf("mark-unread under a channel read past the child: %v %v live=%v", err, r.Reg(hierMsg), r.Live(hierMsg))
	}
}

// The ceiling universe's pinned count, and its start really at the
// corner: two mark-unreads reach the ceiling, the third is refused (a
// wrapping counter rule is then caught there, not only by cubes).
func TestCeilingUniverse(t *testing.T) {
	sec := figfile.For(t, *update)
	for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
		res, err := Explore(Config{Universe: CeilingUniverse(), Rules: model.Proposed().WithTie(tie), Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusOK || res.Distinct != 4637 {
			t.Fatalf("%s: %s, %d distinct, want ok and 4637", tie, res.Status, res.Distinct)
		}
	}
	sec.Line(fmt.Sprintf("- ceiling: depth %d, %s distinct states under either tie policy.", ceilingDepth, num.Commas(4637)))
	u := CeilingUniverse()
	r := newReplica(u.Devices[0], model.Proposed())
	if r.Reg("c0") != (model.Reg{C: model.MaxU32 - 2}) || len(u.Values) != 3 {
		t.Fatalf("start %v, values %v", r.Reg("c0"), u.Values)
	}
	for i, refused := range []bool{false, false, true} {
		if err := r.MarkUnread("c0"); (err != nil) != refused {
			t.Fatalf("mark-unread %d from 2^32-3: %v (want refused=%v)", i+1, err, refused)
		}
	}
	// At the ceiling the frontier advance past B alone ends the override,
	// so the mark-read succeeds.
	if err := r.MarkRead("c0", 10); err != nil || r.Frontier("c0") != 10 || r.Live("c0") {
		t.Fatalf("mark-read at the ceiling: %v, frontier %d, live %v", err, r.Frontier("c0"), r.Live("c0"))
	}
}

func TestWidenAddsValuesAndKeepsTheBase(t *testing.T) {
	base := NetworkWholeUniverse()
	w := Widen(base, 2, 0)
	if fmt.Sprint(w.Values) != "[10 20 30 40]" || fmt.Sprint(base.Values) != "[10 20]" || w.Devices[0].Start != nil {
		t.Fatalf("widened %v (base %v)", w.Values, base.Values)
	}
}
