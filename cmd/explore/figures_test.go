package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// timing matches a quoted run time or memory figure: "~1 min", "about 30 s",
// "3.2 GB", "(6 s". Such figures depend on the machine and on what else
// runs; they are measured in NOTE.md ("Benchmarks", "Figures") and the
// README and Makefile point there instead of quoting them, so they cannot
// drift apart.
var timing = regexp.MustCompile(`~ ?\d|\babout \d+(\.\d+)? ?(ms|s|sec|seconds?|min|minutes?|h|hours?|MB|GB)\b|\b\d+(\.\d+)? ?(MB|GB)\b|\(\d+(\.\d+)? ?(s|min)\b`)

func TestReadmeAndMakefileQuoteNoTimings(t *testing.T) {
	for _, f := range []string{"../../README.md", "../../Makefile"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(data), "\n") {
			if m := timing.FindString(l); m != "" {
				t.Errorf("%s:%d quotes %q: point to NOTE.md's measured figures instead\n  %s", f, i+1, m, l)
			}
		}
	}
}

// The pattern catches the forms the figures took before.
func TestTimingPattern(t *testing.T) {
	for _, s := range []string{"(~1 min)", "about 30 s", "about 3 minutes", "3.2 GB", "(depth 7: ~6 s)", "(6 s per tie"} {
		if !timing.MatchString(s) {
			t.Errorf("%q not caught", s)
		}
	}
	for _, s := range []string{"depth 6", "14.7 million states", "within minutes", "FUZZTIME=30s each"} {
		if timing.MatchString(s) {
			t.Errorf("%q caught", s)
		}
	}
}

// make explore passes EXPLORE_FLAGS to every universe it runs (a deeper
// run deepens all of them), and make explore-deep too.
func TestMakeExploreFlagsReachEveryUniverse(t *testing.T) {
	data, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	target, n := "", 0
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasSuffix(l, ":") && !strings.HasPrefix(l, "\t"):
			target = strings.TrimSuffix(l, ":")
		case strings.HasPrefix(l, "\t") && (target == "explore" || target == "explore-deep") && strings.Contains(l, "./cmd/explore"):
			n++
			if !strings.Contains(l, "$(EXPLORE_FLAGS)") {
				t.Errorf("make %s runs a universe without $(EXPLORE_FLAGS):\n%s", target, l)
			}
		case !strings.HasPrefix(l, "\t"):
			target = ""
		}
	}
	if n != 6 {
		t.Errorf("%d explore lines in make explore and explore-deep, want 6", n)
	}
}
