package main

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// untimedOutput is a run's output with its time column masked: the only
// thing a resumed run may print differently.
func untimedOutput(s string) string {
	return regexp.MustCompile(`\b\d+ms\b`).ReplaceAllString(s, "Tms")
}

// files is every file under dir with its content, by path below dir.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

// stopAt makes the next runs stop right after the checkpoint of depth k of
// the run under tie (nil: never).
func stopAt(t *testing.T, tie model.TiePolicy, k int) {
	t.Helper()
	stopAfter = func(tt model.TiePolicy, d int) bool { return tt == tie && d == k }
	t.Cleanup(func() { stopAfter = nil })
}

// A run killed right after the checkpoint of depth k and resumed prints
// byte for byte what an uninterrupted run prints (its time column aside)
// and writes the same witness files: the reference and network universes,
// with and without -por, at 1 and 2 workers, under rule sets that violate
// (the best hit and every invariant's smallest hit are carried across) and
// with both tie policies (the stop falls in the second tie's run).
func TestCheckpointResumeIsExact(t *testing.T) {
	cases := []struct {
		args []string
		tie  model.TiePolicy
		k    int
	}{
		{[]string{"-universe", "reference", "-rules", "M6", "-tie", "both", "-workers", "1"}, model.SetWins, 2},
		{[]string{"-universe", "network-whole", "-depth", "4", "-rules", "M1", "-tie", "clear", "-por", "-all", "-workers", "2"}, model.ClearWins, 2},
		{[]string{"-universe", "network", "-depth", "4", "-rules", "M6", "-tie", "clear", "-workers", "1"}, model.ClearWins, 3},
		{[]string{"-universe", "network", "-depth", "3", "-tie", "set", "-por", "-workers", "2"}, model.SetWins, 1},
	}
	witnesses := 0
	for _, c := range cases {
		dir := t.TempDir()
		common := append([]string{"-directed=false", "-progress=0"}, c.args...)
		wantCode, want, _ := runCLI(t, append(common, "-witness", filepath.Join(dir, "w0"))...)
		wantFiles := files(t, filepath.Join(dir, "w0"))

		stopAt(t, c.tie, c.k)
		cp := filepath.Join(dir, "cp")
		if code, _, errOut := runCLI(t, append(common, "-witness", filepath.Join(dir, "w1"), "-checkpoint", cp)...); code != exitUnknown {
			t.Fatalf("%v: the stopped run exits %d: %s", c.args, code, errOut)
		}
		stopAfter = nil
		code, got, errOut := runCLI(t, append(common, "-witness", filepath.Join(dir, "w0"), "-resume", cp)...)
		if code != wantCode || untimedOutput(got) != untimedOutput(want) {
			t.Fatalf("%v: resumed at %d: exit %d (want %d) %s\n%s\nuninterrupted:\n%s", c.args, c.k, code, wantCode, errOut, got, want)
		}
		if gotFiles := files(t, filepath.Join(dir, "w0")); !maps.Equal(gotFiles, wantFiles) {
			t.Fatalf("%v: the witness files differ", c.args)
		}
		witnesses += len(wantFiles)
	}
	if witnesses < 3 {
		t.Fatalf("%d witness files compared", witnesses)
	}
}

