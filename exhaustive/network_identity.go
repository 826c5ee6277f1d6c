package exhaustive

import (
	"fmt"

	"github.com/nip-rs/harness/model"
)

// rotate is a client-id rotation of device dev in replica state rep,
// planned by production (Replica.PlanRotation) from a complete load that
// holds the old primary: the plan merges it, must carry forward every
// register of the old primary, tombstones included, and must leave every
// verdict as it was. The rotated replica is the successor state; its new
// client id is not part of it.
func (w *netWorld) rotate(c *cache, dev int, rep int32) rotation {
	fa := w.factsOf(c, dev, rep)
	if fa.rot != nil {
		return *fa.rot
	}
	var fs []finding
	base := w.replica(dev, rep)
	r := base.Clone()
	budget := model.DefaultBudget()
	if w.net.Budget != nil {
		budget = *w.net.Budget
	}
	primary := slotID(1)
	var old model.Blob
	if sp, err := r.Split(budget); err == nil {
		old = sp.Blobs[0]
	}
	next := 2
	newSlot := func() (string, error) { next++; return slotID(next), nil }
	_, err := r.PlanRotation(model.RotationInput{
		Self:        model.Self{ClientID: r.ClientID, Primary: primary},
		NewClientID: w.u.reinstallID(r.ClientID),
		Fetched:     []model.FetchedBlob{{Relay: "relay", Slot: primary, CreatedAt: 1, ID: "old", Blob: old}},
		Now:         2, Budget: budget, Complete: true, NewSlot: newSlot,
	})
	if err != nil {
		fs = append(fs, finding{InvNetRotation, fmt.Sprintf("d%d cannot rotate: %v", dev, err)})
	}
	if frontierRegressed(base, r) {
		fs = append(fs, finding{InvRegression, fmt.Sprintf("a rotation lowered a frontier of d%d", dev)})
	}
	for _, ctx := range w.u.Contexts {
		if base.Live(ctx) != r.Live(ctx) || base.Effective(ctx) != r.Effective(ctx) {
			fs = append(fs, finding{InvNetRotation, fmt.Sprintf("d%d: rotation changed %s from f=%d %s to f=%d %s",
				dev, ctx, base.Effective(ctx), verdict(base.Live(ctx)), r.Effective(ctx), verdict(r.Live(ctx)))})
			break
		}
	}
	rot := rotation{next: rep, findings: fs}
	if err == nil {
		rot.next = w.e.internLocked(dev, r)
	}
	fa.rot = &rot
	return rot
}

// rotation is the outcome of a rotation: the successor replica state and
// what the rotation checks found.
type rotation struct {
	next     int32
	findings []finding
}

func slotID(n int) string { return fmt.Sprintf("%032x", n) }
