package exhaustive

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
	"github.com/nip-rs/harness/internal/shortrun"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// The network universes' state spaces, pinned (new states per minimal
// depth). The first row is the make-test run: the shallowest depth at which
// the split universe reaches every sometimes condition.
var networkCounts = []struct {
	universe string
	tie      model.TiePolicy
	depth    int
	symmetry bool
	perDepth []int
	distinct int
}{
	{"network", model.ClearWins, 6, true, []int{1, 6, 56, 442, 3599, 28475, 222356}, 254935},
	{"network", model.SetWins, 6, true, []int{1, 6, 56, 442, 3599, 28475, 222354}, 254933},
	{"network", model.ClearWins, 5, false, []int{1, 17, 182, 1651, 13894, 112312}, 128057},
	{"network-whole", model.ClearWins, 6, true, []int{1, 4, 39, 279, 2165, 16047, 118358}, 136893},
	{"network-whole", model.ClearWins, 5, false, []int{1, 14, 131, 1085, 8462, 63837}, 73530},
	// With -deep only: the largest explorations (their time and memory are
	// measured by the benchmarks, `go test -bench Network ./exhaustive/`).
	{"network", model.ClearWins, 6, false, []int{1, 17, 182, 1651, 13894, 112312, 883231}, 1011288},
	{"network", model.ClearWins, 7, true, []int{1, 6, 56, 442, 3599, 28475, 222356, 1700390}, 1955325},
	{"network", model.SetWins, 7, true, []int{1, 6, 56, 442, 3599, 28475, 222354, 1700326}, 1955259},
	{"network-whole", model.ClearWins, 7, true, []int{1, 4, 39, 279, 2165, 16047, 118358, 858706}, 995599},
}

