package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The core rules refuse a mutant of another layer and an unknown name and
// resolve the catalogue's own; a witness file is read, checked and
// replayed, every error naming the file.
func TestCoreRulesAndReplayFile(t *testing.T) {
	c := Standard()
	if r, err := c.CoreRules("proposed"); err != nil || r == nil {
		t.Errorf("proposed: %v", err)
	}
	if _, err := c.CoreRules("H1"); err == nil || !strings.Contains(err.Error(), "another layer than the core") {
		t.Errorf("a history mutant: %v", err)
	}
	if _, err := c.CoreRules("nonsense"); err == nil || !strings.HasPrefix(err.Error(), "-rules: ") {
		t.Errorf("unknown name: %v", err)
	}
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	if _, _, err := c.ReplayFile(missing); err == nil || !strings.HasPrefix(err.Error(), missing+": ") {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"kind":"nonsense","invariant":"x"}`), 0o644)
	if _, _, err := c.ReplayFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("unknown kind: %v", err)
	}
	load := filepath.Join(dir, "load.json")
	os.WriteFile(load, []byte(`{"check":"quiescent","rules":"spec","config":{"profile":"conformant","cap":4,"n":2},`+
		`"steps":[{"op":"publish","at":70,"when":"at"}],"violation":"soundness: x"}`), 0o644)
	w, r, err := c.ReplayFile(load)
	if err != nil || w.Invariant != "soundness" || !strings.HasPrefix(r.Text, "witness soundness: load check quiescent") {
		t.Errorf("load witness: %v %v", w, err)
	}
}

// An override run's inputs: a universe of the override catalogue, the tie
// list, a rule set; a history mutant, an unknown universe, tie or rule
// set is refused.
func TestOverrideInputs(t *testing.T) {
	c := Standard()
	u, tl, r, err := c.OverrideInputs("reference", "both", "M1")
	if err != nil || u.Name != "reference" || len(tl) != 2 || r == nil {
		t.Fatalf("reference both M1: %v %v %v", u.Name, tl, err)
	}
	for _, in := range [][3]string{{"walk", "both", "spec"}, {"reference", "sideways", "spec"}, {"reference", "both", "nonsense"}, {"reference", "both", "H1"}} {
		if _, _, _, err := c.OverrideInputs(in[0], in[1], in[2]); err == nil {
			t.Errorf("%v: no error", in)
		}
	}
	if _, _, _, err := c.OverrideInputs("reference", "both", "H1"); err == nil || !strings.Contains(err.Error(), "history mutant") {
		t.Errorf("history mutant: %v", err)
	}
}
