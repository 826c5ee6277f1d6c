package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHelpAndVersion(t *testing.T) {
	code, _, errOut := runCLI(t, "-h")
	if code != exitUsage || !strings.Contains(errOut, "exit codes:") || !strings.Contains(errOut, "-control b-max-frontier") {
		t.Errorf("-h: exit %d:\n%s", code, errOut)
	}
	if code, out, _ := runCLI(t, "-version"); code != exitOK || !strings.HasPrefix(out, "mutate ") {
		t.Errorf("-version: exit %d, %q", code, out)
	}
	if code, _, errOut := runCLI(t, "-control", "nonesuch"); code != exitUsage || !strings.Contains(errOut, "unknown amendment") {
		t.Errorf("-control nonesuch: exit %d, %q", code, errOut)
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
