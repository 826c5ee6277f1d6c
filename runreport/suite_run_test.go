package runreport

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

// The suite's head names the -tie that reproduces its policies; its
// report is the JSON document alone, or the text.
func TestSuiteHeadAndWrite(t *testing.T) {
	for _, c := range []struct {
		tl   []model.TiePolicy
		want string
	}{
		{[]model.TiePolicy{model.ClearWins, model.SetWins}, "explore -rules=am -tie=both -workers=3: the whole suite (version "},
		{[]model.TiePolicy{model.SetWins}, "explore -rules=am -tie=set -workers=3: the whole suite (version "},
	} {
		if got := SuiteHead("am", c.tl, 3); got != c.want+cli.Version()+")" {
			t.Errorf("head %q, want %q...", got, c.want)
		}
	}
	r := &AmendmentReport{Amendment: "mark-read-own-counter", Baseline: model.ProposedName, Verdict: "UNSAFE: x",
		am: amendment(t, "mark-read-own-counter"), scope: mutants.Scope{}}
	var text, doc bytes.Buffer
	r.Write(&text, false)
	if !strings.Contains(text.String(), "verdict: UNSAFE: x\n") || strings.HasPrefix(text.String(), "{") {
		t.Errorf("text:\n%s", text.String())
	}
	r.Write(&doc, true)
	var back map[string]any
	if err := json.Unmarshal(doc.Bytes(), &back); err != nil || back["verdict"] != "UNSAFE: x" || back["amendment"] != "mark-read-own-counter" {
		t.Errorf("json %v:\n%s", err, doc.String())
	}
}
