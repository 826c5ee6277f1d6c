package props_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/relaysim"
)

var update = flag.Bool("update", false, "rewrite the witness files under testdata/witness")

// searchChecks bounds each search; a search stops at its first violation,
// so the bound costs time only where nothing is found.
const searchChecks = 1000

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
	w, err := props.Search(check, rules, profile, searchChecks)
	if err != nil {
		t.Fatal(err)
	}
	return w
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
	if name == "spec" {
		return model.Spec()
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
			w := search(t, props.CheckSoundness, model.Spec(), p.Name)
			if got := outcome(w); got != "false complete" {
				t.Fatalf("%s (breaks %s): search found %q, want a false complete", p.Name, p.Breaks[0], got)
			}
			record(t, "necessity-"+p.Name, w)
		})
	}
}

// TestLoadMutantsCaught: every load mutant is caught by the generic
// checks run under the conformant profile — exactly the checks its
// catalogue entry names — and the production rules are caught by none.
// The mutants table in NOTE.md states the same.
func TestLoadMutantsCaught(t *testing.T) {
	note := readNote(t)
	checks := []struct{ prop, name string }{{props.CheckSoundness, mutants.CheckLoadSoundness}, {props.CheckQuiescent, mutants.CheckLoadQuiescent}}
	for _, c := range checks {
		if w := search(t, c.prop, model.Spec(), "conformant"); w != nil {
			t.Fatalf("production rules caught by %s: %s", c.name, w.Violation)
		}
	}
	for _, m := range mutants.Load() {
		t.Run(m.ID, func(t *testing.T) {
			var caught []string
			for _, c := range checks {
				w := search(t, c.prop, m.Rules(), "conformant")
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
			if !strings.Contains(note, row) {
				t.Errorf("NOTE.md lacks the row %q", row)
			}
		})
	}
}

// TestRelayProfileFindings: for every non-conformant profile, what the
// two searches find under the production rules is what NOTE.md's table
// says.
func TestRelayProfileFindings(t *testing.T) {
	note := readNote(t)
	profiles := append(relaysim.Breaking(searchCap), relaysim.RealLike(searchCap)...)
	for _, p := range profiles {
		t.Run(p.Name, func(t *testing.T) {
			s := search(t, props.CheckSoundness, model.Spec(), p.Name)
			q := search(t, props.CheckQuiescent, model.Spec(), p.Name)
			if s != nil && len(p.Breaks) != 1 { // the single-requirement profiles record theirs in TestNecessity
				record(t, "profile-"+p.Name+"-soundness", s)
			}
			if q != nil {
				record(t, "profile-"+p.Name+"-quiescent", q)
			}
			row := fmt.Sprintf("| `%s` | %s | %s |", p.Name, outcome(s), outcome(q))
			if !strings.Contains(note, row) {
				t.Errorf("NOTE.md lacks the row %q", row)
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
			if v, _ := props.Replay(control, model.Spec()); v != nil {
				t.Errorf("the scenario over the conformant relay with the production rules: %v", v)
			}
		})
	}
}

func readNote(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "NOTE.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
