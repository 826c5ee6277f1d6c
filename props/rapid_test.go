package props

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// rapidSource lets rapid drive the scenario generators: each choice is a
// rapid draw under its label, so rapid records, replays and shrinks it.
type rapidSource struct{ t *rapid.T }

func (r rapidSource) IntRange(lo, hi int, label string) int {
	return rapid.IntRange(lo, hi).Draw(r.t, label)
}

func (r rapidSource) Bool(label string) bool { return rapid.Bool().Draw(r.t, label) }

// checkProperty runs a generic check under rapid: a scenario exposing a
// violation fails, with the violation, the configuration and the log.
func checkProperty(t *testing.T, p Property) {
	t.Helper()
	rapid.Check(t, func(rt *rapid.T) {
		wit, log, err := p(rapidSource{rt})
		if err != nil {
			rt.Fatal(err)
		}
		if wit != nil {
			rt.Fatalf("%s\nscenario %s\n%s", wit.Violation, wit.Config, strings.Join(log, "\n"))
		}
	})
}
