package directed

import (
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// conformanceFigures pins the conformance checks: points over both tie
// policies (tie-independent checks run once).
var conformanceFigures = map[string]int{
	"codec-conformance":      103,
	"slot-split-conformance": 24,
	"clock-skew-conformance": 8,
	"identity-conformance":   5,
	"deletion-conformance":   40,
	"action-conformance":     900,
	"dominated-republish":    24,
	"hierarchy-conformance":  1458,
}

// TestConformanceFigures: under the production rules every conformance
// check holds at every point, under both tie policies; its point count is
// the pinned one, and its table row is pinned in testdata/figures.
func TestConformanceFigures(t *testing.T) {
	note := figfile.For(t, *update)
	only := map[string]bool{}
	for _, d := range conformanceChecks() {
		only[d.Key] = true
	}
	sums := Summarize(RunSuite(model.Proposed(), ties, 0, only))
	if len(sums) != len(conformanceFigures) {
		t.Errorf("%d conformance checks ran, %d pinned", len(sums), len(conformanceFigures))
	}
	for _, s := range sums {
		if want := conformanceFigures[s.Key]; s.Total != want {
			t.Errorf("%s: %d points, want %d", s.Key, s.Total, want)
		}
		for tie, v := range s.Violations {
			if v != 0 {
				t.Errorf("%s under %v: %d violations, first %s", s.Key, tie, v, s.Witnesses[0].DirectedText())
			}
		}
		note.Line(s.TableRow())
	}
}

// TestConformanceWitnessReplays: a conformance witness replays like any
// directed witness (cmd/explore -replay).
func TestConformanceWitnessReplays(t *testing.T) {
	rules := model.Proposed().Clone()
	rules.Name = "no-clock-skew"
	rules.Slots.CreatedAt = func(now, _ int64, _ bool) int64 { return now } // no clock-skew rule at all
	d, err := Lookup("clock-skew-conformance")
	if err != nil {
		t.Fatal(err)
	}
	r := Run(d, rules.WithTie(model.ClearWins), 1)
	if r.Witness == nil || r.Violations != 4 {
		t.Fatalf("clock skew ignored: %d violations, witness %v", r.Violations, r.Witness)
	}
	if got := r.Witness.Point.String(); got != `case="spec vector"` {
		t.Errorf("first failing point %s", got)
	}
	w, err := witnessfile.Parse(r.Witness.JSON())
	if err != nil {
		t.Fatal(err)
	}
	w.Rules = "spec"
	res, err := Replay(w, testRules)
	if err != nil || res.Reproduced {
		t.Errorf("the production rules reproduce it: %v %+v", err, res)
	}
}
