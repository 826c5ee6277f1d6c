package mutants

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
)

// Every check of the suite has a line saying what it guards and covers,
// by its own kind (a liveness check is not described as a load search).
func TestCheckDoc(t *testing.T) {
	cat := exhaustive.NewCatalog()
	Register(cat)
	for _, c := range SuiteChecks(cat) {
		d := CheckDoc(cat, c)
		class, covers, ok := strings.Cut(d, ": ")
		if !ok || class != Class(c) || class == "" || covers == "" {
			t.Errorf("%s: %q", c.Name, d)
		}
		if strings.HasPrefix(covers, "unknown") || c.Kind != KindLoad && strings.Contains(covers, "load soundness") {
			t.Errorf("%s: covers %q", c.Name, covers)
		}
		if c.Kind == KindExplore {
			u, _ := cat.Universe(c.Universe)
			if covers != u.Doc {
				t.Errorf("%s: covers %q, the universe says %q", c.Name, covers, u.Doc)
			}
		}
	}
}

func TestParseOnly(t *testing.T) {
	if got, err := ParseOnly(""); got != nil || err != nil {
		t.Errorf("empty: %v %v", got, err)
	}
	if got, err := ParseOnly("M1,M6"); err != nil || len(got) != 2 || got[1] != "M6" {
		t.Errorf("M1,M6: %v %v", got, err)
	}
	for _, bad := range []string{"M1,", "nothing", "M1,,M6"} {
		if _, err := ParseOnly(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// A context ended before the start runs nothing; a run's own error is
// passed on.
func TestRunContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rep, err := RunContext(ctx, Options{}); rep != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("ended context: %v %v", rep, err)
	}
	if _, err := RunContext(context.Background(), Options{Only: []string{"nothing"}}); err == nil || errors.Is(err, context.Canceled) {
		t.Errorf("unknown mutant: %v", err)
	}
}
