package exhaustive

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
	"github.com/nip-rs/harness/internal/shortrun"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

var (
	update = flag.Bool("update", false, "rewrite golden files under testdata/")
	deep   = flag.Bool("deep", false, "also pin the reference universe at depth 7 (about 5 s, 300 MB)")
)

// lwwJoin is a test-only broken rule set: the join lets the incoming
// register win whole instead of taking the componentwise max (the formal
// note's M6). The explorer's convergence check must catch it.
func lwwJoin() *model.Rules {
	r := model.Proposed().Clone()
	r.Join = func(a, b model.Reg) model.Reg {
		if b != (model.Reg{}) {
			return b
		}
		return a
	}
	return r
}

var ties = []model.TiePolicy{model.ClearWins, model.SetWins}

// The reference universe's state space, pinned per depth (new states whose
// minimal depth is d). Depth 4 is the formal note's bound and figure.
var referenceCounts = []struct {
	tie      model.TiePolicy
	depth    int
	perDepth []int
	distinct int
}{
	{model.ClearWins, 4, []int{1, 16, 144, 999, 5969}, 7129},
	{model.SetWins, 4, []int{1, 16, 144, 999, 5969}, 7129},
	{model.ClearWins, 5, []int{1, 16, 144, 999, 5969, 32058}, 39187},
	{model.SetWins, 5, []int{1, 16, 144, 999, 5969, 32058}, 39187},
	{model.ClearWins, 6, []int{1, 16, 144, 999, 5969, 32058, 156393}, 195580},
	{model.SetWins, 6, []int{1, 16, 144, 999, 5969, 32058, 156389}, 195576},
	{model.ClearWins, 7, []int{1, 16, 144, 999, 5969, 32058, 156393, 688394}, 883974},
	{model.SetWins, 7, []int{1, 16, 144, 999, 5969, 32058, 156389, 688322}, 883898},
}

