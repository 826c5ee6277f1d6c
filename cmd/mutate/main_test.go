package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"-nope"},
		{"-only", "M99"},
		{"-tie", "sometimes"},
		{"-workers", "0"},
		{"-load-cases", "0"},
		{"-seed", "0"},
		{"-seed", "x"},
		{"-seed", "-1"},
		{"extra"},
	} {
		if code, _, errOut := runCLI(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

func TestList(t *testing.T) {
	code, out, _ := runCLI(t, "-list")
	for _, want := range []string{"M1 ", "M3 ", "[one device]", "M27", "[equivalent under clear-wins]", "L8", "explore:reference", "explore:network", "directed:codec-conformance", "load:soundness"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, lacks %q:\n%s", code, want, out)
		}
	}
}

// copyGolden copies the golden witnesses of the named mutants to a
// temporary directory.
func copyGolden(t *testing.T, ids ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, id := range ids {
		files, _ := filepath.Glob(filepath.Join("..", "..", "mutants", "testdata", id+".*"))
		if len(files) == 0 {
			t.Fatalf("no golden witness for %s", id)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// A witness that differs from its golden file fails the run; -update
// rewrites it, after which the run passes.
func TestChangedWitnessExits1(t *testing.T) {
	dir := copyGolden(t, "M13")
	path := filepath.Join(dir, "M13.clear.txt")
	if err := os.WriteFile(path, []byte("tampered\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "-only", "M13", "-tie", "clear", "-golden", dir)
	if code != exitFailed || !strings.Contains(out, "witness changed: M13.clear.txt") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if !strings.HasPrefix(out, `mutate -tie=clear -only="M13"`) || !strings.Contains(out, "M13  clear") {
		t.Errorf("table:\n%s", out)
	}
	if code, out, _ = runCLI(t, "-only", "M13", "-tie", "clear", "-golden", dir, "-update"); code != exitOK {
		t.Fatalf("-update: exit %d:\n%s", code, out)
	}
	got, _ := os.ReadFile(path)
	want, _ := os.ReadFile(filepath.Join("..", "..", "mutants", "testdata", "M13.clear.txt"))
	if !bytes.Equal(got, want) {
		t.Errorf("-update wrote %q", got)
	}
}

// TestBinariesLinkNoTestMachinery: neither command links the testing
// package or rapid (which imports it); the load searches run on the props
// package's own seeded generator.
func TestBinariesLinkNoTestMachinery(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH, so the commands' dependencies cannot be listed")
	}
	cmd := exec.Command(gotool, "list", "-deps", "./cmd/mutate", "./cmd/explore")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/nip-rs/harness/props") || !slices.Contains(deps, "github.com/nip-rs/harness/exhaustive") {
		t.Fatalf("go list -deps lacks the harness packages the commands use:\n%s", out)
	}
	for _, bad := range []string{"testing", "pgregory.net/rapid"} {
		if slices.Contains(deps, bad) {
			t.Errorf("cmd/mutate or cmd/explore links %s", bad)
		}
	}
}
