package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// The README's built-binary lines ("bin/explore ARGS; echo $?   # N: ...")
// exit with the code their comment states: the codes a script can branch
// on once it builds instead of using go run.
func TestReadmeBuiltBinaryExitCodes(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..") // the README's paths are from the repository root
	n := 0
	for _, l := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "bin/explore ")
		if !ok {
			continue
		}
		cmd, comment, ok := strings.Cut(rest, "#")
		cmd = strings.TrimSuffix(strings.TrimSpace(cmd), "; echo $?")
		want, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(comment, ":", 2)[0]))
		if !ok || err != nil {
			t.Fatalf("README line %q: want \"bin/explore ARGS; echo $?   # N: why\"", l)
		}
		n++
		if code, out, errOut := runCLI(t, strings.Fields(cmd)...); code != want {
			t.Errorf("README: bin/explore %s: exit %d, the README says %d; stderr %q\n%s", cmd, code, want, errOut, out)
		}
	}
	if n == 0 {
		t.Fatal("no bin/explore line in README.md")
	}
}
