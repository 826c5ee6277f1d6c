package vectorgen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
)

// propsVerdicts lists a scenario's loads as "verdict/reason", as
// props.World runs them, and whether it found a false complete.
func propsVerdicts(t *testing.T, sc loadScenario) ([]string, bool) {
	t.Helper()
	var w *props.World
	unsound := false
	note := func(v *props.Violation) {
		unsound = unsound || (v != nil && v.Check == props.CheckSoundness)
	}
	if sc.check == props.CheckQuiescent {
		var v *props.Violation
		w, v = props.Quiescent(sc.cfg, model.Proposed(), sc.steps)
		note(v)
	} else {
		var err error
		if w, err = props.NewWorld(sc.cfg, model.Proposed()); err != nil {
			t.Fatal(err)
		}
		for _, s := range sc.steps {
			note(w.Apply(s))
		}
		note(w.Finish())
	}
	var out []string
	for _, r := range w.Results() {
		out = append(out, r.Verdict.String()+"/"+r.Reason.String())
	}
	return out, unsound
}

// TestLoadWorldMatchesProps: the recording driver gives every load of
// every scenario the verdict props.World gives it, and marks a false
// complete exactly where props.World's soundness check finds one, so the
// frames a load vector records are the scenario's as the property checks
// run it.
func TestLoadWorldMatchesProps(t *testing.T) {
	scs, err := loadScenarios()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs {
		if sc.unproven != "" {
			continue // props.World loads on a relay it takes as proven
		}
		recs, err := runLoadScenario(sc.cfg, sc.check, sc.steps, "")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		falseComplete := false
		for _, r := range recs {
			if r.result.Verdict != model.Running {
				got = append(got, r.result.Verdict.String()+"/"+r.result.Reason.String())
			}
			falseComplete = falseComplete || r.falseComplete
		}
		want, unsound := propsVerdicts(t, sc)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: recorded %v, props.World %v", sc.id, got, want)
		}
		if falseComplete != unsound {
			t.Errorf("%s: the recording marks a false complete: %v, props.World finds one: %v", sc.id, falseComplete, unsound)
		}
	}
}

// TestLoadEventsSigned: every event a load vector's relay delivers is
// signed, so a client that verifies signatures reads the frames as the
// core does.
func TestLoadEventsSigned(t *testing.T) {
	for _, f := range committed(t) {
		if f.Kind != "load" {
			continue
		}
		n := 0
		for _, v := range f.Vectors {
			var in loadInput
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			for i, raw := range in.Frames {
				m, err := parseFrame(raw)
				if err != nil {
					t.Fatalf("%s frame %d: %v", v.ID, i, err)
				}
				if m.Kind != model.InEvent {
					continue
				}
				n++
				if ok, err := m.Event.CheckSignature(); !ok || err != nil {
					t.Errorf("%s frame %d: signature does not verify (%v)", v.ID, i, err)
				}
			}
		}
		if n < 100 {
			t.Errorf("only %d event frames", n)
		}
	}
}

// TestLoadBadInput: a scripted relay that is not one, or a configuration
// this core cannot run, is an error, not a panic.
func TestLoadBadInput(t *testing.T) {
	pk := props.UserPubKey
	u, _ := model.NonceUntil(7)
	for _, in := range []string{
		`{"config":{"pubkey":"` + pk + `","limit":2,"sub_prefix":"x","first_until":5},"frames":[]}`,
		fmt.Sprintf(`{"config":{"pubkey":"%s","limit":2,"sub_prefix":"x","first_until":%d},"frames":[["NOTICE","hi"]]}`, pk, u),
		fmt.Sprintf(`{"config":{"pubkey":"%s","limit":2,"sub_prefix":"x","first_until":%d},"frames":[{}]}`, pk, u),
		fmt.Sprintf(`{"config":{"pubkey":"%s","limit":2,"sub_prefix":"x","first_until":%d},"frames":[[]]}`, pk, u),
		fmt.Sprintf(`{"config":{"pubkey":"%s","limit":1,"sub_prefix":"x","first_until":%d},"frames":[]}`, pk, u),
		fmt.Sprintf(`{"config":{"pubkey":"AB","limit":2,"sub_prefix":"x","first_until":%d},"frames":[]}`, u),
	} {
		if _, err := computeLoad(model.Proposed(), json.RawMessage(in)); err == nil {
			t.Errorf("accepted %s", in)
		}
	}
	// The same prefix twice in a row: each vector has its own connection.
	in := fmt.Sprintf(`{"config":{"pubkey":"%s","limit":2,"sub_prefix":"x","first_until":%d},"frames":[]}`, pk, u)
	for range 2 {
		out, err := computeLoad(model.Proposed(), json.RawMessage(in))
		if err != nil {
			t.Fatal(err)
		}
		if o := out.(loadOutput); o.Verdict != "running" || len(o.Start) != 1 {
			t.Fatalf("a load fed nothing: %+v", o)
		}
	}
}
