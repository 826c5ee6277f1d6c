package props

import (
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaysim"
)

// pushAsResult is the load as it was before pushes on a query's own
// subscription were told apart from stored results: every delivery before
// a query's end-of-stored-events counts toward C and the cursor.
func pushAsResult() *model.Rules {
	r := model.Proposed()
	r.Name = "push-as-result"
	r.Load.PushIsResult = func(*nostr.Event) bool { return true }
	return r
}

// TestQueryPushSoundness: over a relay that meets the five requirements
// and also pushes onto queries still being answered (khatru's listener
// registration), the production rules never report a false complete.
func TestQueryPushSoundness(t *testing.T) {
	withChecks(1000, func() { checkProperty(t, SoundnessProperty(model.Proposed(), "conformant-query-push")) })
}

// TestQueryPushFindsCountedPush: the same soundness search finds a false
// complete when a pushed delivery counts as a query result, so the
// property is able to see the defect the production rule removes.
func TestQueryPushFindsCountedPush(t *testing.T) {
	rules := pushAsResult()
	w, err := Search(SearchConfig{Check: CheckSoundness, Rules: rules, Profile: "conformant-query-push", Cases: 20000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w == nil || !strings.HasPrefix(w.Violation, "soundness: false complete") {
		t.Fatalf("no false complete found under %s: %v", rules.Name, w)
	}
	v, log := runScenario(w.Config, rules, w.Steps)
	if v == nil || v.Error() != w.Violation {
		t.Fatalf("witness does not replay: %v", v)
	}
	if v, _ := runScenario(w.Config, model.Proposed(), w.Steps); v != nil {
		t.Fatalf("the production rules on the witness: %v\n%s", v, strings.Join(log, "\n"))
	}
	t.Logf("witness (%s):\n%s", w.Config, strings.Join(log, "\n"))
}

// TestGateProfiles: the gate's soundness search covers every profile that
// meets the five requirements, the conformant one first, and the races a
// two-pass load with a gap defends against (split replacements, pushes
// behind an end-of-stored-events, late registration), each only under
// the assumption the profile states; the
// quiescent search the conformant one alone. An empty list is an error.
func TestGateProfiles(t *testing.T) {
	s := GateProfiles(CheckSoundness)
	if len(s) < 2 || s[0] != "conformant" || !slices.Contains(s, "conformant-query-push") {
		t.Fatalf("soundness profiles %v", s)
	}
	for _, name := range s {
		p, err := relaysim.ByName(name, 3)
		// Every requirement it breaks is one two passes with a gap defend,
		// under the assumption the profile states for it.
		defended := true
		for _, req := range p.Breaks {
			switch req {
			case relaysim.ReqAtomic:
				defended = defended && p.SettleBeforePass
			case relaysim.ReqBarrier:
				defended = defended && p.FlushBeforePass
			case relaysim.ReqPush:
				defended = defended && p.RegisterLate && p.RegisterBeforePass && p.Push != relaysim.PushNone
			default:
				defended = false
			}
		}
		if err != nil || (!p.Conforms() && !defended) {
			t.Errorf("%s: %v, breaks %v", name, err, p.Breaks)
		}
	}
	if q := GateProfiles(CheckQuiescent); !slices.Equal(q, []string{"conformant"}) {
		t.Fatalf("quiescent profiles %v", q)
	}
	cfg := SearchConfig{Check: CheckSoundness, Rules: pushAsResult(), Cases: 1000, Seed: 20240601}
	if w, err := SearchProfiles(cfg, nil); err == nil || w != nil {
		t.Fatalf("no profiles: witness %v, error %v", w, err)
	}
	if w, err := SearchProfiles(cfg, []string{"conformant", "nosuch"}); err == nil || w != nil {
		t.Fatalf("unknown profile: witness %v, error %v", w, err)
	}
	w, err := SearchProfiles(cfg, s)
	if err != nil || w == nil || w.Config.Profile != "conformant-query-push" {
		t.Fatalf("counted pushes over %v: witness %v, error %v", s, w, err)
	}
}
