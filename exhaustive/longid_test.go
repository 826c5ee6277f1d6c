package exhaustive

import (
	"fmt"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
)

// TestLongIDUniverse pins the long-id universe's count (in the test and in
// testdata/figures) and requires it clean under the production rules, N8 checked
// on every state.
func TestLongIDUniverse(t *testing.T) {
	u := LongIDUniverse()
	if n := len(u.Contexts[len(u.Contexts)-1]); n != 252 || model.MaxOverrideContextBytes != 251 {
		t.Fatalf("long context of %d bytes, want 252", n)
	}
	const want = 8781
	for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
		res, err := Explore(Config{Universe: u, Rules: model.Proposed().WithTie(tie), Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusOK || res.Distinct != want {
			t.Fatalf("%s: %s, %d distinct, want ok and %d (witness %+v)", tie, res.Status, res.Distinct, want, res.Witness)
		}
		if c, ok := res.Invariant(InvNetPeerVerdict); !ok || c.Checked != int64(res.Distinct) {
			t.Fatalf("%s: N8 checked on %d of %d states", tie, c.Checked, res.Distinct)
		}
	}
	figfile.For(t, *update).Line(fmt.Sprintf("- long-id: depth %d, %s distinct states under either tie policy.", longIDDepth, num.Commas(want)))
}

// TestPeerVerdictHasTeeth: without mark-unread's refusal, N8 fails in the
// long-id universe (the device shows an override its publication cannot
// carry), and its witness is the mark-unread itself when the other
// quiescence checks, which also see it, are left aside.
func TestPeerVerdictHasTeeth(t *testing.T) {
	rules := model.Proposed()
	rules.OverrideKeysFit = func(string) error { return nil }
	rules.Name = "no-key-refusal"
	u := LongIDUniverse()
	u.Depth = 2
	res, err := Explore(Config{Universe: u, Rules: rules, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := res.Invariant(InvNetPeerVerdict)
	if res.Status != StatusViolation || c.Violations == 0 {
		t.Fatalf("status %s, N8 %d violations: the missing refusal went unseen", res.Status, c.Violations)
	}
	// The same rules on a universe without the long id: N8 holds, so what
	// it saw is the long id and nothing else.
	short := u
	short.Contexts = short.Contexts[:1]
	res, err = Explore(Config{Universe: short, Rules: rules, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := res.Invariant(InvNetPeerVerdict); c.Violations != 0 || c.Checked == 0 {
		t.Fatalf("without the long id: N8 %d violations on %d states", c.Violations, c.Checked)
	}
}
