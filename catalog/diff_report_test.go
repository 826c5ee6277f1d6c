package catalog

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/cli"
)

// A difference's pair must name two different rule sets; each universe
// takes its own bounding flags; the report is the JSON document alone,
// or the run line, the lines and the witness when one was written.
func TestDiffPairFlagsAndWrite(t *testing.T) {
	for s, ok := range map[string]bool{"spec,proposed": true, "spec": false, "spec,spec": false, ",proposed": false, "a,b,c": false, "spec,": false} {
		a, b, err := ParseDiffPair(s)
		if (err == nil) != ok || (ok && a+","+b != s) || (!ok && !strings.Contains(err.Error(), "want two different rule sets")) {
			t.Errorf("ParseDiffPair(%q) = %q, %q, %v", s, a, b, err)
		}
	}
	for _, c := range []struct {
		universe, with string
		takes          []string
	}{
		{"reference", "", []string{"universe", "depth", "tie"}},
		{LoadDiffUniverse, " -universe load", []string{"seed", "cases"}},
		{"walk", " -universe walk", []string{"variant", "depth"}},
	} {
		if takes, with := DiffFlags(c.universe); !slices.Equal(takes, c.takes) || with != c.with {
			t.Errorf("DiffFlags(%q) = %q, %q", c.universe, takes, with)
		}
	}
	o := &DiffOutcome{Bounds: "-universe=reference -depth=2", Lines: []string{"one", "two"}, Doc: map[string]int{"n": 1}, Witness: "w/d.json"}
	var text, doc strings.Builder
	o.Write(&text, "spec,proposed", false)
	if want := "explore -diff=spec,proposed -universe=reference -depth=2 (version " + cli.Version() + ")\none\ntwo\n" +
		"witness written to w/d.json (replay: explore -replay w/d.json)\n"; text.String() != want {
		t.Errorf("text\n%s\nwant\n%s", text.String(), want)
	}
	o.Write(&doc, "spec,proposed", true)
	var back map[string]int
	if err := json.Unmarshal([]byte(doc.String()), &back); err != nil || back["n"] != 1 {
		t.Errorf("json %q: %v", doc.String(), err)
	}
	o.Witness = ""
	text.Reset()
	o.Write(&text, "spec,proposed", false)
	if strings.Contains(text.String(), "witness") {
		t.Errorf("no witness, yet %q", text.String())
	}
}
