package mbt

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/itf"
	"github.com/nip-rs/harness/model"
)

// simTraces is a few walks of the network-whole universe under the
// proposed rules.
func simTraces(t *testing.T, walks, steps int, seed uint64) []*itf.Trace {
	t.Helper()
	cat := exhaustive.NewCatalog()
	u, err := cat.Universe("network-whole")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := cat.Rules(model.ProposedName)
	if err != nil {
		t.Fatal(err)
	}
	trs, err := Traces(exhaustive.SimConfig{Universe: u, Rules: rules, Walks: walks, Steps: steps, Seed: seed},
		Run{Universe: u.Name, Rules: rules.Name, Tie: rules.Tie.String(), Seed: seed, Steps: steps})
	if err != nil {
		t.Fatal(err)
	}
	return trs
}

func TestTracesReplayAgainstModel(t *testing.T) {
	cat := exhaustive.NewCatalog()
	delivered := false
	for _, tr := range simTraces(t, 5, 30, 3) {
		// Through the file format and back, then against the model.
		b, err := itf.Encode(tr)
		if err != nil {
			t.Fatal(err)
		}
		back, err := itf.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(cat, back); err != nil {
			t.Fatal(err)
		}
		delivered = delivered || bytes.Contains(b, []byte(`"action":"deliver"`))
	}
	if !delivered {
		t.Fatal("no walk delivered a message: the traces exercise no network")
	}
}

// A trace whose recorded state is altered diverges at that step, naming
// the variable; one whose action cannot run is an error, not a pass.
func TestCheckFindsAlteredState(t *testing.T) {
	cat := exhaustive.NewCatalog()
	tr := simTraces(t, 1, 20, 5)[0]
	k := len(tr.States) - 1
	tr.States[k].Values["d0"] = itf.Map{{K: itf.Str("c9"), V: itf.Record{"effective": itf.NewInt(99), "live": itf.Bool(true)}}}
	err := Check(cat, tr)
	d, ok := IsDivergence(err)
	if !ok || d.Step != k || d.Var != "d0" || len(d.Witness.States) != k+1 {
		t.Fatalf("want a divergence at step %d in d0, got %v", k, err)
	}
	tr = simTraces(t, 1, 20, 5)[0]
	tr.States[1].Values["action"] = itf.Record{"action": itf.Str("mark_read"), "device": itf.NewInt(7), "ctx": itf.Str("c0"), "value": itf.NewInt(10)}
	err = Check(cat, tr)
	if _, ok := IsDivergence(err); ok || err == nil || !strings.Contains(err.Error(), "step 1") {
		t.Fatalf("an impossible action: %v", err)
	}
}

func TestParseRefusesForeignTrace(t *testing.T) {
	tr := &itf.Trace{Vars: []string{"x"}, States: []itf.State{{Values: itf.Record{"x": itf.NewInt(1)}}}}
	if _, err := Parse(tr); err == nil || !strings.Contains(err.Error(), "#meta") {
		t.Fatalf("a trace of another producer: %v", err)
	}
}
