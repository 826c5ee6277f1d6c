package comparison

import (
	"testing"

	"github.com/nip-rs/harness/candidate"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/witnessfile"
)

func TestFold(t *testing.T) {
	w3 := &witnessfile.Witness{Kind: witnessfile.KindExplore, Actions: make([]witnessfile.Action, 3)}
	w5 := &witnessfile.Witness{Kind: witnessfile.KindExplore, Actions: make([]witnessfile.Action, 5)}
	pt := &witnessfile.Witness{Kind: witnessfile.KindDirected}
	for name, c := range map[string]struct {
		srcs []Source
		na   string
		want string
	}{
		"holds":        {[]Source{{Checked: 4, Complete: true}}, "", "holds"},
		"never met":    {[]Source{{Checked: 0, Complete: true}}, "", "not checked"},
		"bound hit":    {[]Source{{Checked: 4, Complete: false}}, "", "unknown"},
		"not runnable": {nil, "why", "n/a"},
		"smallest":     {[]Source{{Checked: 9, Violations: 1, Witness: w5, Complete: true}, {Checked: 9, Violations: 2, Witness: w3}, {Checked: 2, Violations: 1, Witness: pt}}, "", "violated (3 steps)"},
		"points only":  {[]Source{{Checked: 48, Violations: 2, Witness: pt, Complete: true}, {Checked: 4, Complete: true}}, "", "violated (2 of 48 points)"},
		"bound failed": {[]Source{{Checked: 9, Violations: 1, Witness: w5, Complete: false}}, "", "violated (5 steps)"},
	} {
		if got := fold(c.srcs, c.na).Text(); got != c.want {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
	}
	if c := fold(nil, "why"); c.Reason != "why" {
		t.Errorf("n/a reason %q", c.Reason)
	}
}

func TestResolve(t *testing.T) {
	cat := exhaustive.NewCatalog()
	for name, enc := range map[string]string{"A": "A", "B": "B", "spec": "B"} {
		c, err := Resolve(cat, name)
		if err != nil || c.Encoding.Name() != enc {
			t.Errorf("%s: %+v %v", name, c, err)
		}
	}
	if _, err := Resolve(cat, "nothing"); err == nil {
		t.Error("an unknown candidate resolves")
	}
	if notApplicable(candidate.EncodingB{}, "I5") != "" || notApplicable(candidate.EncodingA{}, "I5c") == "" || notApplicable(candidate.EncodingA{}, "I7") != "" {
		t.Error("not-applicable reasons wrong")
	}
}