func exploreNet(t testing.TB, name string, cfg Config) *Result {
	t.Helper()
	u, err := testCatalog.Universe(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Universe = u
	r, err := Explore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestNetworkStateSpace pins the rows `make test` computes (and the
// coverage lines) in testdata/figures/TestNetworkStateSpace.txt and, with
// -deep, the largest explorations' rows in TestNetworkStateSpace-deep.txt.
func TestNetworkStateSpace(t *testing.T) {
	if shortrun.On(t, "each row to depth 3, its pinned counts per depth up to there; the coverage and the pinned file left out") {
		networkStateSpaceShallow(t, 3)
		return
	}
	note := figfile.For(t, *update)
	var deepRows figfile.Figures
	for _, tc := range networkCounts {
		isDeep := tc.depth > 6 || tc.depth == 6 && !tc.symmetry
		if isDeep && !*deep {
			continue
		}
		r := exploreNet(t, tc.universe, Config{Depth: tc.depth, Rules: model.Proposed().WithTie(tc.tie), NoSymmetry: !tc.symmetry})
		name := tc.universe + "/" + tc.tie.String()
		if r.Distinct != tc.distinct || !slices.Equal(r.PerDepth, tc.perDepth) {
			t.Errorf("%s depth %d symmetry %v: distinct %d per depth %v, want %d %v", name, tc.depth, tc.symmetry, r.Distinct, r.PerDepth, tc.distinct, tc.perDepth)
		}
		if r.Symmetry != tc.symmetry {
			t.Errorf("%s: symmetry %v, want %v", name, r.Symmetry, tc.symmetry)
		}
		// Checks run at every reachable state, not only at the bound.
		if r.Checked != r.Distinct {
			t.Errorf("%s: %d of %d states checked", name, r.Checked, r.Distinct)
		}
		if tc.symmetry && r.Status != StatusOK {
			t.Errorf("%s: status %v, witness %+v", name, r.Status, r.Witness)
		}
		if tc.universe == "network" && tc.depth == networkDepth && tc.symmetry {
			checkReachesEverything(t, r)
			if tc.tie == model.ClearWins {
				checkCoverageFigures(t, r)
			}
		}
		if isDeep {
			deepRows.Line(networkNoteRow(r, tc.universe))
		} else {
			note.Line(networkNoteRow(r, tc.universe))
		}
		for _, c := range r.Invariants {
			if c.Name != InvNetVacuous && c.Name != InvNetRotation && c.Checked == 0 {
				t.Errorf("%s: invariant %s never checked", name, c.Name)
			}
		}
	}
	if *deep {
		figfile.Check(t, figfile.Path(t.Name()+"-deep"), deepRows.Bytes(), *update)
	}
}

// networkStateSpaceShallow explores each row `make test` runs only to
// depth: the search is breadth-first, so the new states per minimal depth
// up to there are the pinned row's first entries, and their sum the
// distinct count; every state is checked there too.
func networkStateSpaceShallow(t *testing.T, depth int) {
	for _, tc := range networkCounts {
		if tc.depth > 6 || tc.depth == 6 && !tc.symmetry {
			continue
		}
		r := exploreNet(t, tc.universe, Config{Depth: depth, Rules: model.Proposed().WithTie(tc.tie), NoSymmetry: !tc.symmetry})
		name := tc.universe + "/" + tc.tie.String()
		want := tc.perDepth[:depth+1]
		sum := 0
		for _, n := range want {
			sum += n
		}
		if r.Distinct != sum || !slices.Equal(r.PerDepth, want) {
			t.Errorf("%s depth %d symmetry %v: distinct %d per depth %v, want %d %v", name, depth, tc.symmetry, r.Distinct, r.PerDepth, sum, want)
		}
		if r.Symmetry != tc.symmetry || r.Checked != r.Distinct {
			t.Errorf("%s: symmetry %v (want %v), %d of %d states checked", name, r.Symmetry, tc.symmetry, r.Checked, r.Distinct)
		}
	}
}

// The make-test run reaches every sometimes condition, judges contexts both
// ways, and exercises every action.
func checkReachesEverything(t *testing.T, r *Result) {
	t.Helper()
	if u := r.Unreached(); len(u) > 0 || len(r.Sometimes) != len(SometimesConditions) {
		t.Errorf("unreached %v of %v", u, r.Sometimes)
	}
	for _, c := range append(append(slices.Clone(r.Actions), r.Oracle...), r.Deliveries...) {
		if c.Count == 0 {
			t.Errorf("coverage line %q never met", c.Name)
		}
	}
}

// A universe that reaches none of its sometimes conditions fails, with no
// witness to show.
func TestVacuousRunFails(t *testing.T) {
	r := exploreNet(t, "network", Config{Depth: 2})
	if r.Status != StatusViolation || r.Witness != nil || len(r.Unreached()) != len(SometimesConditions) {
		t.Fatalf("status %v witness %v unreached %v", r.Status, r.Witness, r.Unreached())
	}
	if c := r.Invariants[slices.IndexFunc(r.Invariants, func(c InvariantCount) bool { return c.Name == InvNetVacuous })]; c.Violations != 1 {
		t.Errorf("%+v", c)
	}
	// The whole-blob universe cannot split: its conditions omit split-half-way.
	w := exploreNet(t, "network-whole", Config{Depth: 4})
	if w.Status != StatusOK || slices.ContainsFunc(w.Sometimes, func(c CoverageCount) bool { return c.Name == SometimesSplitHalfWay }) {
		t.Errorf("network-whole: status %v sometimes %v", w.Status, w.Sometimes)
	}
}

func TestNetworkIsTheSameForAnyWorkerCount(t *testing.T) {
	for _, sym := range []bool{true, false} {
		one := exploreNet(t, "network", Config{Depth: 4, Workers: 1, NoSymmetry: !sym})
		for _, workers := range []int{2, 3} {
			got := exploreNet(t, "network", Config{Depth: 4, Workers: workers, NoSymmetry: !sym})
			if !slices.Equal(got.PerDepth, one.PerDepth) || !slices.Equal(got.Invariants, one.Invariants) ||
				!slices.Equal(got.Actions, one.Actions) || !slices.Equal(got.Sometimes, one.Sometimes) || !slices.Equal(got.Oracle, one.Oracle) {
				t.Errorf("symmetry %v: %d workers differ from 1", sym, workers)
			}
		}
	}
	rules, _ := testCatalog.Rules("test-counter-plus-one")
	one := exploreNet(t, "network", Config{Depth: 4, Workers: 1, Rules: rules})
	two := exploreNet(t, "network", Config{Depth: 4, Workers: 2, Rules: rules})
	if one.Witness == nil || !bytes.Equal(one.Witness.JSON(), two.Witness.JSON()) {
		t.Errorf("witness differs between 1 and 2 workers")
	}
}

// A reinstall from the initial state is the initial state again: the new
// client id is not part of the state (identity without noise), unlike in
// the reference universe.
func TestReinstallIsNotANewState(t *testing.T) {
	for _, name := range []string{"network", "reference"} {
		u, _ := testCatalog.Universe(name)
		w, e, err := newWorld(&u, model.Proposed(), u.Depth, true)
		if err != nil {
			t.Fatal(err)
		}
		c := e.newCache()
		init := w.Initial(c)
		next := make([]int32, len(init))
		reinstall := u.slotsPerDevice() - 1
		ok, _ := w.Successor(c, init, reinstall, next, search.NewTally(len(networkTable)))
		if !ok {
			t.Fatalf("%s: reinstall d0 not enabled", name)
		}
		if same := slices.Equal(next, init); same != (name == "network") {
			t.Errorf("%s: reinstall from the initial state gives the initial state: %v", name, same)
		}
	}
}

// The split universe's budget really splits: an override group stays in
// the primary with its frontier entry, the spill context goes to the
// additional coordinate, and two frontier entries still fit one blob.
func TestNetworkBudgetSplits(t *testing.T) {
	u := NetworkUniverse()
	spill := u.Network.FrontierOnly[0]
	r := model.NewReplica("d0")
	r.Advance(spill, 10)
	r.Advance("c0", 10)
	r.Advance("c1", 20)
	if sp, err := r.Split(*u.Network.Budget); err != nil || len(sp.Blobs) != 1 {
		t.Fatalf("frontiers only: %d parts, %v", len(sp.Blobs), err)
	}
	if err := r.MarkUnread("c0"); err != nil {
		t.Fatal(err)
	}
	sp, err := r.Split(*u.Network.Budget)
	if err != nil || len(sp.Blobs) != 2 {
		t.Fatalf("with an override: %d parts, %v", len(sp.Blobs), err)
	}
	if _, ok := sp.Blobs[0].Value(model.OverrideKey(model.KeyS, "c0")); !ok {
		t.Errorf("primary lacks the override group: %v", sp.Blobs[0].Contexts)
	}
	if len(sp.Blobs[1].Contexts) != 1 || sp.Blobs[1].Contexts[0].Key != spill {
		t.Errorf("additional coordinate holds %v", sp.Blobs[1].Contexts)
	}
	// Both override contexts live with two-digit counters still fit.
	for range 20 {
		_ = r.MarkUnread("c0")
		_ = r.MarkUnread("c1")
	}
	if _, err := r.Split(*u.Network.Budget); err != nil {
		t.Errorf("two live groups: %v", err)
	}
}

func TestBadNetworkWitnessIsAnInputError(t *testing.T) {
	head := `{"kind":"explore","universe":"network","tie":"clear","rules":"spec","invariant":"x","actions":[`
	tests := []struct{ name, actions string }{
		{"message position 0", `{"action":"deliver","from":0,"to":1}`},
		{"message position beyond capacity", `{"action":"deliver","from":0,"to":1,"msg":3}`},
		{"empty channel", `{"action":"drop","from":0,"to":1,"msg":1}`},
		{"self channel", `{"action":"duplicate","from":1,"to":1,"msg":1}`},
		{"publish with nothing to publish", `{"action":"publish","device":0}`},
		{"legacy cannot rotate", `{"action":"rotate","device":2}`},
		{"spill context has no override", `{"action":"mark_unread","device":0,"ctx":"` + NetworkUniverse().Network.FrontierOnly[0] + `"}`},
		{"device out of range", `{"action":"publish","device":5}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := witnessfile.Parse([]byte(head + tc.actions + `]}`))
			if err == nil {
				_, err = Replay(testCatalog, w)
			}
			if !errors.Is(err, witnessfile.ErrBad) {
				t.Errorf("got %v, want ErrBadWitness", err)
			}
		})
	}
}

// A witness found with symmetry on replays concretely, renders as the
// golden text, and the production rules do not reproduce it.
func TestNetworkWitnessReplaysAndRendersAsGolden(t *testing.T) {
	rules, _ := testCatalog.Rules("test-live-no-baseline")
	r := exploreNet(t, "network", Config{Depth: 4, Rules: rules, Workers: 2})
	if r.Witness == nil || r.Witness.Invariant != InvNetOracle {
		t.Fatalf("no oracle witness: %+v", r.Witness)
	}
	_, res := replayRoundTrip(t, r.Witness)
	golden(t, "network-live-no-baseline.witness.json", r.Witness.JSON())
	golden(t, "network-live-no-baseline.witness.txt", []byte(res.Text))
	if !strings.Contains(res.Text, "intent {set by d0#1 B=0}") {
		t.Errorf("the trace does not show the intent knowledge:\n%s", res.Text)
	}
}