// A finished run's checkpoint resumes to a larger -depth with the output of
// a run to that depth; a smaller -depth is refused.
func TestCheckpointResumeDeeper(t *testing.T) {
	dir := t.TempDir()
	common := []string{"-universe", "network-whole", "-tie", "clear", "-directed=false", "-progress=0", "-witness", filepath.Join(dir, "w")}
	wantCode, want, _ := runCLI(t, append(common, "-depth", "4")...)
	cp := filepath.Join(dir, "cp")
	if code, _, errOut := runCLI(t, append(common, "-depth", "3", "-checkpoint", cp)...); code != exitOK && code != exitViolation {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, got, errOut := runCLI(t, append(common, "-depth", "4", "-resume", cp)...)
	if code != wantCode || untimedOutput(got) != untimedOutput(want) {
		t.Fatalf("resumed deeper: exit %d %s\n%s\nwant:\n%s", code, errOut, got, want)
	}
	before := files(t, cp)
	if code, _, errOut := runCLI(t, append(common, "-depth", "2", "-resume", cp)...); code != exitUsage || !strings.Contains(errOut, "beyond the depth bound 2") {
		t.Fatalf("a smaller depth: exit %d, %q", code, errOut)
	}
	if !maps.Equal(before, files(t, cp)) {
		t.Fatal("a refused resume changed the checkpoint")
	}
}

// A damaged, foreign or missing checkpoint, or one of another run, is
// refused with exit 2 and a message that says what is wrong, and nothing
// in the directory changes; so is a checkpoint flag on a mode that does
// not checkpoint, and -checkpoint over an existing checkpoint.
func TestCheckpointRefusals(t *testing.T) {
	dir := t.TempDir()
	common := []string{"-universe", "network-whole", "-depth", "3", "-tie", "clear", "-directed=false", "-progress=0", "-witness", filepath.Join(dir, "w")}
	good := filepath.Join(dir, "good")
	wantCode, want, _ := runCLI(t, append(common, "-checkpoint", good)...)
	if wantCode != exitOK && wantCode != exitViolation {
		t.Fatalf("exit %d: %s", wantCode, want)
	}
	clone := func(name string, spoil func(tieDir string)) string {
		d := filepath.Join(dir, name)
		for rel, b := range files(t, good) {
			p := filepath.Join(d, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		spoil(filepath.Join(d, "clear"))
		return d
	}
	rewrite := func(name string, f func([]byte) []byte) func(string) {
		return func(tieDir string) {
			p := filepath.Join(tieDir, name)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		name  string
		dir   string
		extra []string
		want  string
	}{
		{"truncated", clone("truncated", rewrite("level-002.states", func(b []byte) []byte { return b[:len(b)/2] })), nil, "truncated or changed"},
		{"flipped byte", clone("flipped", rewrite("level-003.tables", func(b []byte) []byte { b[len(b)/2] ^= 1; return b })), nil, "checksum mismatch"},
		{"not a manifest", clone("foreign", rewrite("manifest.json", func([]byte) []byte { return []byte("PK\x03\x04 an archive") })), nil, "not a checkpoint manifest"},
		{"another rule set", good, []string{"-rules", "M6"}, `rules "proposed" there, "M6" here`},
		{"another universe", good, []string{"-universe", "network"}, `universe "network-whole" there, "network" here`},
		{"another reduction", good, []string{"-por"}, "search.por"},
		{"missing directory", filepath.Join(dir, "nowhere"), nil, "no such directory"},
		{"no checkpoint of the tie", good, []string{"-tie", "set"}, "no checkpoint of this run"},
	}
	for _, c := range cases {
		before := files(t, c.dir)
		code, _, errOut := runCLI(t, append(append(append([]string{}, common...), c.extra...), "-resume", c.dir)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", c.name, code, errOut, c.want)
		}
		if !maps.Equal(before, files(t, c.dir)) {
			t.Errorf("%s: the directory changed", c.name)
		}
	}
	before := files(t, good)
	for _, extra := range [][]string{
		{"-checkpoint", good},
		{"-checkpoint", filepath.Join(dir, "x"), "-resume", good},
		{"-resume", good, "-simulate", "10"},
		{"-resume", good, "-replay", "../../mutants/testdata/M3.clear.json"},
		{"-checkpoint", good, "-compare", "spec,M6"},
		{"-checkpoint", good, "-universe", "walk"},
		{"-checkpoint", good, "-rules", "b-max-frontier"},
		{"-checkpoint", good, "-store", "runs", "-store-dir", dir},
	} {
		code, _, errOut := runCLI(t, append(append([]string{}, common...), extra...)...)
		if code != exitUsage || !strings.Contains(errOut, "-checkpoint") && !strings.Contains(errOut, "-resume") {
			t.Errorf("%v: exit %d, %q", extra, code, errOut)
		}
	}
	if !maps.Equal(before, files(t, good)) {
		t.Error("a refused run changed the checkpoint")
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("a refused run made a directory")
	}
	// The undamaged checkpoint resumes to its own depth: the finished
	// run's figures, printed again.
	if code, out, errOut := runCLI(t, append(common, "-resume", good)...); code != wantCode || untimedOutput(out) != untimedOutput(want) {
		t.Fatalf("exit %d %s\n%s\nwant:\n%s", code, errOut, out, want)
	}
}
