package main

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/spec"
)

// update rewrites the golden figures under testdata/figures.
var update = flag.Bool("update", false, "rewrite the golden figures under testdata/figures")

const root = "../.."

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func specText(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, spec.DefaultPath))
	if err != nil {
		t.Fatalf("the spec text is needed: %v", err)
	}
	return data
}

// needSpec skips a test that runs the command on the spec text when the
// seeds are not beside this checkout (spec.TestRequirementsChecksResolve
// still resolves every row's checks there).
func needSpec(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(root, spec.DefaultPath)); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("the spec text is not beside this checkout: %v", err)
	}
}

// TestTraceSpecExits0: the table traces the spec; every status is printed
// with its count and the counts add up.
func TestTraceSpecExits0(t *testing.T) {
	needSpec(t)
	code, out, errOut := runCLI(t, "-root", root)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, st := range spec.Statuses {
		if !strings.Contains(out, st+" (") {
			t.Errorf("no block %q", st)
		}
	}
	if !strings.Contains(out, "every MUST sentence is listed") {
		t.Errorf("no verdict line:\n%s", out)
	}
}

// TestSummaryInReadmeAndNote: the README shows the -summary output of a
// run from the repository root, line for line, and its count lines are
// pinned in testdata/figures.
func TestSummaryInReadmeAndNote(t *testing.T) {
	needSpec(t)
	// The golden file is the package's; the command runs from the root.
	pinned, err := filepath.Abs(figfile.Path(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	code, out, errOut := runCLI(t, "-summary")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "$ go run ./cmd/trace -summary\n")
	if !ok {
		t.Fatal("README.md shows no run of go run ./cmd/trace -summary")
	}
	block, _, _ = strings.Cut(block, "```")
	if block != out {
		t.Errorf("README.md shows\n%s\nthe command prints\n%s", block, out)
	}
	var counts figfile.Figures
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, line := range lines[1 : len(lines)-1] { // the counts, without the header and verdict lines
		counts.Line(line)
	}
	figfile.Check(t, pinned, counts.Bytes(), *update)
}

// TestEditedSpecExits1: a spec whose MUST sentence was edited fails the
// trace, naming the requirement that lost its sentence.
func TestEditedSpecExits1(t *testing.T) {
	needSpec(t)
	const old = "Clients MUST NOT strip more than one esc: prefix per receive."
	text := specText(t)
	if !bytes.Contains(text, []byte(old)) {
		t.Fatal("the spec no longer holds the sentence this test edits")
	}
	edited := bytes.Replace(text, []byte(old), []byte("Clients MUST NOT strip any esc: prefix on receive."), 1)
	path := filepath.Join(t.TempDir(), "NIP-RS.md")
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	reqs, err := spec.Requirements()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(reqs, func(r spec.Requirement) bool { return r.Fingerprint == spec.Fingerprint(old) })
	if i < 0 {
		t.Fatal("no requirement for the sentence")
	}
	code, out, _ := runCLI(t, "-root", root, "-spec", path, "-summary")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"2 problems:", reqs[i].ID + " stale", "unlisted: ", "MUST NOT strip any esc: prefix", "stale rows of that section: " + reqs[i].ID} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestUsageErrorsExit2: unknown flags, arguments, an unreadable spec and
// a root without the repository are usage or input errors.
func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"-nope"},
		{"-root", root, "extra"},
		{"-root", root, "-spec", filepath.Join(t.TempDir(), "missing.md")},
		{"-root", t.TempDir(), "-spec", filepath.Join(root, spec.DefaultPath)},
	} {
		if code, _, errOut := runCLI(t, args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestLinksNoTestMachinery: the command does not link testing or rapid.
func TestLinksNoTestMachinery(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH, so the command's dependencies cannot be listed")
	}
	cmd := exec.Command(gotool, "list", "-deps", "./cmd/trace")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/nip-rs/harness/spec") {
		t.Fatalf("go list -deps lacks the spec package:\n%s", out)
	}
	for _, bad := range []string{"testing", "pgregory.net/rapid"} {
		if slices.Contains(deps, bad) {
			t.Errorf("cmd/trace links %s", bad)
		}
	}
}

// TestFreshCloneTracesTheChecks: in a checkout with nothing beside it (a
// fresh clone, here this repository reached through a link in an empty
// directory) the default spec path is absent. The table is still traced
// against the repository's checks, the missing text is named with the
// flag that supplies it, and the verdict is unknown (exit 3), not a pass;
// a root that is not the repository stays a usage error.
func TestFreshCloneTracesTheChecks(t *testing.T) {
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "harness")
	if err := os.Symlink(abs, clone); err != nil {
		t.Skipf("no symlink here: %v", err)
	}
	for _, args := range [][]string{{"-root", clone}, {"-root", clone, "-summary"}} {
		code, out, errOut := runCLI(t, args...)
		if code != 3 || !strings.Contains(errOut, "-spec FILE") || !strings.Contains(errOut, spec.DefaultPath) {
			t.Errorf("%v: exit %d, stderr %q: want 3 and the flag named", args, code, errOut)
		}
		for _, want := range []string{"the spec text was not read", spec.StatusCaught, "unknown whether every MUST sentence is listed"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out)
			}
		}
		if strings.Contains(out, "every MUST sentence is listed;") {
			t.Errorf("%v: claims the text was traced:\n%s", args, out)
		}
	}
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "-root", empty); code != 2 {
		t.Errorf("a root without the repository: exit %d, stderr %q, want 2", code, errOut)
	}
}
