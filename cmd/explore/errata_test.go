package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// errataCommand is a replay command of ERRATA.md with the exit code it
// states: "`go run ./cmd/explore -replay FILE -rules R` (exit N)".
var errataCommand = regexp.MustCompile("`go run ./cmd/explore (-replay [^`]*)` \\(exit ([0-9])\\)")

// Every replay command of ERRATA.md exits as the errata says: its witness
// fails again under the text (1) and holds under the fix (0), through
// this command, as a spec author runs it.
func TestErrataReplayCommands(t *testing.T) {
	data, err := os.ReadFile("../../ERRATA.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..") // the errata's paths are from the repository root
	ms := errataCommand.FindAllStringSubmatch(string(data), -1)
	if len(ms) < 20 {
		t.Fatalf("only %d replay commands in ERRATA.md", len(ms))
	}
	for _, m := range ms {
		want, _ := strconv.Atoi(m[2])
		if code, out, errOut := runCLI(t, strings.Fields(m[1])...); code != want {
			t.Errorf("ERRATA.md: explore %s: exit %d, the errata says %d; stderr %q\n%s", m[1], code, want, errOut, out)
		}
	}
}
