package runreport

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

// What a witness's run changed from production, by what it names: each
// rule set in the layer its kind runs (the core's, the walk's, the
// community mechanisms'), said against that layer's production rules.
func TestChanges(t *testing.T) {
	for _, c := range []struct {
		w    witnessfile.Witness
		want []string // prefixes, in order
	}{
		{witnessfile.Witness{Kind: witnessfile.KindExplore, Rules: "proposed"}, []string{"nothing: rules proposed, the production rules (model.Proposed)"}},
		{witnessfile.Witness{Kind: witnessfile.KindExplore, Rules: "spec"}, []string{"rules spec: NIP-RS.md as written (model.Spec), without the proposals"}},
		{witnessfile.Witness{Kind: witnessfile.KindExplore, Rules: "proposed-without-x"}, []string{"rules proposed-without-x: the production rules less proposal x (model.Without)"}},
		{witnessfile.Witness{Kind: history.KindHistory, Rules: "spec"}, []string{"rules spec: the walk as community-history-sync.md states it (history.Spec), not the walk's production rules (history.Proposed)"}},
		{witnessfile.Witness{Kind: history.KindHistory, Rules: "healing"}, []string{"rules healing: "}},
		{witnessfile.Witness{Kind: history.KindHistory, Rules: "proposed"}, []string{"nothing: rules proposed, the walk's production rules (history.Proposed)"}},
		{witnessfile.Witness{Kind: mutants.KindCommunity, Rules: "spec"}, []string{"rules spec: the community mechanisms as community-history-sync.md states them (community.Spec), not their production rules (community.Heal, rules rekey-heal)"}},
		{witnessfile.Witness{Kind: mutants.KindCommunityLiveness, Rules: "rekey-heal"}, []string{"nothing: rules rekey-heal, the community mechanisms' production rules (community.Heal"}},
		{witnessfile.Witness{Kind: mutants.KindCommunity, Rules: "K32"}, []string{"mutant K32: it drops the rule ", "what the mutant changes: community.Rules.Rewatch (a function of its own)"}},
		{witnessfile.Witness{Kind: history.KindHistory, Rules: "H21"}, []string{"mutant H21: it drops the rule ", "what the mutant changes: history.Rules."}},
		{witnessfile.Witness{Kind: witnessfile.KindExplore, Rules: "M6", Tie: "clear"}, []string{"mutant M6: it drops the rule ", "what the mutant changes: model.Rules.", "the run's tie policy: clear-wins"}},
		{witnessfile.Witness{Kind: witnessfile.KindExplore, Universe: "ceiling+M6", Rules: "proposed"}, []string{"mutant M6 on device d0 only, in universe ceiling: ", "what the mutant changes: d0's model.Rules."}},
		{witnessfile.Witness{Kind: witnessfile.KindExplore, Rules: "mark-read-own-counter", Encoding: "A"}, []string{"amendment mark-read-own-counter: ", "wire encoding A: "}},
	} {
		got := Changes(&c.w)
		ok := len(got) == len(c.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.HasPrefix(got[i], c.want[i])
		}
		if !ok {
			t.Errorf("%+v:\n got %q\nwant prefixes %q", c.w, got, c.want)
		}
	}
}

// Every community mutant's change is said as a field of the community
// mechanisms' rules, and every field it names is one of that type: a
// community mutant never reads as a change of the core's rules.
func TestCommunityMutantsChangeCommunityRules(t *testing.T) {
	fields := map[string]bool{}
	rt := reflect.TypeOf(community.Rules{})
	for i := range rt.NumField() {
		fields[rt.Field(i).Name] = true
	}
	for _, m := range mutants.Community() {
		got := Changes(&witnessfile.Witness{Kind: mutants.KindCommunity, Rules: m.ID})
		if len(got) != 2 {
			t.Errorf("%s: %q", m.ID, got)
			continue
		}
		rest, ok := strings.CutPrefix(got[1], "what the mutant changes: ")
		if !ok || strings.Contains(got[1], "model.Rules") {
			t.Errorf("%s: %q", m.ID, got[1])
			continue
		}
		for _, f := range strings.Split(rest, ", community.Rules.") {
			name, _, _ := strings.Cut(strings.TrimPrefix(f, "community.Rules."), " ")
			if !fields[name] {
				t.Errorf("%s: %q names %q, not a field of community.Rules", m.ID, got[1], name)
			}
		}
	}
}

// A page titles its one witness by kind and invariant, or counts them; a
// witness it has no text for and cannot render is an error.
func TestPage(t *testing.T) {
	w := &witnessfile.Witness{Kind: witnessfile.KindDirected, Invariant: "I1 x", Rules: "proposed"}
	text := func(*witnessfile.Witness) (string, error) { return "the trace", nil }
	p, err := Page([]*witnessfile.Witness{w}, nil, []string{"judged"}, text)
	if err != nil || p.Title != "directed check witness: I1 x" || len(p.Witnesses) != 1 || p.Witnesses[0].Verdict != "judged" {
		t.Errorf("%+v %v", p, err)
	}
	p, err = Page([]*witnessfile.Witness{w, w}, []*witnessfile.Replayed{nil, {Text: "again"}}, nil, text)
	if err != nil || p.Title != "2 witnesses" {
		t.Errorf("%+v %v", p, err)
	}
	if _, err := Page([]*witnessfile.Witness{w}, nil, nil, func(*witnessfile.Witness) (string, error) { return "", errors.New("no") }); err == nil {
		t.Error("an unrenderable witness: no error")
	}
}
