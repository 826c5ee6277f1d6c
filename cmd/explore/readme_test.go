package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeCommands are the README's `go run ./cmd/<name>` lines, comments
// removed, as argument lists.
func readmeCommands(t *testing.T, name string) [][]string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	prefix := "go run ./cmd/" + name
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, prefix+" ") && l != prefix {
			continue
		}
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		out = append(out, strings.Fields(strings.TrimPrefix(l, prefix)))
	}
	return out
}

var repoPath = regexp.MustCompile(`^(mutants|props|exhaustive|history)/`)

// Every explore command the README shows runs, and ends as a pass or a
// violation (never a usage error or an unknown result). The network
// universes run at depth 4 here; `make explore` runs them at the README's
// depth. The walk's own run (not a -diff) runs at depth 5: its whole
// depth-7 run is TestExploreWalk's through this command and history's
// TestSpecUniverse's, its state count pinned.
func TestReadmeExploreCommands(t *testing.T) {
	cmds := readmeCommands(t, "explore")
	if len(cmds) < 8 {
		t.Fatalf("only %d explore commands in README.md", len(cmds))
	}
	dir := t.TempDir()
	for _, args := range cmds {
		run := []string{"-witness", filepath.Join(dir, "w")}
		network, walk := false, false
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case repoPath.MatchString(a):
				a = "../../" + a
			case strings.HasSuffix(a, ".html"):
				a = filepath.Join(dir, a)
			case a == "-universe" && i+1 < len(args) && strings.HasPrefix(args[i+1], "network"):
				network = true
			case a == "-universe" && i+1 < len(args) && args[i+1] == "walk":
				walk = true
			}
			run = append(run, a)
		}
		line := strings.Join(args, " ")
		switch {
		case network:
			run = append(run, "-depth", "4")
		case walk && !strings.Contains(line, "-diff"):
			run = append(run, "-depth", "5")
		}
		switch {
		case strings.Contains(line, "-diff") || strings.Contains(line, "-observe"):
			// -diff and -observe write a witness and show no progress
		case !strings.Contains(line, "-replay"):
			run = append(run, "-progress=0")
		default:
			run = run[2:] // -witness means nothing to a replay
		}
		code, out, errOut := runCLI(t, run...)
		if code != exitOK && code != exitViolation {
			t.Errorf("README: go run ./cmd/explore %s: exit %d, stderr %q\n%s", strings.Join(args, " "), code, errOut, out)
		}
	}
}
