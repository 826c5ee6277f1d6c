package exhaustive

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// What a lockstep search says: its bounds when the two sets agree, else
// the history step by step and what differs after it; the JSON document
// carries the same, with empty lists (never null) for no difference.
func TestDiffLinesAndDocument(t *testing.T) {
	same, err := Diff(Reference(), model.Proposed(), model.Proposed(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if l := same.Lines(); len(l) != 1 || !strings.HasPrefix(l[0], "no difference within the bounds: universe reference, depth 2, ") {
		t.Errorf("no difference: %q", l)
	}
	b, _ := json.Marshal(same.Document())
	if s := string(b); !strings.HasSuffix(s, `"actions":[],"differences":[]}`) {
		t.Errorf("no difference: %s", s)
	}
	res, err := Diff(Reference(), model.Proposed(), model.Proposed().WithTie(model.SetWins), 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Differences == nil {
		t.Fatal("clear-wins and set-wins: no difference in the reference universe")
	}
	l := res.Lines()
	if len(l) != 2+len(res.Actions)+len(res.Differences) || l[1] != "  step 1: "+res.Actions[0].String() || l[1+len(res.Actions)] != "then:" {
		t.Errorf("lines %q", l)
	}
	want := "1 step,"
	if len(res.Actions) != 1 {
		want = " steps,"
	}
	if !strings.Contains(l[0], want) {
		t.Errorf("head %q: %d actions", l[0], len(res.Actions))
	}
	d := res.Document()
	if len(d.Actions) != len(res.Actions) || d.Differences[0] != res.Differences[0] || d.Universe != "reference" {
		t.Errorf("document %+v", d)
	}
}

// A difference search names a rule set of the catalogue, or the
// production rules without one proposal; an unknown proposal is named
// with the known ones.
func TestCatalogRuleSet(t *testing.T) {
	c := NewCatalog()
	if r, err := c.RuleSet("spec"); err != nil || r.Name != "spec" {
		t.Errorf("spec: %v %v", r, err)
	}
	p := model.Proposals()[0].Name
	if r, err := c.RuleSet(model.ProposedName + "-without-" + p); err != nil || r.Name != model.ProposedName+"-without-"+p {
		t.Errorf("without %s: %v", p, err)
	}
	if _, err := c.RuleSet(model.ProposedName + "-without-nothing"); err == nil || !strings.Contains(err.Error(), "(known: "+p) {
		t.Errorf("unknown proposal: %v", err)
	}
	if _, err := c.RuleSet("nothing"); err == nil {
		t.Error("an unknown name resolved")
	}
}
