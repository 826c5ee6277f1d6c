package exhaustive

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
)

// The -max-states flag a liveness run takes: unset is the graphs' own
// default, 0 lifts the bound, anything else is the bound.
func TestLivenessMaxStates(t *testing.T) {
	for _, c := range []struct {
		set  bool
		n    int
		want int
	}{{false, 3_000_000, DefaultLivenessStates}, {false, 0, DefaultLivenessStates}, {true, 0, math.MaxInt32}, {true, 100, 100}} {
		if got := LivenessMaxStates(c.set, c.n); got != c.want {
			t.Errorf("LivenessMaxStates(%t, %d) = %d, want %d", c.set, c.n, got, c.want)
		}
	}
	for check, want := range map[string]string{"liveness": InvNoRepublishCycle, "agreement": InvOverrideReaches, "safety": ""} {
		if got, ok := LivenessProperty(check); got != want || ok != (want != "") {
			t.Errorf("LivenessProperty(%q) = %q, %t", check, got, ok)
		}
	}
}

// The header names the check, universe, resolved depth, tie and rules as
// given, and the workers only for the check that uses them.
func TestLivenessRunHead(t *testing.T) {
	u := NetworkPairUniverse()
	for _, c := range []struct {
		run  LivenessRun
		want string
	}{
		{LivenessRun{Check: "liveness", Universe: u, Tie: "both", RulesName: "M32", Workers: 2, MaxStates: 7},
			"explore -check=liveness -universe=network-pair -depth=4 -tie=both -rules=M32 -workers=2 -max-states=7 (version "},
		{LivenessRun{Check: "agreement", Universe: u, Tie: "clear", RulesName: "proposed", Depth: 2, Workers: 2, MaxStates: 7},
			"explore -check=agreement -universe=network-pair -depth=2 -tie=clear -rules=proposed -max-states=7 (version "},
	} {
		if got := c.run.Head(); !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, cli.Version()+")") {
			t.Errorf("head\n %s\nwant\n %s...", got, c.want)
		}
	}
}

// Run's lines, witness files and exit code: a holding property exits 0
// with its counts; a violation writes its witness (or warns when it
// cannot) and exits 1; a bound or a premise never met is unknown (3); a
// universe without a network and a name that is no check are errors.
func TestLivenessRun(t *testing.T) {
	vacuous := model.Proposed().Clone()
	vacuous.Slots.Republish = func(_, _, _ []model.Entry) bool { return false }
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		check     string
		universe  Universe
		rules     *model.Rules
		maxStates int
		dir       string
		code      int
		want      []string
		file      string
		warned    bool
		err       bool
	}{
		{name: "holds", check: "liveness", rules: model.Proposed(), code: cli.ExitOK, want: []string{"liveness network-pair tie clear rules proposed depth 4: ok; roots 605, states 11353,"}},
		{name: "lasso", check: "liveness", rules: noSuppression(), code: cli.ExitFailed,
			want: []string{": violation;", "witness written to ", "loop:"}, file: "liveness-network-pair-depth4-clear.json"},
		{name: "unwritable", check: "liveness", rules: noSuppression(), dir: blocked, code: cli.ExitFailed, want: []string{"loop:"}, warned: true},
		{name: "agreement", check: "agreement", rules: frontierTrigger(), code: cli.ExitFailed,
			want: []string{"settled apart: c0 is live on d0 and dead on d1"}, file: "agreement-network-pair-depth4-clear.json"},
		{name: "bound", check: "liveness", rules: model.Proposed(), maxStates: 100, code: cli.ExitUnknown, want: []string{": unknown (bound: "}},
		{name: "vacuous", check: "liveness", rules: vacuous, code: cli.ExitUnknown, want: []string{"liveness network-pair tie clear: unknown: ", "premise never met"}},
		{name: "no network", check: "liveness", universe: Reference(), rules: model.Proposed(), err: true},
		{name: "no check", check: "safety", rules: model.Proposed(), err: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := c.universe
			if u.Name == "" {
				u = NetworkPairUniverse()
			}
			dir := c.dir
			if dir == "" {
				dir = t.TempDir()
			}
			var out bytes.Buffer
			warned := false
			r := LivenessRun{Check: c.check, Universe: u, Ties: []model.TiePolicy{model.ClearWins}, Rules: c.rules, Workers: 2,
				MaxStates: c.maxStates, WitnessDir: dir}
			code, err := r.Run(&out, func(error) { warned = true })
			if c.err {
				if err == nil {
					t.Fatalf("no error; exit %d\n%s", code, out.String())
				}
				return
			}
			if err != nil || code != c.code || warned != c.warned {
				t.Fatalf("exit %d (want %d), err %v, warned %t\n%s", code, c.code, err, warned, out.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if c.file != "" {
				if _, err := os.Stat(filepath.Join(dir, c.file)); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
