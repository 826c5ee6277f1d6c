package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/runreport"
)

// A test-only rule set that converges to the wrong verdict: liveness
// without the baseline condition.
func init() {
	cat.AddRules("test-live-no-baseline", func() *model.Rules {
		r := model.Proposed().Clone()
		r.Live = func(g model.Reg, _ uint32, tie model.TiePolicy) bool {
			if tie == model.SetWins {
				return g.S > 0 && g.S >= g.C
			}
			return g.S > g.C
		}
		return r
	})
}

func TestNetworkRunReportsCoverage(t *testing.T) {
	code, out, _ := runCLI(t, "-universe", "network-whole", "-depth", "4", "-tie", "clear", "-directed=false", "-progress=0")
	if code != exitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{"-universe=network-whole", "-symmetry=true", "1 / 4 / 39 / 279 / 2,165", "clear-wins actions (executed transitions): mark_unread",
		"sometimes (transitions reaching it): stale-after-compaction 0, tombstone-meets-live 2", "oracle (contexts at quiescence, over every state): judged live",
		"symmetry reduction: on", "NOT REACHED: stale-after-compaction", "N3  intent oracle agrees with every replica", "result: ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "-universe", "network-whole", "-depth", "4", "-tie", "clear", "-directed=false", "-progress=0", "-symmetry=false")
	if code != exitOK || !strings.Contains(out, "1 / 14 / 131 / 1,085 / 8,462") || !strings.Contains(out, "symmetry reduction: off") {
		t.Errorf("-symmetry=false: exit %d:\n%s", code, out)
	}
}

// A network run that reaches none of its sometimes conditions fails.
func TestVacuousNetworkRunExits1(t *testing.T) {
	code, out, _ := runCLI(t, "-universe", "network", "-depth", "2", "-tie", "clear", "-directed=false", "-progress=0")
	if code != exitViolation || !strings.Contains(out, "result: violation: N0-non-vacuity (clear)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestNetworkWitnessReplays(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := runCLI(t, "-universe", "network", "-depth", "3", "-tie", "clear", "-rules", "test-live-no-baseline", "-directed=false", "-witness", dir, "-progress=0", "-json")
	if code != exitViolation {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var j runreport.Doc
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if e := j.Explore[0]; e.Witness == nil || e.Witness.Invariant != exhaustive.InvNetOracle || e.Symmetry == nil || !*e.Symmetry || e.Sometimes == nil {
		t.Errorf("json %+v", e)
	}
	path := filepath.Join(dir, "explore-network-depth3-clear.json")
	code, out, _ = runCLI(t, "-replay", path)
	if code != exitViolation || !strings.Contains(out, "reproduced: N3-intent-oracle fails again") || !strings.Contains(out, "intent {set by") {
		t.Errorf("replay: exit %d:\n%s", code, out)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"universe": "network"`) {
		t.Errorf("witness file:\n%s", data)
	}
}
