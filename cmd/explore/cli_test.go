package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
	"github.com/nip-rs/harness/internal/shortrun"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
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

// The command-line contract every command keeps (internal/cli): -h and
// -help print a description, examples and the exit codes on stdout and exit
// 0; -version and -list exit 0; a usage error is one message on stderr and
// exit 2, with nothing on stdout.
func TestCommandLineContract(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		{[]string{"-h"}, exitOK, []string{"explore: the bounded explorer", "examples (a built binary", "-replay mutants/testdata/M3.clear.json", "exit codes:", "  3  unknown"}, ""},
		{[]string{"-help"}, exitOK, []string{"flags:", "  -universe string", "  2  usage or input error"}, ""},
		{[]string{"-version"}, exitOK, []string{"explore "}, ""},
		{[]string{"-list"}, exitOK, []string{"b-max-frontier       amendment: mark-unread sets B := max(oldB, F)", "M17                  mutant: ", "spec                 the rules NIP-RS.md states", "proposed             spec and every proposal"}, ""},
		{[]string{"-nonesuch"}, exitUsage, nil, "flag provided but not defined: -nonesuch"},
		{[]string{"-depth", "many"}, exitUsage, nil, `invalid value "many" for flag -depth`},
		{[]string{"-depth", "-1"}, exitUsage, nil, "-depth -1 is negative"},
		{[]string{"-depth", "65"}, exitUsage, nil, "-depth 65: at most 64"},
		{[]string{"-simulate", "1", "-steps", "65"}, exitUsage, nil, "steps 1..64"},
		{[]string{"-workers", "0"}, exitUsage, nil, "-workers 0"},
		{[]string{"-universe", "nonesuch"}, exitUsage, nil, "nonesuch"},
		{[]string{"stray"}, exitUsage, nil, "unexpected arguments: stray"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, errOut)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			if tc.code == exitUsage && (out != "" || !strings.Contains(errOut, tc.stderr)) {
				t.Errorf("stdout %q, stderr %q: want nothing on stdout and %q on stderr", out, errOut, tc.stderr)
			}
		})
	}
}

