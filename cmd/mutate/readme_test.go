package main

import (
	"os"
	"strings"
	"testing"
)

// Every mutate command the README shows runs and passes.
func TestReadmeMutateCommands(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		rest, ok := strings.CutPrefix(l, "go run ./cmd/mutate ")
		if !ok {
			continue
		}
		if i := strings.Index(rest, " #"); i >= 0 {
			rest = rest[:i]
		}
		n++
		args := append(strings.Fields(rest), "-progress=false")
		if code, out, errOut := runCLI(t, args...); code != exitOK {
			t.Errorf("README: go run ./cmd/mutate %s: exit %d, stderr %q\n%s", rest, code, errOut, out)
		}
	}
	if n == 0 {
		t.Fatal("no mutate command in README.md")
	}
}
