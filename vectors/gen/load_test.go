package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
)

// TestLoadRecordReplays: every load a scenario records, written as a
// vector input and replayed from its frames alone, sends at start and
// after each frame what it sent in the props.World that fed it, and ends
// with the verdict and reason it had there (running for a load the
// scenario left running), so a load vector's expected output is the
// load's as the property checks ran it.
func TestLoadRecordReplays(t *testing.T) {
	scs, err := loadScenarios()
	if err != nil {
		t.Fatal(err)
	}
	enc := &frameEncoder{sigs: map[string]string{}}
	loads, falseCompletes := 0, 0
	for _, sc := range scs {
		recs, err := runLoadScenario(sc.cfg, sc.check, sc.steps, sc.unproven)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) == 0 {
			t.Errorf("%s: no load recorded", sc.id)
		}
		for i, r := range recs {
			loads++
			id := fmt.Sprintf("%s load %d", sc.id, i+1)
			in, err := enc.input(r)
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			raw, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := computeLoad(model.Proposed(), raw)
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			out := got.(loadOutput)
			if want := r.result.Verdict.String() + "/" + r.result.Reason.String(); out.Verdict+"/"+out.Reason != want {
				t.Errorf("%s: replayed %s/%s, the world gave %s", id, out.Verdict, out.Reason, want)
			}
			sameOuts(t, id+" start", out.Start, r.start)
			if len(out.Replies) != len(r.replies) {
				t.Fatalf("%s: %d replies replayed, %d recorded", id, len(out.Replies), len(r.replies))
			}
			for k := range r.replies {
				sameOuts(t, fmt.Sprintf("%s reply %d", id, k), out.Replies[k], r.replies[k])
			}
			if r.falseComplete {
				falseCompletes++
				if r.result.Verdict != model.Complete {
					t.Errorf("%s: a false complete with verdict %s", id, r.result.Verdict)
				}
			}
		}
	}
	// The scenarios include the false-complete traps; a recording that
	// lost the soundness check's finding would show none.
	if loads < len(scs) || falseCompletes == 0 {
		t.Errorf("%d loads in %d scenarios, %d false completes", loads, len(scs), falseCompletes)
	}
}

func sameOuts(t *testing.T, what string, got []json.RawMessage, want []model.Out) {
	t.Helper()
	w, err := wireOuts(want)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if len(got) != len(w) {
		t.Errorf("%s: %d messages replayed, %d recorded", what, len(got), len(w))
		return
	}
	for i := range w {
		if !bytes.Equal(got[i], w[i]) {
			t.Errorf("%s: replayed %s, recorded %s", what, got[i], w[i])
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
	u, _ := model.Proposed().Load.FirstUntil(7)
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
