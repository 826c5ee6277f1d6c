package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The command-line contract every command keeps (internal/cli): -h and
// -help print a description, examples and the exit codes on stdout and exit
// 0; -version and -list exit 0; a usage or input error is a message on
// stderr and exit 2 before anything runs, with nothing on stdout.
func TestCommandLineContract(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		{[]string{"-h"}, exitOK, []string{"mutate: the mutant gate", "examples (a built binary", "-control b-max-frontier", "exit codes:", "  3  interrupted"}, ""},
		{[]string{"-help"}, exitOK, []string{"flags:", "  -golden string"}, ""},
		{[]string{"-version"}, exitOK, []string{"mutate "}, ""},
		{[]string{"-list"}, exitOK, []string{"mutants:", "amendments (-control NAME):", "readings of the text (-control NAME):", "  distinct-key-limit", "checks:"}, ""},
		{[]string{"-nonesuch"}, exitUsage, nil, "flag provided but not defined: -nonesuch"},
		{[]string{"-workers", "many"}, exitUsage, nil, `invalid value "many" for flag -workers`},
		{[]string{"-control", "nonesuch"}, exitUsage, nil, "unknown rule set"},
		{[]string{"-golden", "/nonexistent", "-only", "M1"}, exitUsage, nil, "-golden /nonexistent: stat /nonexistent: no such file or directory (-update writes a new directory)"},
		{[]string{"-golden", notDir, "-only", "M1"}, exitUsage, nil, "not a directory"},
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

// An interrupt (the run's context ending, as SIGINT ends it) prints the
// partial summary and exits 3; a context ended before the start runs no
// check and writes no golden file.
func TestInterruptExits3WithThePartialSummary(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	code := runContext(ctx, []string{"-only", "M1", "-tie", "clear", "-golden", dir, "-update"}, &out, &errOut)
	if code != exitUnknown {
		t.Errorf("exit %d, want %d; stderr %q", code, exitUnknown, errOut.String())
	}
	for _, want := range []string{"interrupted: partial summary of mutate -tie=clear", "no check had finished", "result: unknown (interrupted)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%d golden files written by an interrupted run", len(files))
	}
}

// -control runs the mutants against an amendment: the witnesses are not
// compared with the spec's golden files, and the control is named.
func TestControlAmendment(t *testing.T) {
	code, out, errOut := runCLI(t, "-control", "b-max-frontier", "-only", "M1", "-tie", "clear", "-progress=false")
	if code != exitOK {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"-control=b-max-frontier", "control: amendment b-max-frontier", "witnesses: not compared", "M1  clear  baseline dominance"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// -control runs the mutants against a reading of the text, named as one.
func TestControlReading(t *testing.T) {
	code, out, errOut := runCLI(t, "-control", "utf8-discards-event", "-only", "M1", "-tie", "clear", "-progress=false")
	if code != exitOK {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"-control=utf8-discards-event", "control: reading utf8-discards-event", "witnesses: not compared", "M1  clear  baseline dominance"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// -html writes the first witnesses of the run as one page.
func TestHTMLPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.html")
	dir := copyGolden(t, "M13")
	if code, out, errOut := runCLI(t, "-only", "M13", "-tie", "clear", "-golden", dir, "-html", path, "-progress=false"); code != exitOK {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `M13 (tie clear`) || !strings.Contains(string(page), `"invariant":`) {
		t.Errorf("page lacks M13's witness")
	}
}