// TestReferenceStateCounts pins the table rows of depths 4 to 6 in
// testdata/figures/TestReferenceStateCounts.txt and, with -deep, those of
// depth 7 in TestReferenceStateCounts-deep.txt; each file is compared
// only by a run that computes all of its rows.
func TestReferenceStateCounts(t *testing.T) {
	var rows, deepRows figfile.Figures
	short := shortrun.On(t, "depths up to 5, the golden file not compared")
	for _, tc := range referenceCounts {
		if tc.depth > 5 && short || tc.depth > 6 && !*deep {
			continue
		}
		r, err := Explore(Config{Universe: Reference(), Depth: tc.depth, Rules: model.Proposed().WithTie(tc.tie)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != StatusOK {
			t.Errorf("depth %d %v: status %v, witness %+v", tc.depth, tc.tie, r.Status, r.Witness)
		}
		if r.Distinct != tc.distinct || !slices.Equal(r.PerDepth, tc.perDepth) {
			t.Errorf("depth %d %v: distinct %d per depth %v, want %d %v", tc.depth, tc.tie, r.Distinct, r.PerDepth, tc.distinct, tc.perDepth)
		}
		// The state invariants run only on states at the bound.
		if last := tc.perDepth[tc.depth]; r.Checked != last {
			t.Errorf("depth %d %v: %d states checked, want %d", tc.depth, tc.tie, r.Checked, last)
		}
		if tc.depth > 6 {
			deepRows.Line(r.TableRow())
		} else {
			rows.Line(r.TableRow())
		}
	}
	if !short {
		figfile.Check(t, figfile.Path(t.Name()), rows.Bytes(), *update)
	}
	if *deep {
		figfile.Check(t, figfile.Path(t.Name()+"-deep"), deepRows.Bytes(), *update)
	}
}

func TestInitialStateHas22EnabledTransitions(t *testing.T) {
	u := Reference()
	_, e, err := newWorld(&u, model.Proposed(), u.Depth, true)
	if err != nil {
		t.Fatal(err)
	}
	c := e.newCache()
	ids := e.initial()
	enabled, changing := 0, 0
	for tr := range u.numTransitions() {
		dev, s := c.next(ids, tr)
		if s.next < 0 {
			continue
		}
		enabled++
		if s.next != ids[dev] {
			changing++
		}
	}
	// 9 + 9 + 2 + 6 = 26 at most; at the start no compaction is enabled and
	// the 6 deliveries change nothing, leaving 16 new states.
	if enabled != 22 || changing != 16 {
		t.Errorf("enabled %d, changing %d; want 22 and 16", enabled, changing)
	}
}

func TestTransitionIndexRoundTrip(t *testing.T) {
	u := Reference()
	if n := u.numTransitions(); n != 33 {
		t.Fatalf("numTransitions = %d, want 33", n)
	}
	for from := range 3 {
		for to := range 3 {
			if from == to {
				continue
			}
			dev, slot, f := u.transition(u.deliverIndex(from, to))
			if dev != to || slot != -1 || f != from {
				t.Errorf("deliver %d->%d decodes to dev %d slot %d from %d", from, to, dev, slot, f)
			}
		}
	}
}

func exploreLWW(t *testing.T, workers int) *Result {
	t.Helper()
	rules, err := testCatalog.Rules("test-lww-join")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Explore(Config{Universe: Reference(), Depth: 3, Rules: rules, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBrokenJoinIsCaughtWithTheSameWitnessForAnyWorkerCount(t *testing.T) {
	one := exploreLWW(t, 1)
	two := exploreLWW(t, 2)
	if one.Status != StatusViolation || one.Witness == nil {
		t.Fatalf("last-writer-wins join not caught: %+v", one)
	}
	if one.Witness.Invariant != InvConvergence {
		t.Errorf("first violation %s, want %s", one.Witness.Invariant, InvConvergence)
	}
	// As in the formal note's M6 run at depth 3: 16 states at the bound
	// whose verdicts depend on the delivery order.
	if got := rowOf(t, one, InvConvergence).Violations; got != 16 {
		t.Errorf("%d convergence violations, want 16", got)
	}
	figfile.For(t, *update).Line(fmt.Sprintf("%d of the %s states at depth 3", rowOf(t, one, InvConvergence).Violations, num.Commas(one.Checked)))
	if !bytes.Equal(one.Witness.JSON(), two.Witness.JSON()) {
		t.Errorf("witness differs between 1 and 2 workers:\n%s\n%s", one.Witness.JSON(), two.Witness.JSON())
	}
	if !slices.Equal(one.Invariants, two.Invariants) || one.Distinct != two.Distinct || one.Transitions != two.Transitions {
		t.Errorf("counts differ between 1 and 2 workers:\n%+v\n%+v", one.Invariants, two.Invariants)
	}
	for _, w := range []int{3, 8} {
		if got := exploreLWW(t, w); !bytes.Equal(got.Witness.JSON(), one.Witness.JSON()) {
			t.Errorf("%d workers: different witness", w)
		}
	}
}

func TestWitnessReplaysAndRendersAsGolden(t *testing.T) {
	w := exploreLWW(t, 2).Witness
	_, res := replayRoundTrip(t, w)
	golden(t, "lww-join.witness.json", w.JSON())
	golden(t, "lww-join.witness.txt", []byte(res.Text))
}

func TestBadWitnessIsAnInputError(t *testing.T) {
	good := string(exploreLWW(t, 2).Witness.JSON())
	tests := []struct {
		name string
		data string
	}{
		{"not json", "{"},
		{"unknown field", `{"kind":"explore","invariant":"x","bogus":1}`},
		{"no invariant", `{"kind":"explore","universe":"reference","tie":"clear","rules":"spec"}`},
		{"unknown kind", `{"kind":"other","invariant":"x","tie":"clear","rules":"spec"}`},
		{"unknown universe", `{"kind":"explore","universe":"nope","tie":"clear","rules":"spec","invariant":"x"}`},
		{"unknown tie", `{"kind":"explore","universe":"reference","tie":"maybe","rules":"spec","invariant":"x"}`},
		{"unknown rules", `{"kind":"explore","universe":"reference","tie":"clear","rules":"nope","invariant":"x"}`},
		{"device out of range", `{"kind":"explore","universe":"reference","tie":"clear","rules":"spec","invariant":"x","actions":[{"action":"mark_unread","device":7,"ctx":"c0"}]}`},
		{"legacy cannot mark unread", `{"kind":"explore","universe":"reference","tie":"clear","rules":"spec","invariant":"x","actions":[{"action":"mark_unread","device":2,"ctx":"c0"}]}`},
		{"wrong frontier value", `{"kind":"explore","universe":"reference","tie":"clear","rules":"spec","invariant":"x","actions":[{"action":"advance","device":0,"ctx":"c0","value":20}]}`},
		{"unknown context", `{"kind":"explore","universe":"reference","tie":"clear","rules":"spec","invariant":"x","actions":[{"action":"advance","device":0,"ctx":"c9","value":10}]}`},
		{"compact without register", `{"kind":"explore","universe":"reference","tie":"clear","rules":"spec","invariant":"x","actions":[{"action":"compact","device":0,"ctx":"c0"}]}`},
		{"self delivery", `{"kind":"explore","universe":"reference","tie":"clear","rules":"spec","invariant":"x","actions":[{"action":"deliver","from":1,"to":1}]}`},
		{"unknown action", `{"kind":"explore","universe":"reference","tie":"clear","rules":"spec","invariant":"x","actions":[{"action":"jump","device":0}]}`},
		{"trailing data", good + "{}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := witnessfile.Parse([]byte(tc.data))
			if err == nil {
				_, err = Replay(testCatalog, w)
			}
			if !errors.Is(err, witnessfile.ErrBad) {
				t.Errorf("got %v, want ErrBadWitness", err)
			}
		})
	}
}

func TestStateLimitIsUnknown(t *testing.T) {
	r, err := Explore(Config{Universe: Reference(), Depth: 4, MaxStates: 500})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusUnknown || r.BoundHit == "" {
		t.Errorf("status %v bound %q, want unknown", r.Status, r.BoundHit)
	}
}

// recordingRules counts the calls of every rule the explorer relies on.
func recordingRules(calls map[string]int) *model.Rules {
	s := model.Proposed()
	r := s.Clone()
	r.Join = func(a, b model.Reg) model.Reg { calls["Join"]++; return s.Join(a, b) }
	r.Live = func(g model.Reg, f uint32, t model.TiePolicy) bool { calls["Live"]++; return s.Live(g, f, t) }
	r.Canonical = func(g model.Reg, f uint32, l bool) (model.Reg, model.Shape) {
		calls["Canonical"]++
		return s.Canonical(g, f, l)
	}
	r.MarkUnread = func(g model.Reg, f uint32, read bool) (model.Reg, error) {
		calls["MarkUnread"]++
		return s.MarkUnread(g, f, read)
	}
	r.MarkRead = func(g model.Reg, f uint32, l bool) (model.Reg, error) {
		calls["MarkRead"]++
		return s.MarkRead(g, f, l)
	}
	r.Escape = func(k string) string { calls["Escape"]++; return s.Escape(k) }
	r.GroupKey = func(k string) (model.KeyKind, string) { calls["GroupKey"]++; return s.GroupKey(k) }
	r.ValidateGroup = func(g model.Group) (model.Reg, error) { calls["ValidateGroup"]++; return s.ValidateGroup(g) }
	return r
}

func TestEveryRuleIsReachedThroughRules(t *testing.T) {
	calls := map[string]int{}
	if _, err := Explore(Config{Universe: Reference(), Depth: 3, Rules: recordingRules(calls), Workers: 1}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"Join", "Live", "Canonical", "MarkUnread", "MarkRead", "Escape", "GroupKey", "ValidateGroup"} {
		if calls[f] == 0 {
			t.Errorf("rule %s never called", f)
		}
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n%s", path, got)
	}
}

func TestPerDeviceRulesAndTie(t *testing.T) {
	calls := map[string]int{}
	u := Reference()
	u.Devices[1].Rules = func(*model.Rules) *model.Rules { return recordingRules(calls) }
	u.Devices[0].Rules = func(run *model.Rules) *model.Rules { return run.WithTie(model.SetWins) }
	r, err := Explore(Config{Universe: u, Depth: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusOK || calls["MarkUnread"] == 0 || calls["MarkRead"] == 0 {
		t.Errorf("device 1's own rules not used: %v %v", r.Status, calls)
	}
	if d0 := newReplica(u.Devices[0], model.Proposed()); d0.Rules.Tie != model.SetWins {
		t.Errorf("device 0 tie %v, want set", d0.Rules.Tie)
	}
	own := DeviceSpec{ClientID: "x", Rules: func(run *model.Rules) *model.Rules { return run.Clone() }}
	if d := newReplica(own, model.Proposed().WithTie(model.SetWins)); d.Rules.Tie != model.SetWins {
		t.Errorf("a device's own rules left the run's tie: %v, want set", d.Rules.Tie)
	}
	if d2 := newReplica(u.Devices[2], model.Proposed()); !d2.Legacy || d2.LegacyMode != model.LegacyDropOverrides {
		t.Errorf("reference legacy device: legacy %v mode %v", d2.Legacy, d2.LegacyMode)
	}
}

// The replica only ever raises frontiers, so no rule set can make the
// search regress one; the comparison itself is checked here, and the search
// is checked to apply it to every executed transition.
func TestFrontierRegressionCheck(t *testing.T) {
	before := model.NewReplica("a")
	before.Advance("c0", 20)
	lower, same, higher := before.Clone(), before.Clone(), before.Clone()
	_ = lower.Restore("c0", 10, true, model.Reg{})
	higher.Advance("c1", 5)
	if !frontierRegressed(before, lower) || frontierRegressed(before, same) || frontierRegressed(before, higher) {
		t.Error("frontierRegressed misjudges")
	}
	r, err := Explore(Config{Universe: Reference(), Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := rowOf(t, r, InvRegression); got.Violations != 0 || got.Checked != r.Transitions || got.Checked == 0 {
		t.Errorf("%+v, %d transitions", got, r.Transitions)
	}
}

// stateSet explores and returns every stored state as its devices' exact
// encodings (engine ids differ between runs; encodings do not).
func stateSet(t *testing.T, tie model.TiePolicy, depth int) map[string]bool {
	t.Helper()
	u := Reference()
	x := exploreAll(t, u, model.Proposed(), tie, depth, true)
	out := make(map[string]bool, x.store.Len())
	for i := range x.store.Len() {
		var k []byte
		for dev, id := range x.store.Row(i) {
			k = appendString(k, string(appendReplicaState(nil, x.e.devs[dev].reps[id])))
		}
		out[string(k)] = true
	}
	return out
}

func TestTiePoliciesReachTheSameStatesUpToDepth5(t *testing.T) {
	clear, set := stateSet(t, model.ClearWins, 5), stateSet(t, model.SetWins, 5)
	if len(clear) != 39187 || len(set) != len(clear) {
		t.Fatalf("%d and %d states", len(clear), len(set))
	}
	for k := range clear {
		if !set[k] {
			t.Fatal("a state reached under clear-wins is not reached under set-wins")
		}
	}
}
