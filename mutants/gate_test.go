package mutants

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
	"github.com/nip-rs/harness/internal/shortrun"

	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/witnessfile"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/props"
)

var (
	update = flag.Bool("update", false, "rewrite the golden witnesses under testdata/")
	all    = flag.Bool("all", false, "run every check for every mutant (several minutes) and require exactly the expected checks to catch each")
)

const goldenDir = "testdata"

// TestGate is the mutant gate (whole under `make test-full`; the quick
// gate runs the quickGate mutants alone): the production rules trip
// no generic check; every mutant is caught under clear-wins by every check
// its catalogue entry expects (the equivalent one survives, as declared);
// each first witness equals its golden file byte for byte; and the mutant
// table the run computes is the one pinned in testdata/figures.
func TestGate(t *testing.T) {
	if shortrun.On(t, "the mutants "+strings.Join(quickGate, ", ")+", each caught with its golden witness and its row of the pinned table, not the whole catalogue") {
		quickGateRun(t)
		return
	}
	rep, err := Run(Options{All: *all})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems() {
		t.Error(p)
	}
	changed, err := CompareGolden(goldenDir, rep.Results, *update)
	switch {
	case err != nil:
		t.Fatal(err)
	case len(changed) > 0 && !*update:
		t.Errorf("witnesses differ from testdata/ (run with -update to accept): %s", strings.Join(changed, ", "))
	}
	rows := rep.TableRows()
	if len(rows) != len(All()) {
		t.Errorf("the mutant table has %d rows, the catalogue %d mutants", len(rows), len(All()))
	}
	figs := figfile.For(t, *update)
	for _, row := range rows {
		figs.Line(row)
	}
	t.Logf("gate: %d mutants under both tie policies in %s", len(All()), rep.Elapsed)
}

// quickGate are the mutants the quick gate runs: three of the core (the
// wire and the actions) and one of the community layer, each caught by a
// directed or community check the gate's order (cheapest first) places
// before every universe, so their run explores no universe beyond the
// control's own walk, which every run of the gate pays.
var quickGate = []string{"M5", "M13", "M17", "K24"}

// quickGateRun is TestGate for the quick gate's mutants, run as `mutate
// -only` runs them (the control only on the checks they reach): each is
// caught under both tie policies with no problem the gate would report,
// its first witnesses equal their golden files, and its row of the mutant
// table is the row the whole gate pinned.
func quickGateRun(t *testing.T) {
	t.Helper()
	rep, err := Run(Options{Only: quickGate, All: *all})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems() {
		t.Error(p)
	}
	if len(rep.Results) != 2*len(quickGate) {
		t.Fatalf("%d results for %d mutants under two tie policies", len(rep.Results), len(quickGate))
	}
	for _, r := range rep.Results {
		if r.Status != StatusCaught {
			t.Errorf("%s %s: %s", r.Mutant.ID, r.Tie, r.Status)
		}
	}
	changed, err := CompareGolden(goldenDir, rep.Results, *update)
	switch {
	case err != nil:
		t.Fatal(err)
	case len(changed) > 0 && !*update:
		t.Errorf("witnesses differ from testdata/ (run with -update to accept): %s", strings.Join(changed, ", "))
	}
	if *update {
		return // the table is the whole gate's to rewrite
	}
	pinned := figfile.Pinned(t, "TestGate")
	rows := rep.TableRows()
	if len(rows) != len(quickGate) {
		t.Errorf("the mutant table has %d rows for %d mutants", len(rows), len(quickGate))
	}
	for _, row := range rows {
		if !pinned[strings.TrimSpace(row)] {
			t.Errorf("the row differs from the whole gate's pinned one (%s):\n%s", figfile.Path("TestGate"), row)
		}
	}
}

// TestSuiteHoldsEveryUniverse: the suite explores every registered
// universe except the one-device variants, and lists every directed check
// and every load check.
func TestSuiteHoldsEveryUniverse(t *testing.T) {
	names := map[string]bool{}
	cat := exhaustive.NewCatalog()
	Register(cat)
	for _, c := range SuiteChecks(cat) {
		names[c.Name] = true
	}
	for _, u := range cat.UniverseNames() {
		if want := !isVariant(u); names[KindExplore+":"+u] != want {
			t.Errorf("universe %s in the suite: %t, want %t", u, !want, want)
		}
	}
	for _, d := range directed.Checks() {
		if !names[KindDirected+":"+d.Key] {
			t.Errorf("directed check %s missing", d.Key)
		}
	}
	if !names[CheckLoadSoundness] || !names[CheckLoadQuiescent] || !names[CheckLoadTermination] {
		t.Error("a load check is missing")
	}
	for _, m := range All() {
		for _, c := range m.ExpectedBy {
			if !names[c] {
				t.Errorf("%s expects an unknown check %s", m.ID, c)
			}
		}
	}
}

