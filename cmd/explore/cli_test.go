package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/notefig"
)

// between is the text of s after the first before, up to the next after.
func between(s, before, after string) string {
	_, rest, ok := strings.Cut(s, before)
	if !ok {
		return "(missing: " + before + ")"
	}
	v, _, _ := strings.Cut(rest, after)
	return v
}

func TestHelpVersionAndList(t *testing.T) {
	code, _, errOut := runCLI(t, "-h")
	if code != exitUsage {
		t.Errorf("-h: exit %d", code)
	}
	for _, want := range []string{"examples:", "exit codes:", "-replay mutants/testdata/M3.clear.json", "  3  unknown"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("-h lacks %q:\n%s", want, errOut)
		}
	}
	if code, out, _ := runCLI(t, "-version"); code != exitOK || !strings.HasPrefix(out, "explore ") {
		t.Errorf("-version: exit %d, %q", code, out)
	}
	_, out, _ := runCLI(t, "-list")
	for _, want := range []string{"b-max-frontier       amendment: mark-unread sets B := max(oldB, F)", "M17                  mutant: ", "spec                 the production rules"} {
		if !strings.Contains(out, want) {
			t.Errorf("-list lacks %q", want)
		}
	}
}

// An amendment run names the amendment, counts the rule inputs it decided
// otherwise than spec, and keeps safety apart from spec-text conformance.
func TestAmendmentRun(t *testing.T) {
	code, out, _ := runCLI(t, "-rules", "b-max-frontier", "-witness", t.TempDir(), "-progress=0")
	if code != exitViolation {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	note := notefig.Section(t, "## Amendments")
	notefig.RequireMention(t, note, "`b-max-frontier`, tie clear: "+between(out, "against spec, tie clear, universe reference: ", "\n"))
	for _, want := range []string{
		"amendment b-max-frontier (Actions (mark-unread))",
		"against spec, tie clear, universe reference: 0 distinct rule inputs decided otherwise than spec",
		"safety (convergence, no resurrection, intent, model laws): every check holds",
		"spec-text conformance (C cubes): differs from today's spec text: C6 action-conformance (clear)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	code, out, _ = runCLI(t, "-rules", "set-wins-everywhere", "-progress=0", "-witness", t.TempDir())
	if code != exitOK || !strings.Contains(out, "tie set, universe reference: 3 distinct rule inputs decided otherwise than spec") || strings.Contains(out, "clear-wins") {
		t.Errorf("set-wins-everywhere: exit %d:\n%s", code, out)
	}
	notefig.RequireMention(t, note, "`set-wins-everywhere`, tie set: "+between(out, "against spec, tie set, universe reference: ", "\n"))
	if code, _, errOut := runCLI(t, "-rules", "set-wins-everywhere", "-tie", "clear"); code != exitUsage || !strings.Contains(errOut, "decides ties itself") {
		t.Errorf("-tie clear with set-wins-everywhere: exit %d, %q", code, errOut)
	}
}

// An invariant a bounded run never reached is "not checked", not a pass.
func TestUncheckedIsNotAPass(t *testing.T) {
	code, out, _ := runCLI(t, "-max-states", "3", "-directed=false", "-progress=0", "-tie", "clear")
	if code != exitUnknown {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "not checked") || strings.Contains(out, "PASS 0 ") {
		t.Errorf("table:\n%s", out)
	}
}

// -cpuprofile and -memprofile write pprof files a run can be read back from;
// a path that cannot be created is a usage error before any search.
func TestProfilesAreWritten(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	code, out, _ := runCLI(t, "-depth", "2", "-progress=0", "-witness", dir, "-cpuprofile", cpu, "-memprofile", mem)
	if code != exitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, f := range []string{cpu, mem} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v (want a non-empty profile)", f, err)
		}
	}
	bad := filepath.Join(dir, "missing", "cpu.prof")
	if code, out, errOut := runCLI(t, "-cpuprofile", bad); code != exitUsage || out != "" || !strings.Contains(errOut, "-cpuprofile") {
		t.Errorf("unwritable -cpuprofile: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
