package mutants

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// The suite line counts the universes explored and the work; a lazy run
// says how many of the whole suite's checks it reached. The table has a
// row per result: the catching check, or the status of one that was not
// caught, with dashes for what it has not.
func TestSuiteLineAndTable(t *testing.T) {
	cat := exhaustive.NewCatalog()
	Register(cat)
	suite := SuiteChecks(cat)
	rep := &Report{Suite: suite[:3], Options: Options{Catalog: cat}}
	explore := 0
	for _, c := range rep.Suite {
		if c.Kind == KindExplore {
			explore++
		}
	}
	if l := rep.SuiteLine(); !strings.HasPrefix(l, "suite: 3 checks (") || !strings.Contains(l, " states over "+strconv.Itoa(explore)+" universes, ") {
		t.Errorf("suite line %q (%d universes)", l, explore)
	}
	rep.Lazy = true
	if l := rep.SuiteLine(); !strings.HasPrefix(l, "suite: the 3 cheapest of ") || !strings.Contains(l, " of "+strconv.Itoa(len(suite))+" checks") {
		t.Errorf("lazy suite line %q", l)
	}
	m6, _ := Lookup("M6")
	m1, _ := Lookup("M1")
	rep.Results = []*Result{
		{Mutant: m6, Tie: model.ClearWins, Status: StatusCaught, Ran: 2, First: &Finding{Check: "explore:reference", Invariant: "I2-convergence", Depth: 4, Work: 12345}},
		{Mutant: m1, Tie: model.SetWins, Status: StatusSurvived, Ran: 7},
	}
	var b bytes.Buffer
	rep.WriteTable(&b, []time.Duration{1500 * time.Microsecond})
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "id  ") {
		t.Fatalf("table:\n%s", b.String())
	}
	tail := func(l string, n int) string { f := strings.Fields(l); return strings.Join(f[len(f)-n:], " ") }
	if f := strings.Fields(lines[1]); f[0] != "M6" || f[1] != "clear" || tail(lines[1], 7) != "explore:reference I2-convergence 4 actions 12,345 2 2ms" {
		t.Errorf("caught row %q", lines[1])
	}
	if f := strings.Fields(lines[2]); f[0] != "M1" || f[1] != "set" || tail(lines[2], 6) != StatusSurvived+" — — — 7 0ms" {
		t.Errorf("survived row %q (no time given: 0ms)", lines[2])
	}
}
