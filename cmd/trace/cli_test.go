package main

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/cli"
)

// The command-line contract every command keeps (internal/cli): -h and
// -help print a description, examples and the exit codes on stdout and exit
// 0; -version and -list exit 0; a usage or input error is a message on
// stderr and exit 2, with nothing on stdout. A file that is not a spec (not
// text, or without a normative sentence) is an input error, not a table of
// stale rows.
func TestCommandLineContract(t *testing.T) {
	dir := t.TempDir()
	random := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2)) // fixed: the same bytes every run
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	randomFile := write("random.bin", random)
	plain := write("plain.md", []byte("# A heading\n\nA paragraph that asks nothing of anyone.\n"))
	for _, tc := range []struct {
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		{[]string{"-h"}, 0, []string{"trace: the traceability table", "examples (a built binary", "exit codes:", "  1  the table does not trace the spec"}, ""},
		{[]string{"-help"}, 0, []string{"flags:", "  -summary"}, ""},
		{[]string{"-version"}, 0, []string{"trace "}, ""},
		{[]string{"-list"}, 0, []string{"R001 "}, ""},
		{[]string{"-nonesuch"}, 2, nil, "flag provided but not defined: -nonesuch"},
		{[]string{"-summary=maybe"}, 2, nil, "invalid boolean value"},
		{[]string{"-root", root, "-spec", randomFile}, 2, nil, "not UTF-8 text, so not a spec"},
		{[]string{"-root", root, "-spec", plain}, 2, nil, "no normative sentence"},
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
			if tc.code == 2 && (out != "" || !strings.Contains(errOut, tc.stderr)) {
				t.Errorf("stdout %q, stderr %q: want nothing on stdout and %q on stderr", out, errOut, tc.stderr)
			}
		})
	}
}

// An interrupt (the run's context ending, as SIGINT ends it) prints what
// was read and exits 3 with no verdict.
func TestInterruptExits3(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spec.md")
	if err := os.WriteFile(path, []byte("# Spec\n\nA client MUST publish canonical state.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut bytes.Buffer
	code := runContext(ctx, []string{"-root", "../..", "-spec", path, "-summary"}, &out, &errOut)
	if code != cli.ExitUnknown || !strings.Contains(out.String(), "interrupted: read ") || !strings.Contains(out.String(), "no verdict") ||
		strings.Contains(out.String(), "every MUST sentence") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
