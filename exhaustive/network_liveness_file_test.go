package exhaustive

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// beforeEviction compares the candidate before eviction with the last
// publication: an entry the split never publishes keeps the trigger on.
// It is the production comparison, handed the candidate as what is
// published.
func beforeEviction() *model.Rules {
	r := model.Proposed().Clone()
	production := r.Slots.Republish
	r.Slots.Republish = func(candidate, _, last []model.Entry) bool { return production(candidate, candidate, last) }
	r.Name = "before-eviction"
	return r
}

// On the hierarchy pair the production rules hold, with the premise met
// and cycles fairness had to judge; a trigger that compares the candidate
// before eviction re-publishes forever once a device holds a dominated
// thread entry, which the pair universe (nothing evicted there) cannot
// show.
func TestLivenessHierarchyPair(t *testing.T) {
	u := HierarchyPairUniverse()
	for _, rules := range []*model.Rules{model.Spec(), model.Proposed()} {
		res, err := Liveness(LivenessConfig{Universe: u, Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusOK || res.Premise == 0 || res.Cycles.Unfair == 0 || res.Cycles.Cyclic != res.Cycles.Unfair+res.Cycles.Fair {
			t.Fatalf("%s: %+v", rules.Name, *res)
		}
	}
	res, err := Liveness(LivenessConfig{Universe: u, Rules: beforeEviction()})
	if err != nil || res.Status != StatusViolation || res.Witness == nil {
		t.Fatalf("trigger before eviction not caught: %+v, %v", res, err)
	}
	if !strings.Contains(res.Witness.String(), hierPairThread) {
		t.Fatalf("the lasso never touches the thread:\n%s", res.Witness)
	}
	if err := ReplayLiveness(u, beforeEviction(), res.Witness); err != nil {
		t.Fatalf("replay: %v\n%s", err, res.Witness)
	}
	pair, err := Liveness(LivenessConfig{Universe: NetworkPairUniverse(), Rules: beforeEviction()})
	if err != nil || pair.Status != StatusOK {
		t.Fatalf("pair universe under the trigger before eviction: %+v, %v", pair, err)
	}
}

// livenessCatalog knows the rule sets a lasso file may name here.
func livenessCatalog() *Catalog {
	c := NewCatalog()
	c.AddRules("no-suppression", noSuppression)
	return c
}

// A lasso's file parses as its own kind and replays reproduced with the
// same rendering; under the proposed rules, or with its loop cut short, it
// does not reproduce; a file the check could not have written is refused.
func TestLivenessFileRoundTrip(t *testing.T) {
	wit := liveness(t, noSuppression(), 0).Witness
	data := wit.JSON(model.ClearWins)
	w, err := witnessfile.Parse(data)
	if err != nil || w.Kind != KindLiveness || !bytes.Equal(w.JSON(), data) {
		t.Fatalf("parse: %+v, %v", w, err)
	}
	cat := livenessCatalog()
	res, err := ReplayLivenessFile(cat, w)
	if err != nil || !res.Reproduced || res.Text != wit.String() || res.Detail != w.Detail {
		t.Fatalf("replay: %+v, %v\nwant text:\n%s", res, err, wit)
	}
	proposed := *w
	proposed.Rules = model.ProposedName
	if res, err := ReplayLivenessFile(cat, &proposed); err != nil || res.Reproduced || !strings.Contains(res.Text, "does not hold") {
		t.Fatalf("under proposed: %+v, %v", res, err)
	}
	open := *wit
	open.Loop = wit.Loop[:len(wit.Loop)-1]
	ws, err := witnessfile.Parse(open.JSON(model.ClearWins))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := ReplayLivenessFile(cat, ws); err != nil || res.Reproduced {
		t.Fatalf("altered loop: %+v, %v", res, err)
	}
	for name, bad := range map[string][]byte{
		"unknown member": bytes.Replace(data, []byte(`"loop":`), []byte(`"extra": 1, "loop":`), 1),
		"invariant":      bytes.Replace(data, []byte(InvNoRepublishCycle), []byte("convergence"), 1),
		"universe":       bytes.Replace(data, []byte(`"network-pair"`), []byte(`"nowhere"`), 1),
		"action":         bytes.Replace(data, []byte(`"publish"`), []byte(`"teleport"`), 1),
		"depth":          bytes.Replace(data, []byte(`"depth": 4`), []byte(`"depth": 0`), 1),
	} {
		w, err := witnessfile.Parse(bad)
		if err == nil {
			_, err = ReplayLivenessFile(cat, w)
		}
		if !errors.Is(err, witnessfile.ErrBad) {
			t.Errorf("%s: err %v, want ErrBad", name, err)
		}
	}
}
