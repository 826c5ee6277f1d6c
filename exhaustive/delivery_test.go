package exhaustive

import (
	"bytes"
	"testing"

	"github.com/nip-rs/harness/model"
)

// referenceReplicas are states of every reference device reached by up to
// two local transitions, each device's initial state included.
func referenceReplicas(t *testing.T, rules *model.Rules) []*model.Replica {
	t.Helper()
	u := Reference()
	var out []*model.Replica
	for dev, spec := range u.Devices {
		level := []*model.Replica{newReplica(spec, rules)}
		out = append(out, level...)
		for range 2 {
			var next []*model.Replica
			for _, base := range level {
				for slot := range u.slotsPerDevice() {
					r := base.Clone()
					if _, ok := u.applyLocal(r, dev, slot); ok {
						next = append(next, r)
					}
				}
			}
			out = append(out, next...)
			level = next
		}
	}
	return out
}

// Deliveries are memoised per publication contexts (engine.content): a
// replica receiving two publications that differ only in version and
// client id must end in the same state, and the engine's decoded delivery
// must equal Receive.
func TestDeliveryReadsOnlyTheContexts(t *testing.T) {
	for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
		rules := model.Proposed().WithTie(tie)
		reps := referenceReplicas(t, rules)
		n := 0
		for _, pub := range reps {
			b := publish(pub)
			if len(b.Contexts) == 0 {
				continue
			}
			other := b
			other.ClientID, other.V = "another-client", b.V+7
			for _, base := range reps {
				want := base.Clone()
				want.Receive(b)
				got := base.Clone()
				got.Receive(other)
				if !bytes.Equal(appendReplicaState(nil, want), appendReplicaState(nil, got)) {
					t.Fatalf("%s: receiving %+v and %+v differ", tie, b, other)
				}
				if !base.Legacy {
					d := model.Decode(base.Rules, model.Raw(b.Contexts))
					dec := base.Clone()
					dec.ReceiveDecoded(&d)
					if !bytes.Equal(appendReplicaState(nil, want), appendReplicaState(nil, dec)) {
						t.Fatalf("%s: ReceiveDecoded of %+v differs from Receive", tie, b)
					}
				}
				n++
			}
		}
		if n < 100 {
			t.Fatalf("%s: only %d deliveries compared", tie, n)
		}
	}
}

// Publications that differ only in client id share one contents id, and
// differing contexts do not.
func TestContentIDs(t *testing.T) {
	u := Reference()
	e := newEngine(&u, model.Proposed(), appendReplicaState)
	es := []model.Entry{{Key: "c0", Value: 10}}
	a := e.internBlob(model.Blob{V: 1, ClientID: "d0", Contexts: es})
	b := e.internBlob(model.Blob{V: 1, ClientID: "d1", Contexts: es})
	c := e.internBlob(model.Blob{V: 1, ClientID: "d0", Contexts: []model.Entry{{Key: "c0", Value: 20}}})
	if a == b || a == c {
		t.Fatalf("blob ids %d %d %d: distinct publications share an id", a, b, c)
	}
	if e.contentOf(a) != e.contentOf(b) || e.contentOf(a) == e.contentOf(c) {
		t.Fatalf("contents ids %d %d %d", e.contentOf(a), e.contentOf(b), e.contentOf(c))
	}
}