// An interrupt (the run's context ending, as SIGINT ends it) prints what
// was done so far, with no verdict for the exploration in flight, and
// exits 3.
func TestInterruptPrintsThePartialSummary(t *testing.T) {
	current.Start("explore -universe=reference", model.ClearWins)
	current.Note(exhaustive.Progress{Phase: "expand", Depth: 3, Distinct: 1234})
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	codes := make(chan int, 1)
	done := onInterrupt(ctx, &out, func(code int) { codes <- code })
	cancel()
	<-done
	if code := <-codes; code != exitUnknown {
		t.Errorf("exit %d, want %d", code, exitUnknown)
	}
	for _, want := range []string{"interrupted: partial summary of explore -universe=reference", "tie clear: stopped while expanding depth 3, 1,234 distinct states stored; its invariants are not checked (no verdict)", "result: unknown (interrupted)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}

// An amendment run on one universe names the amendment, counts the rule
// inputs it decided otherwise than proposed, keeps safety apart from
// spec-text conformance, and, with checks of the suite not run, says
// unknown (exit 3), never safe.
func TestAmendmentRun(t *testing.T) {
	code, out, _ := runCLI(t, "-rules", "b-max-frontier", "-universe", "reference", "-witness", t.TempDir(), "-progress=0")
	if code != exitUnknown {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	note := figfile.For(t, *update)
	note.Line("`b-max-frontier`, tie clear: " + between(out, "against proposed, tie clear, universe reference: ", "\n"))
	for _, want := range []string{
		"amendment b-max-frontier (Actions (mark-unread))",
		"against proposed, tie clear, universe reference: 0 distinct rule inputs decided otherwise",
		"checked: 30 of 58 checks: 22 safety, 8 spec-text conformance",
		"not checked (28): explore:ceiling, explore:hierarchy, explore:long-id, explore:network, explore:network-whole, load:soundness",
		"safety: every check run holds (22: explore:reference, ",
		"spec-text conformance: differs from today's spec text: C6 action-conformance (clear)",
		"verdict: UNKNOWN: no safety finding on the 22 safety checks run, but 28 checks of the suite not run: explore:ceiling, ",
		"; spec-text difference: C6 action-conformance (clear)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// Only the checks run are claimed: without cubes, conformance is not
	// checked, not agreed with.
	code, out, _ = runCLI(t, "-rules", "refuse-unread-never-read", "-universe", "reference", "-directed=false", "-progress=0", "-witness", t.TempDir())
	for _, want := range []string{"checked: 1 of 58 checks: 1 safety, 0 spec-text conformance", "spec-text conformance: not checked in this run",
		"verdict: UNKNOWN: no safety finding on the 1 safety check run, but 57 checks of the suite not run"} {
		if code != exitUnknown || !strings.Contains(out, want) {
			t.Errorf("-directed=false: exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _ = runCLI(t, "-rules", "set-wins-everywhere", "-universe", "reference", "-progress=0", "-witness", t.TempDir())
	if code != exitUnknown || !strings.Contains(out, "tie set, universe reference: 3 distinct rule inputs decided otherwise") || strings.Contains(out, "clear-wins") {
		t.Errorf("set-wins-everywhere: exit %d:\n%s", code, out)
	}
	note.Line("`set-wins-everywhere`, tie set: " + between(out, "against proposed, tie set, universe reference: ", "\n"))
	if !strings.Contains(out, "register (S, C, B) = (1, 1, 10) at frontier 10: proposed says inactive, the amendment says active") {
		t.Errorf("set-wins-everywhere: the difference is not said in the spec's terms:\n%s", out)
	}
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

// The README's amendment path: an amendment run without -universe runs
// the whole suite, so a change that only the network universes can judge
// is reported unsafe, exit 1, with a witness of a handful of steps that
// replays; flags that bound one universe are refused.
func TestAmendmentWholeSuite(t *testing.T) {
	if shortrun.On(t, "the amendment judged in the hierarchy universe alone, not over the whole suite") {
		amendmentUnsafeInOneUniverse(t)
	} else {
		amendmentUnsafeOverTheSuite(t)
	}
	if code, _, errOut := runCLI(t, "-rules", "mark-read-own-counter", "-depth", "3"); code != exitUsage || !strings.Contains(errOut, "-depth bounds one universe") {
		t.Errorf("-depth without -universe: exit %d, %q", code, errOut)
	}
}

// amendmentUnsafeOverTheSuite is TestAmendmentWholeSuite's run of every
// check of the suite.
func amendmentUnsafeOverTheSuite(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	code, out, _ := runCLI(t, "-rules", "mark-read-own-counter", "-tie", "clear", "-progress=0", "-witness", dir)
	if code != exitViolation {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{
		"checked: 58 of 58 checks", "not checked: nothing",
		"safety: BROKEN: explore:hierarchy N3-intent-oracle (clear, 4 actions)",
		"explore:network N3-intent-oracle (clear, ",
		"explicit mark-read on register (S, C, B) = (1, 0, 0) (inactive after the frontier advance to 1): proposed makes (1, 2, 0), the amendment makes (1, 1, 0)",
		"verdict: UNSAFE: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	w := filepath.Join(dir, "amendment-mark-read-own-counter-explore-hierarchy-clear.json")
	if code, rep, errOut := runCLI(t, "-replay", w); code != exitViolation || !strings.Contains(rep, "reproduced: N3-intent-oracle fails again") {
		t.Errorf("replay of %s: exit %d\n%s%s", w, code, rep, errOut)
	}
}

// amendmentUnsafeInOneUniverse is the same amendment judged by the one
// universe that finds it unsafe: a safety finding there is a verdict
// (UNSAFE, exit 1) though most of the suite did not run, said in the
// spec's terms, and its witness replays.
func amendmentUnsafeInOneUniverse(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	code, out, _ := runCLI(t, "-rules", "mark-read-own-counter", "-tie", "clear", "-universe", "hierarchy", "-progress=0", "-witness", dir)
	if code != exitViolation {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{
		"amendment mark-read-own-counter (Actions (explicit mark-read))",
		"safety: BROKEN: N3 N3-intent-oracle (clear)",
		"explicit mark-read on register (S, C, B) = (1, 0, 0) (inactive after the frontier advance to 10): proposed makes (1, 2, 0), the amendment makes (1, 1, 0)",
		"verdict: UNSAFE: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	w := filepath.Join(dir, "explore-hierarchy-depth4-clear.json")
	if code, rep, errOut := runCLI(t, "-replay", w); code != exitViolation || !strings.Contains(rep, "reproduced: N3-intent-oracle fails again") {
		t.Errorf("replay of %s: exit %d\n%s%s", w, code, rep, errOut)
	}
}

// A reading of an ambiguous sentence runs the whole suite as an
// amendment does: its conformance check that decides the text's literal
// reading is a spec-text difference, its verdict rests on every check,
// and it exits by that verdict (0: safe with the difference), not by the
// conformance check's failure.
func TestReadingWholeSuite(t *testing.T) {
	dir := t.TempDir()
	if shortrun.On(t, "the reading over one universe, reference, not the whole suite") {
		// With most of the suite not run the verdict is unknown (exit 3):
		// still by the verdict, never by the conformance check's failure
		// (exit 1), and the difference is still a spec-text one.
		code, out, errOut := runCLI(t, "-rules", "distinct-key-limit", "-tie", "clear", "-universe", "reference", "-progress=0", "-witness", dir)
		for _, want := range []string{
			"reading distinct-key-limit (Content Validation",
			"safety: every check run holds",
			"spec-text conformance: differs from today's spec text: C1 codec-conformance (clear)",
			"verdict: UNKNOWN: ",
		} {
			if code != exitUnknown || !strings.Contains(out, want) {
				t.Errorf("exit %d, output lacks %q:\n%s%s", code, want, out, errOut)
			}
		}
		return
	}
	code, out, errOut := runCLI(t, "-rules", "distinct-key-limit", "-tie", "clear", "-progress=0", "-witness", dir)
	for _, want := range []string{
		"reading distinct-key-limit (Content Validation",
		"checked: 58 of 58 checks", "not checked: nothing",
		"verdict: safe, with a spec-text difference: directed:codec-conformance C1-codec-blob-outcome (clear, point)",
	} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, output lacks %q:\n%s%s", code, want, out, errOut)
		}
	}
}

// -diff finds the shortest history a user can tell two rule sets apart
// by, and says so in the spec's terms; where none exists within the
// bounds it says that, with the bounds.
func TestDiffRuleSets(t *testing.T) {
	dir := t.TempDir()
	replayCLI := runCLI
	runCLI := func(t *testing.T, args ...string) (int, string, string) {
		t.Helper()
		return runCLI(t, append(args, "-witness", dir)...)
	}
	code, out, errOut := runCLI(t, "-diff", "proposed,mark-read-own-counter")
	for _, want := range []string{"the shortest history that tells proposed and mark-read-own-counter apart (2 steps, universe reference",
		"step 1: mark_unread d0 c0", "step 2: mark_read d0 c0 10",
		`d0 publishes {"v":1,"client_id":"d0","contexts":{"c0":10,"ov_c:c0":2}} under proposed, {"v":1,"client_id":"d0","contexts":{"c0":10,"ov_c:c0":1}} under mark-read-own-counter`} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, output lacks %q:\n%s%s", code, want, out, errOut)
		}
	}
	// The difference is a witness file: its replay recomputes the
	// history under both rule sets and finds the recorded differences; a
	// file whose recorded difference was altered is not reproduced, and
	// one with a member Diff does not write is refused.
	w := filepath.Join(dir, "diff-proposed-mark-read-own-counter-reference-clear.json")
	if !strings.Contains(out, "witness written to "+w) {
		t.Errorf("no witness line for %s:\n%s", w, out)
	}
	if code, rep, errOut := replayCLI(t, "-replay", w); code != exitViolation || !strings.Contains(rep, "reproduced: the two rule sets differ again") {
		t.Errorf("replay: exit %d\n%s%s", code, rep, errOut)
	}
	data, err := os.ReadFile(w)
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		from, to string
		exit     int
	}{
		"altered difference": {`1}} under mark-read-own-counter"` + "\n  ]", `3}} under mark-read-own-counter"` + "\n  ]", exitOK},
		"unknown member":     {`"kind": "diff",`, `"kind": "diff", "extra": 1,`, exitUsage},
		"impossible step":    {`"value": 10`, `"value": 99`, exitUsage},
		"unknown rule set":   {`"other": "mark-read-own-counter"`, `"other": "nonesuch"`, exitUsage},
	} {
		bad := strings.Replace(string(data), tc.from, tc.to, 1)
		if bad == string(data) {
			t.Fatalf("%s: the edit did not apply", name)
		}
		p := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, rep, errOut := replayCLI(t, "-replay", p); code != tc.exit {
			t.Errorf("%s: exit %d, want %d\n%s%s", name, code, tc.exit, rep, errOut)
		}
	}
	code, out, _ = runCLI(t, "-diff", "proposed,refuse-unread-never-read")
	if code != exitOK || !strings.Contains(out, "mark_unread d0 c0 reports failure under proposed: false, under refuse-unread-never-read: true") {
		t.Errorf("refuse-unread-never-read: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "-diff", "proposed,b-max-frontier", "-depth", "3")
	if code != exitOK || !strings.Contains(out, "no difference within the bounds: universe reference, depth 3,") {
		t.Errorf("b-max-frontier: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"-diff", "proposed"}, {"-diff", "proposed,nonesuch"}, {"-diff", "spec,spec"}, {"-diff", "spec,proposed", "-universe", "network"}, {"-diff", "spec,proposed", "-all"}} {
		if code, _, errOut := runCLI(t, bad...); code != exitUsage || errOut == "" {
			t.Errorf("%q: exit %d, %q", bad, code, errOut)
		}
	}
}

// -diff over the full-state load's scenarios: the first seeded scenario
// after which a load ends otherwise under the two rule sets, shrunk and
// written as a load-diff witness that -replay recomputes under both; a
// pair that differs nowhere within the bounds says so with the bounds.
func TestDiffLoad(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-diff", "proposed,fence-lapse-fails", "-universe", "load", "-witness", dir)
	for _, want := range []string{"the first load scenario that tells proposed and fence-lapse-fails apart (scenario ",
		"relay profiles conformant, conformant-query-push, ", "1000 scenarios per profile, seed 20240601", "  step 1: start",
		"then the load runs to its verdict:\n  load 1: verdict cannot-prove-complete (fence-lapsed) under proposed, failed (relay-failure) under fence-lapse-fails"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, output lacks %q:\n%s%s", code, want, out, errOut)
		}
	}
	w := filepath.Join(dir, "diff-proposed-fence-lapse-fails-load.json")
	if code, rep, errOut := runCLI(t, "-replay", w); code != exitViolation || !strings.Contains(rep, "reproduced: the two rule sets differ again") {
		t.Errorf("replay: exit %d\n%s%s", code, rep, errOut)
	}
	data, err := os.ReadFile(w)
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		from, to string
		exit     int
	}{
		"altered difference": {`under fence-lapse-fails"` + "\n  ]", `under proposed"` + "\n  ]", exitOK},
		"unknown member":     {`"kind": "load-diff",`, `"kind": "load-diff", "extra": 1,`, exitUsage},
		"unknown operation":  {`"op": "start"`, `"op": "restart"`, exitUsage},
		"unknown rule set":   {`"other": "fence-lapse-fails"`, `"other": "nonesuch"`, exitUsage},
	} {
		bad := strings.Replace(string(data), tc.from, tc.to, 1)
		if bad == string(data) {
			t.Fatalf("%s: the edit did not apply", name)
		}
		p := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, rep, errOut := runCLI(t, "-replay", p); code != tc.exit {
			t.Errorf("%s: exit %d, want %d\n%s%s", name, code, tc.exit, rep, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "-replay", w, "-rules", "spec"); code != exitUsage || !strings.Contains(errOut, "replays under the two rule sets it names") {
		t.Errorf("replay -rules: exit %d, %q", code, errOut)
	}
	// The names model.Without gives resolve, and the clarification no
	// scenario reaches differs nowhere.
	code, out, _ = runCLI(t, "-diff", "proposed,proposed-without-unproven-relay-not-complete", "-universe", "load", "-cases", "20", "-seed", "3", "-witness", dir)
	if want := "no difference within the bounds: relay profiles conformant, "; code != exitOK || !strings.Contains(out, want) || !strings.Contains(out, "20 scenarios per profile, seed 3;") {
		t.Errorf("unproven: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"-diff", "spec,proposed", "-universe", "load", "-tie", "set"}, {"-diff", "spec,proposed", "-universe", "load", "-depth", "3"},
		{"-diff", "spec,proposed", "-universe", "load", "-cases", "0"}, {"-diff", "proposed,proposed-without-nonesuch", "-universe", "load"}, {"-diff", "spec,proposed", "-cases", "3"}} {
		if code, _, errOut := runCLI(t, append(bad, "-witness", dir)...); code != exitUsage || errOut == "" {
			t.Errorf("%q: exit %d, %q", bad, code, errOut)
		}
	}
}
