package history

import (
	"fmt"
	"strings"
	"testing"
)

// TestWalkDiffLines: a difference is said as its history, one line a
// step (a wrap arriving during a round said so), then what differs; none
// is said with the bounds searched.
func TestWalkDiffLines(t *testing.T) {
	var ties UniverseConfig
	for _, v := range Variants() {
		if v.Name == "ties" {
			ties = v.U
		}
	}
	res, err := Diff(ties, "ties", Spec(), Proposed(), 4)
	if err != nil || res.Differences == nil {
		t.Fatalf("spec vs proposed in ties: %+v, %v", res, err)
	}
	lines := res.Lines()
	if want := 1 + len(res.Actions) + 1 + len(res.Differences); len(lines) != want {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), want, strings.Join(lines, "\n"))
	}
	if !strings.HasPrefix(lines[0], fmt.Sprintf("the shortest history that tells spec and proposed apart (%d steps, walk variant ties, ", len(res.Actions))) {
		t.Errorf("head %q", lines[0])
	}
	for i, a := range res.Actions {
		l := lines[1+i]
		if !strings.HasPrefix(l, fmt.Sprintf("  step %d: %s", i+1, a.Action)) || strings.HasSuffix(l, "(a wrap arrives during the round)") != (a.Value == 1) {
			t.Errorf("step %d: %q for %+v", i+1, l, a)
		}
	}
	if lines[1+len(res.Actions)] != "then:" || lines[len(lines)-1] != "  "+res.Differences[len(res.Differences)-1] {
		t.Errorf("tail %q", lines[1+len(res.Actions):])
	}
	same, err := Diff(ties, "ties", Proposed(), Proposed(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if l := same.Lines(); len(l) != 1 || !strings.HasPrefix(l[0], "no difference within the bounds: walk variant ties, depth 2, ") {
		t.Errorf("no difference: %q", l)
	}
}
