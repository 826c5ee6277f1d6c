package mutants

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// A tie-independent finding reused under the other tie policy names that
// policy, so a one-policy run and a both-policy run write the same golden
// files.
func TestRetiedNamesTheRunsTie(t *testing.T) {
	w := &witnessfile.Witness{Kind: witnessfile.KindDirected, Check: "register-laws", Tie: "clear", Rules: "M5", Invariant: "x", Detail: "d"}
	f := &Finding{Check: "directed:register-laws", Invariant: "x", Witness: &Witness{Kind: KindDirected, JSON: w.JSON(), Text: w.DirectedText()}}
	for _, tc := range []struct {
		tie  model.TiePolicy
		want string
	}{{model.ClearWins, `"tie": "clear"`}, {model.SetWins, `"tie": "set"`}} {
		g := retied(f, tc.tie)
		if !strings.Contains(string(g.Witness.JSON), tc.want) {
			t.Errorf("retied %s: JSON %s lacks %s", tc.tie, g.Witness.JSON, tc.want)
		}
		if !strings.Contains(g.Witness.Text, "tie "+tc.tie.String()+",") {
			t.Errorf("retied %s: text %q names another tie", tc.tie, g.Witness.Text)
		}
	}
	if !strings.Contains(string(f.Witness.JSON), `"tie": "clear"`) {
		t.Error("retied changed the cached finding")
	}
	load := &Finding{Witness: &Witness{Kind: KindLoad, JSON: []byte("{}")}}
	if retied(load, model.SetWins) != load {
		t.Error("a load finding has no tie to relabel")
	}
}
