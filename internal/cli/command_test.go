package cli

import (
	"bytes"
	"strings"
	"testing"
)

// Parse keeps the contract: -h/-help print the Doc on stdout (exit 0),
// -version prints the build (exit 0), a usage error is one message on
// stderr (exit 2), and a clean parse lets the command run.
func TestParse(t *testing.T) {
	doc := Doc{Name: "demo", About: "does a thing.", Examples: []string{"demo -n 3  # three times"},
		Exit: []Exit{{Code: ExitOK, Meaning: "done"}, {Code: ExitUsage, Meaning: "bad input:\nnothing ran"}}}
	for _, tc := range []struct {
		args         []string
		code         int
		done         bool
		stdout, errs string
	}{
		{[]string{"-h"}, ExitOK, true, "demo: does a thing.\n\nusage: demo [flags]\n\nexamples", ""},
		{[]string{"-help"}, ExitOK, true, "  2  bad input:\n     nothing ran\n", ""},
		{[]string{"-version"}, ExitOK, true, "demo ", ""},
		{[]string{"-n", "x"}, ExitUsage, true, "", `demo: invalid value "x" for flag -n`},
		{[]string{"-zz"}, ExitUsage, true, "", "demo: flag provided but not defined: -zz\n(demo -h prints the usage)\n"},
		{[]string{"stray"}, ExitUsage, true, "", "unexpected arguments: stray"},
		{[]string{"-n", "3"}, ExitOK, false, "", ""},
	} {
		c := New(doc)
		c.Flags.Int("n", 1, "how many times")
		var out, errOut bytes.Buffer
		code, done := c.Parse(tc.args, &out, &errOut)
		if code != tc.code || done != tc.done || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.errs) ||
			(tc.stdout == "" && out.Len() > 0) || (tc.errs == "" && errOut.Len() > 0) {
			t.Errorf("%v: exit %d done %t, stdout %q, stderr %q", tc.args, code, done, out.String(), errOut.String())
		}
	}
	// A command that names positional arguments takes them.
	withArgs := doc
	withArgs.Args = "URL"
	c := New(withArgs)
	var out, errOut bytes.Buffer
	if code, done := c.Parse([]string{"ws://x"}, &out, &errOut); code != ExitOK || done || c.Flags.Arg(0) != "ws://x" {
		t.Errorf("positional URL: exit %d done %t, stderr %q", code, done, errOut.String())
	}
	c.Usage(&out)
	if !strings.Contains(out.String(), "usage: demo [flags] URL") {
		t.Errorf("usage line lacks the arguments:\n%s", out.String())
	}
}

// A partial summary names the run, keeps the caller's lines in order and
// ends unknown, with the caller's words after it.
func TestWritePartial(t *testing.T) {
	var b bytes.Buffer
	WritePartial(&b, "mutate -tie=clear", []string{"  one", "  two"}, "; nothing else ran")
	want := "\ninterrupted: partial summary of mutate -tie=clear\n  one\n  two\nresult: unknown (interrupted); nothing else ran\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
