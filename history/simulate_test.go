package history

import (
	"os"
	"testing"

	"github.com/nip-rs/harness/witnessfile"
)

// Random walks under the document's rules meet the documented limitation
// (and nothing else); the shrunk witness replays and reproduces it, and
// the same seed gives the same walk.
func TestSimulateSpecFindsTheLimitation(t *testing.T) {
	out, err := Simulate(DefaultUniverse(), Spec(), ReportAll, 400, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if out.Witness == nil || out.Witness.Invariant != Limitation {
		t.Fatalf("no %s witness in %d walks: %v", Limitation, out.Walks, out.Violations)
	}
	for id := range out.Violations {
		if id != Limitation {
			t.Errorf("spec violated %s in a random walk", id)
		}
	}
	if len(out.Witness.Actions) > out.RawDepth {
		t.Errorf("shrunk to %d steps from %d", len(out.Witness.Actions), out.RawDepth)
	}
	rep, err := Replay(out.Witness)
	if err != nil || !rep.Reproduced {
		t.Fatalf("replay of the shrunk witness: %v, reproduced %v", err, rep != nil && rep.Reproduced)
	}
	again, err := Simulate(DefaultUniverse(), Spec(), ReportAll, 400, 20, 1)
	if err != nil || again.Walk != out.Walk || again.Text != out.Text {
		t.Errorf("same seed, different outcome: walk %d vs %d", again.Walk, out.Walk)
	}
}

// The healing rules trip nothing along the same walks.
func TestSimulateHealingFindsNothing(t *testing.T) {
	out, err := Simulate(DefaultUniverse(), Healing(), ReportAll, 200, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if out.Witness != nil || len(out.Violations) != 0 || out.Walks != 200 || out.Rounds == 0 {
		t.Fatalf("healing: witness %v, violations %v, %d walks, %d rounds", out.Witness != nil, out.Violations, out.Walks, out.Rounds)
	}
}

func TestSimulateRefusesBadSizes(t *testing.T) {
	for _, c := range []struct{ walks, steps int }{{0, 5}, {1, 0}, {1, witnessfile.MaxDepth + 1}} {
		if _, err := Simulate(DefaultUniverse(), Spec(), ReportAll, c.walks, c.steps, 1); err == nil {
			t.Errorf("%d walks of %d steps accepted", c.walks, c.steps)
		}
	}
}

// The trace of the golden limitation witness as data: the hole the burst
// leaves (3 held by relay 0, never stored), the pages the rounds asked,
// and the limitation marked documented at the last step.
func TestTraceOfTheLimitation(t *testing.T) {
	data, err := os.ReadFile("testdata/limitation.spec.json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := witnessfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Trace(w, Spec())
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Steps) != len(w.Actions)+1 || v.MaxT != 5 {
		t.Fatalf("%d steps for %d actions, max-t %d", len(v.Steps), len(w.Actions), v.MaxT)
	}
	last := v.Steps[len(v.Steps)-1]
	if len(last.Pages) == 0 || last.Modes[0] != "answers" {
		t.Errorf("the last catch-up asked no pages: %+v", last)
	}
	if len(last.Findings) != 1 || last.Findings[0].Invariant != Limitation || !last.Findings[0].Documented {
		t.Errorf("last step findings %+v: want the documented limitation", last.Findings)
	}
	if last.Newest != 2 || last.Oldest != 2 || !last.Exhausted {
		t.Errorf("cursor [%d, %d] exhausted %v", last.Oldest, last.Newest, last.Exhausted)
	}
	held := map[int]bool{}
	for _, x := range last.Relays[0] {
		held[x] = true
	}
	for _, x := range last.Store {
		delete(held, x)
	}
	if !held[3] {
		t.Errorf("relay 0 %v, store %v: want 3 held and missing", last.Relays[0], last.Store)
	}
	if v.Steps[0].Pages != nil || v.Steps[0].Action != "initial state" {
		t.Errorf("initial step %+v", v.Steps[0])
	}
}
