package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/witnessfile"
)

// A witness file the harness could not have written is refused before
// anything runs: exit 2, the field named on stderr, nothing on stdout (no
// verdict, no echo of the file's text). Each file in testdata/hostile once
// panicked, ran for minutes, or replayed as a false counterexample.
func TestReplayRefusesHostileWitnesses(t *testing.T) {
	for _, tc := range []struct {
		file, rules, field string
	}{
		{"network-129-mark-unread.json", "", "depth 129: want 0..64"},
		{"network-129-actions-depth-4.json", "", "actions: 129 steps, more than the depth bound 4"},
		{"explore-depth-minus3.json", "", "depth -3"},
		{"explore-depth-1e9.json", "", "depth 1000000000"},
		{"explore-depth-maxint64.json", "", "depth 9223372036854775807"},
		{"history-depth-minus3.json", "", "depth -3"},
		{"history-depth-1e9.json", "", "depth 1000000000"},
		{"history-depth-maxint64.json", "", "depth 9223372036854775807"},
		{"history-overlap.json", "", "point overlap 9223372036854775807: want 0..60000"},
		{"history-page.json", "", "point page 1099511627776: want 1..50"},
		{"history-max-t.json", "", "point max-t 1000000000: want 2..21"},
		{"history-catch-up-pages.json", "", "point catch-up-pages -1"},
		{"load-cap-0.json", "spec", "config.cap 0: want 2..5"},
		{"load-cap-1.json", "spec", "config.cap 1: want 2..5"},
		{"load-cap-minus2.json", "spec", "config.cap -2: want 2..5"},
		{"load-foreign-1000000.json", "", "steps[0]: foreign count 1000000: want 1..5"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			args := []string{"-replay", filepath.Join("testdata/hostile", tc.file)}
			if tc.rules != "" {
				args = append(args, "-rules", tc.rules)
			}
			code, out, errOut := runCLI(t, args...)
			if code != exitUsage || out != "" || !strings.Contains(errOut, tc.field) {
				t.Errorf("exit %d (want %d), stdout %q, stderr %q (want it to name %q)", code, exitUsage, out, errOut, tc.field)
			}
		})
	}
}

// A network trace within the depth bound runs: 64 mark-unreads of one
// device on one context are as many intent events as a causal past records.
func TestReplayAtTheDepthBound(t *testing.T) {
	code, out, errOut := runCLI(t, "-replay", "testdata/hostile/network-64-mark-unread.json", "-rules", "spec")
	if code != exitOK || !strings.Contains(out, "step 64: mark_unread d0 c0") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errOut, out)
	}
}

// An oversized file is refused after reading no more than the bound, and a
// stored text longer than a check writes is refused, not echoed.
func TestReplayRefusesOversizedFiles(t *testing.T) {
	dir := t.TempDir()
	m3, err := os.ReadFile("../../mutants/testdata/M3.clear.json")
	if err != nil {
		t.Fatal(err)
	}
	huge := bytes.Replace(m3, []byte(`"detail": "`), []byte(`"detail": "`+strings.Repeat("x", witnessfile.MaxFileBytes)), 1)
	longDetail := bytes.Replace(m3, []byte(`"detail": "`), []byte(`"detail": "`+strings.Repeat("y", witnessfile.MaxDetailBytes)), 1)
	longName := bytes.Replace(m3, []byte(`"rules": "proposed"`), []byte(`"rules": "`+strings.Repeat("z", witnessfile.MaxNameBytes+1)+`"`), 1)
	for _, tc := range []struct {
		name  string
		data  []byte
		field string
	}{
		{"huge.json", huge, "more than the 1048576 a witness can take"},
		{"detail.json", longDetail, "more than the 16384 a witness field can hold"},
		{"name.json", longName, "rules: 257 bytes"},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "-replay", p)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.field) || len(errOut) > 1000 {
			t.Errorf("%s: exit %d, stdout %d bytes, stderr %.300q (want it to name %q)", tc.name, code, len(out), errOut, tc.field)
		}
	}
}

// What a witness file holds is printed escaped, as relay text is (issue
// 34 row 6): a stored detail with an OSC title and a clear-screen
// sequence is shown under "stored:" with each control byte as \x..,
// and nothing the replay prints holds a control byte.
func TestReplayEscapesTheStoredDetail(t *testing.T) {
	code, out, errOut := runCLI(t, "-replay", "testdata/hostile/explore-detail-escapes.json")
	if code != exitViolation || !strings.Contains(out, `stored: \x1b]0;owned\x07\x1b[2Jforged detail`) {
		t.Fatalf("exit %d, stderr %q:\n%s", code, errOut, out)
	}
	for i, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f {
			t.Fatalf("control byte %#x at %d of the output", r, i)
		}
	}
}

// A history witness with a tie (the walk decides none) or a member the
// format does not have is a file the harness did not write (issue 34 row
// 7, item 2): exit 2 naming the field, its text quoted, nothing printed.
func TestReplayRefusesHistoryTieAndUnknownMembers(t *testing.T) {
	for file, field := range map[string]string{
		"history-tie-string.json":     `tie "\x1b[2Jset": a history witness has none`,
		"history-unknown-member.json": `unknown field "extra"`,
	} {
		code, out, errOut := runCLI(t, "-replay", filepath.Join("testdata/hostile", file))
		if code != exitUsage || out != "" || !strings.Contains(errOut, field) || strings.ContainsRune(errOut, 0x1b) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 naming %q", file, code, out, errOut, field)
		}
	}
}
