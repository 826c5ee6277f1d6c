package props_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// What a load difference search says: the bounds when the sets agree, and
// the scenario, its steps and the differences when they do not; the JSON
// document carries the same (null case and config for none).
func TestDiffLinesAndDocument(t *testing.T) {
	same := diffSearch(t, model.Proposed(), model.Proposed(), 2)
	if l := same.Lines(); len(l) != 1 || !strings.HasPrefix(l[0], "no difference within the bounds: relay profiles ") ||
		!strings.Contains(l[0], ", 2 scenarios per profile, seed ") {
		t.Errorf("no difference: %q", l)
	}
	b, _ := json.Marshal(same.Document("load"))
	if s := string(b); !strings.Contains(s, `"universe":"load"`) || !strings.Contains(s, `"case":null,"config":null,"steps":[],"differences":[]`) {
		t.Errorf("no difference: %s", s)
	}
	r := diffSearch(t, model.Proposed(), model.Spec(), 1000)
	f := r.Found
	if f == nil {
		t.Fatal("spec and proposed: no difference")
	}
	l := r.Lines()
	if len(l) != 3+len(f.Steps)+len(f.Differences) || !strings.HasPrefix(l[0], "the first load scenario that tells proposed and spec apart") ||
		l[1] != "  "+f.Config.String() || l[2+len(f.Steps)] != "then the load runs to its verdict:" || l[len(l)-1] != "  "+f.Differences[len(f.Differences)-1] {
		t.Errorf("lines %q", l)
	}
	d := r.Document("load")
	if d.Case == nil || *d.Case != f.Case || d.Config == nil || *d.Config != f.Config.String() || len(d.Steps) != len(f.Steps) || len(d.Differences) != len(f.Differences) {
		t.Errorf("document %+v", d)
	}
}
