package runreport

import (
	"errors"
	"strings"
	"testing"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

// The gate's baseline by name: proposed leaves the options as they are;
// spec, a reading and an amendment set the baseline under the ties asked
// for (an amendment that pins its tie, under its own, refusing another);
// an unknown name changes nothing.
func TestControl(t *testing.T) {
	both := []model.TiePolicy{model.ClearWins, model.SetWins}
	var o mutants.Options
	if err := Control(&o, model.ProposedName, both, false); err != nil || o.Baseline != nil || o.BaselineName != "" {
		t.Errorf("proposed: %+v %v", o, err)
	}
	if err := Control(&o, "nothing", both, false); err == nil || !strings.Contains(err.Error(), "unknown rule set") || o.Baseline != nil {
		t.Errorf("unknown: %v", err)
	}
	if err := Control(&o, "spec", both, false); err != nil || o.BaselineName != "spec" || o.Baseline(model.SetWins).Model.Tie != model.SetWins || len(o.Ties) != 2 {
		t.Errorf("spec: %v", err)
	}
	rd := mutants.Readings()[0]
	o = mutants.Options{}
	if err := Control(&o, rd.Name, both, false); err != nil || o.BaselineName != rd.Name || o.Baseline(model.SetWins).Model.Name != rd.Rules().Name {
		t.Errorf("reading %s: %v", rd.Name, err)
	}
	for _, a := range amendments.All() {
		o = mutants.Options{}
		if err := Control(&o, a.Name, both, false); err != nil || o.BaselineName != a.Name || len(o.Ties) != len(a.Ties(both)) {
			t.Errorf("amendment %s: %v", a.Name, err)
		}
		if !a.Pinned {
			continue
		}
		o = mutants.Options{}
		var tie *TieError
		if err := Control(&o, a.Name, both, true); !errors.As(err, &tie) || tie.Amendment != a.Name || o.Baseline != nil {
			t.Errorf("amendment %s under both ties asked for: %v", a.Name, err)
		}
	}
}
