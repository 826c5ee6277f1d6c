package runreport

import (
	"errors"
	"strings"
	"testing"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/witnessfile"
)

// What a witness's run changed from production, by what it names.
func TestChanges(t *testing.T) {
	for _, c := range []struct {
		w    witnessfile.Witness
		want []string // prefixes, in order
	}{
		{witnessfile.Witness{Kind: witnessfile.KindExplore, Rules: "proposed"}, []string{"nothing: rules proposed, the production rules (model.Proposed)"}},
		{witnessfile.Witness{Kind: history.KindHistory, Rules: "spec"}, []string{"nothing: rules spec, the walk as community-history-sync.md states it"}},
		{witnessfile.Witness{Kind: history.KindHistory, Rules: "healing"}, []string{"rules healing: "}},
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
