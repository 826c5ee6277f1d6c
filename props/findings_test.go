package props_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
	"github.com/nip-rs/harness/internal/shortrun"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/relaysim"
)

var update = flag.Bool("update", false, "rewrite the witness files under testdata/witness and the golden figures under testdata/figures")

// Each search runs the cases and seed of the mutant gate's load searches;
// a search stops at its first violation, so the bound costs time only
// where nothing is found.
const (
	searchCases = mutants.DefaultLoadCases
	searchSeed  = mutants.DefaultSeed
)

// searchCap is the cap the profiles are looked up with; each scenario
// draws its own cap in [2,5].
const searchCap = 3

var witnessDir = filepath.Join("testdata", "witness")

// outcome classifies what a search found: a false complete (a soundness
// violation, including one inside a quiescent run), a verdict other than
// the predicted one, or nothing.
func outcome(w *props.Witness) string {
	switch {
	case w == nil:
		return "none"
	case strings.HasPrefix(w.Violation, "soundness:"):
		return "false complete"
	case strings.HasPrefix(w.Violation, "quiescent:"):
		return "diverges"
	}
	return "other: " + w.Violation
}

func search(t *testing.T, check string, rules *model.Rules, profile string) *props.Witness {
	t.Helper()
	w, err := props.Search(props.SearchConfig{Check: check, Rules: rules, Profile: profile, Cases: searchCases, Seed: searchSeed})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// shared holds the searches of the catalogue's rule sets (rulesNamed)
// by check, rule set name and profiles: several tests ask the same search
// (the production rules' termination search over the gate's profiles,
// L15's three gate searches, the breaking profiles' soundness searches),
// and the name, the cases and the seed fix its answer, so it runs once per
// process. A failed search is not kept.
var shared struct {
	sync.Mutex
	m map[string]*props.Witness
}

// searchShared is search(check, rulesNamed(name)) over profiles in order
// (props.SearchProfiles), run once per process.
func searchShared(t *testing.T, check, name string, profiles ...string) *props.Witness {
	t.Helper()
	key := check + "|" + name + "|" + strings.Join(profiles, ",")
	shared.Lock()
	w, ok := shared.m[key]
	shared.Unlock()
	if ok {
		return w
	}
	w, err := props.SearchProfiles(props.SearchConfig{Check: check, Rules: rulesNamed(t, name), Cases: searchCases, Seed: searchSeed}, profiles)
	if err != nil {
		t.Fatal(err)
	}
	shared.Lock()
	if shared.m == nil {
		shared.m = map[string]*props.Witness{}
	}
	shared.m[key] = w
	shared.Unlock()
	return w
}

// searchGateShared is searchShared over every profile the gate searches
// for check.
func searchGateShared(t *testing.T, check, name string) *props.Witness {
	t.Helper()
	return searchShared(t, check, name, props.GateProfiles(check)...)
}

// record writes a witness and its replayed log with -update; otherwise it
// requires the recorded witness to exist (TestWitnessFiles replays it).
func record(t *testing.T, name string, w *props.Witness) {
	t.Helper()
	path := filepath.Join(witnessDir, name+".json")
	if !*update {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("no recorded witness %s (run with -update): %v", path, err)
		}
		return
	}
	data, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(witnessDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	_, log := props.Replay(*w, rulesNamed(t, w.Rules))
	if err := os.WriteFile(strings.TrimSuffix(path, ".json")+".txt", []byte(traceText(*w, log)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func traceText(w props.Witness, log []string) string {
	return fmt.Sprintf("check %s, rules %s, %s\nviolation: %s\n\n%s\n", w.Check, w.Rules, w.Config, w.Violation, strings.Join(log, "\n"))
}

func rulesNamed(t *testing.T, name string) *model.Rules {
	t.Helper()
	switch name {
	case "spec":
		return model.Spec()
	case model.ProposedName:
		return model.Proposed()
	}
	for _, m := range mutants.Load() {
		if m.ID == name {
			return m.Rules()
		}
	}
	t.Fatalf("no rule set %q", name)
	return nil
}

// TestNecessity: for each profile breaking one of the five relay
// requirements, the soundness search over the production rules finds a
// false complete. Each witness is recorded under testdata/witness.
func TestNecessity(t *testing.T) {
	for _, p := range relaysim.Breaking(searchCap) {
		t.Run(p.Name, func(t *testing.T) {
			w := searchShared(t, props.CheckSoundness, model.ProposedName, p.Name)
			if got := outcome(w); got != "false complete" {
				t.Fatalf("%s (breaks %s): search found %q, want a false complete", p.Name, p.Breaks[0], got)
			}
			record(t, "necessity-"+p.Name, w)
		})
	}
}

// TestLoadMutantsCaught: every load mutant is caught by the generic
// checks run under the profiles the gate searches (props.GateProfiles:
// every conformant profile for soundness) — exactly the checks its
// catalogue entry names — and the production rules are caught by none.
// testdata/figures pins the table of what catches each.
func TestLoadMutantsCaught(t *testing.T) {
	checks := []struct{ prop, name string }{{props.CheckSoundness, mutants.CheckLoadSoundness}, {props.CheckQuiescent, mutants.CheckLoadQuiescent},
		{props.CheckTermination, mutants.CheckLoadTermination}}
	if shortrun.On(t, "the mutants L1-L10, each searched by the checks its entry names only, for its recorded witness") {
		loadMutantsCaughtShort(t, checks)
		return
	}
	figs := figfile.For(t, *update)
	for _, c := range checks {
		if w := searchGateShared(t, c.prop, model.ProposedName); w != nil {
			t.Fatalf("production rules caught by %s: %s", c.name, w.Violation)
		}
	}
	for _, m := range mutants.Load() {
		t.Run(m.ID, func(t *testing.T) {
			var caught []string
			for _, c := range checks {
				w := searchGateShared(t, c.prop, m.ID)
				if w == nil {
					continue
				}
				caught = append(caught, c.name)
				record(t, fmt.Sprintf("mutant-%s-%s", m.ID, c.prop), w)
			}
			if !slices.Equal(caught, m.ExpectedBy) {
				t.Errorf("%s caught by %v, catalogue expects %v", m.ID, caught, m.ExpectedBy)
			}
			row := fmt.Sprintf("| %s | %s |", m.ID, strings.Join(caught, ", "))
			figs.Line(row)
		})
	}
}

// quickMutants are the load mutants the quick gate searches: those its
// catching checks find within a few dozen scenarios of the gate's seed
// (L11-L15 take hundreds of scenarios or a quirk profile).
var quickMutants = []string{"L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "L10"}

// loadMutantsCaughtShort is TestLoadMutantsCaught in part: each quick
// mutant is caught by every check its catalogue entry names, over the
// gate's profiles with the gate's cases and seed, and the witness found
// is the one recorded under testdata/witness. Whether the other checks
// miss it, and whether the production rules pass every check, cost the
// searches' whole bound and are left to the full run.
func loadMutantsCaughtShort(t *testing.T, checks []struct{ prop, name string }) {
	for _, id := range quickMutants {
		m, ok := mutants.Lookup(id)
		if !ok {
			t.Fatalf("no load mutant %s", id)
		}
		t.Run(id, func(t *testing.T) {
			for _, c := range checks {
				if !slices.Contains(m.ExpectedBy, c.name) {
					continue
				}
				w := searchGateShared(t, c.prop, m.ID)
				if w == nil {
					t.Errorf("%s not caught by %s, which its entry names", m.ID, c.name)
					continue
				}
				got, err := json.MarshalIndent(w, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(witnessDir, fmt.Sprintf("mutant-%s-%s.json", m.ID, c.prop))
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if string(append(got, '\n')) != string(want) {
					t.Errorf("%s by %s: the witness found differs from %s", m.ID, c.name, path)
				}
			}
		})
	}
}

// TestRelayProfileFindings: for every non-conformant profile, what the
// two searches find under the production rules is the table pinned in
// testdata/figures.
//
// Each row is one profile's two searches, whatever else runs, so the
// quick gate runs the single-requirement profiles (whose searches end at
// an early finding) and holds each row to that profile's pinned row.
func TestRelayProfileFindings(t *testing.T) {
	profiles := append(relaysim.Breaking(searchCap), relaysim.RealLike(searchCap)...)
	var pinned map[string]bool
	figs := &figfile.Figures{}
	if shortrun.On(t, "the single-requirement profiles, each row held to its pinned row") {
		profiles = relaysim.Breaking(searchCap)
		pinned = figfile.Pinned(t, t.Name())
	} else {
		figs = figfile.For(t, *update)
	}
	for _, p := range profiles {
		t.Run(p.Name, func(t *testing.T) {
			s := searchShared(t, props.CheckSoundness, model.ProposedName, p.Name)
			q := searchShared(t, props.CheckQuiescent, model.ProposedName, p.Name)
			if s != nil && len(p.Breaks) != 1 { // the single-requirement profiles record theirs in TestNecessity
				record(t, "profile-"+p.Name+"-soundness", s)
			}
			if q != nil {
				record(t, "profile-"+p.Name+"-quiescent", q)
			}
			row := fmt.Sprintf("| `%s` | %s | %s |", p.Name, outcome(s), outcome(q))
			figs.Line(row)
			if pinned != nil && !pinned[row] {
				t.Errorf("%s is not the row pinned in %s", row, figfile.Path("TestRelayProfileFindings"))
			}
		})
	}
}

// TestWitnessFiles replays every recorded witness: it must still expose
// its recorded violation, its log must match the recorded trace, and the
// same scenario over the conformant relay with the production rules must
// expose nothing.
func TestWitnessFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(witnessDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no witness recorded")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var w props.Witness
			if err := json.Unmarshal(data, &w); err != nil {
				t.Fatal(err)
			}
			v, log := props.Replay(w, rulesNamed(t, w.Rules))
			if v == nil || v.Error() != w.Violation {
				t.Fatalf("replay: %v, recorded %s", v, w.Violation)
			}
			want, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			if got := traceText(w, log); got != string(want) {
				t.Errorf("trace differs from %s:\n%s", strings.TrimSuffix(f, ".json")+".txt", got)
			}
			control := w
			control.Config.Profile = "conformant"
			if v, _ := props.Replay(control, model.Proposed()); v != nil {
				t.Errorf("the scenario over the conformant relay with the production rules: %v", v)
			}
		})
	}
}

func loadRules(t *testing.T, id string) *model.Rules {
	t.Helper()
	m, ok := mutants.Lookup(id)
	if !ok {
		t.Fatalf("no mutant %s", id)
	}
	return m.Rules()
}

// TestSearchDeterministic: the same configuration gives the same witness;
// it replays to exactly its recorded violation and is a fixed point of
// Minimize.
func TestSearchDeterministic(t *testing.T) {
	rules := loadRules(t, "L10")
	cfg := props.SearchConfig{Check: props.CheckSoundness, Rules: rules, Profile: "conformant", Cases: searchCases, Seed: searchSeed}
	a, b := search2(t, cfg), search2(t, cfg)
	if a == nil || b == nil {
		t.Fatalf("L10 not found: %v %v", a, b)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two searches with one seed differ:\n%+v\n%+v", a, b)
	}
	if v, _ := props.Replay(*a, rules); v == nil || v.Error() != a.Violation {
		t.Fatalf("replay: %v, recorded %s", v, a.Violation)
	}
	if again := props.Minimize(*a, rules); !reflect.DeepEqual(again, *a) {
		t.Fatalf("Minimize moved its own result:\n%+v\n%+v", again, *a)
	}
	if a.Rules != "L10" || a.Check != props.CheckSoundness || a.Config.Profile != "conformant" {
		t.Fatalf("witness header %s/%s/%s", a.Check, a.Rules, a.Config.Profile)
	}
}

func search2(t *testing.T, cfg props.SearchConfig) *props.Witness {
	t.Helper()
	w, err := props.Search(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestSearchBadInput: what cannot run is an error, never a panic.
func TestSearchBadInput(t *testing.T) {
	ok := props.SearchConfig{Check: props.CheckQuiescent, Rules: model.Proposed(), Profile: "conformant", Cases: 10, Seed: 1}
	for name, mod := range map[string]func(*props.SearchConfig){
		"unknown check":   func(c *props.SearchConfig) { c.Check = "liveness" },
		"no rules":        func(c *props.SearchConfig) { c.Rules = nil },
		"unknown profile": func(c *props.SearchConfig) { c.Profile = "nosuch" },
		"zero cases":      func(c *props.SearchConfig) { c.Cases = 0 },
		"negative cases":  func(c *props.SearchConfig) { c.Cases = -3 },
	} {
		cfg := ok
		mod(&cfg)
		if w, err := props.Search(cfg); err == nil || w != nil {
			t.Errorf("%s: witness %v, error %v", name, w, err)
		}
	}
	if w, err := props.Search(ok); err != nil || w != nil {
		t.Errorf("the production rules: witness %v, error %v", w, err)
	}
}

// TestMinimizeShrinksValues: under L8 (floor 1) one event at any second
// can never be proved complete. From a padded witness — large cap and n,
// late seconds, a tick, a replacement — Minimize keeps a divergence and
// reaches the single event at the oldest second under cap 2 and n 2.
func TestMinimizeShrinksValues(t *testing.T) {
	rules := loadRules(t, "L8")
	padded := props.Witness{Check: props.CheckQuiescent, Rules: "L8", Config: props.Config{Profile: "conformant", Cap: 5, N: 6},
		Steps: []props.Step{
			{Op: props.OpPublish, When: props.WhenAt, At: 97},
			{Op: props.OpTick, I: 3},
			{Op: props.OpPublish, When: props.WhenAt, At: 99}, // replaces the first
		}}
	v, _ := props.Replay(padded, rules)
	if v == nil || v.Check != "quiescent" {
		t.Fatalf("the padded witness does not diverge: %v", v)
	}
	padded.Violation = v.Error()
	got := props.Minimize(padded, rules)
	want := []props.Step{{Op: props.OpPublish, When: props.WhenAt, At: props.StartClock - 30}}
	if got.Config != (props.Config{Profile: "conformant", Cap: 2, N: 2}) || !reflect.DeepEqual(got.Steps, want) {
		t.Fatalf("minimised to %v %+v, want cap 2 n 2 %+v", got.Config, got.Steps, want)
	}
	if v, _ := props.Replay(got, rules); v == nil || v.Error() != got.Violation || !strings.HasPrefix(got.Violation, "quiescent:") {
		t.Fatalf("replay %v, recorded %s", v, got.Violation)
	}
}