// TestGoldenWitnessesReplay replays every golden witness: explorer and
// directed witnesses through cmd/explore -replay (exit 1, "reproduced",
// the recorded rendering), load witnesses through props.Replay.
func TestGoldenWitnessesReplay(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden witnesses: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "explore")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/explore").CombinedOutput(); err != nil {
		t.Fatalf("build cmd/explore: %v\n%s", err, out)
	}
	explorer := 0
	var replays []replay
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		var kind struct {
			Kind string `json:"kind"`
		}
		_ = json.Unmarshal(data, &kind)
		if kind.Kind == "" { // a load witness
			var w props.Witness
			if err := json.Unmarshal(data, &w); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			m, ok := Lookup(w.Rules)
			if !ok {
				t.Fatalf("%s: unknown rules %s", f, w.Rules)
			}
			if v, _ := props.Replay(w, m.Rules()); v == nil || v.Error() != w.Violation {
				t.Errorf("%s: replay gives %v, recorded %s", f, v, w.Violation)
			}
			continue
		}
		if kind.Kind == history.KindHistory {
			replayHistoryGolden(t, f, data, text)
			continue
		}
		if kind.Kind == KindCommunity || kind.Kind == KindCommunityLiveness {
			replayCommunityGolden(t, f, data, text)
			continue
		}
		if kind.Kind == KindWalkLiveness {
			replayWalkLassoGolden(t, f, data, text)
			continue
		}
		if kind.Kind == witnessfile.KindExplore {
			explorer++
		}
		replays = append(replays, replay{file: f, text: string(text)})
	}
	// The replays are separate processes, each mostly waiting on its own
	// start: a few at a time, reported in file order.
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i := range replays {
		wg.Add(1)
		sem <- struct{}{}
		go func(p *replay) {
			defer func() { <-sem; wg.Done() }()
			cmd := exec.Command(bin, "-replay", p.file)
			var out bytes.Buffer
			cmd.Stdout = &out
			p.err = cmd.Run()
			p.code, p.out = cmd.ProcessState.ExitCode(), out.String()
		}(&replays[i])
	}
	wg.Wait()
	for _, p := range replays {
		if p.code != 1 || !strings.Contains(p.out, "\nreproduced: ") {
			t.Errorf("%s: cmd/explore -replay exit %d (%v):\n%s", p.file, p.code, p.err, p.out)
			continue
		}
		if !strings.Contains(p.out, p.text) {
			t.Errorf("%s: the replay renders differently from %s:\n%s", p.file, filepath.Base(strings.TrimSuffix(p.file, ".json")+".txt"), p.out)
		}
	}
	if explorer == 0 {
		t.Error("no explorer witness among the golden files")
	}
}

// replay is one cmd/explore -replay of a golden witness: its file, the
// recorded rendering, and what the command did.
type replay struct {
	file, text string
	code       int
	out        string
	err        error
}

// replayWalkLassoGolden replays a golden walk lasso: under the rule set it
// names it is a walk that never ends, with the recorded rendering, and
// under the rule set the mutant changes it is not one.
func replayWalkLassoGolden(t *testing.T, file string, data, text []byte) {
	t.Helper()
	l, name, err := history.ParseLasso(data)
	if err != nil {
		t.Errorf("%s: %v", file, err)
		return
	}
	rules, ok := HistoryRuleSet(name)
	if !ok {
		t.Errorf("%s: unknown rule set %q", file, name)
		return
	}
	if got, err := history.ReplayLasso(l, rules); err != nil || got != string(text) {
		t.Errorf("%s: under %s: err %v, rendering equal to the golden text %v", file, name, err, got == string(text))
	}
	if _, err := history.ReplayLasso(l, historyBase(name)); err == nil {
		t.Errorf("%s: the lasso also holds under the rules %s changes", file, name)
	}
}
