package props

import "github.com/nip-rs/harness/model"

// Observer is told what a World's loads exchange, in the order it
// happens: a caller that needs the relay messages each load was fed (the
// load vectors record them as scripted relays) watches the World the
// property checks run instead of driving one of its own. The calls change
// nothing the World does; an Observer must not drive the World from
// inside them.
type Observer interface {
	// LoadStarted: a load was built with cfg and sent out when started.
	LoadStarted(cfg model.LoadConfig, out []model.Out)
	// Fed: the current load was fed in (a relay message, or the
	// connection dropping) and sent out in reply.
	Fed(in model.In, out []model.Out)
	// Verdict: the current load has res, its verdict; v is the violation
	// the soundness check found in it (nil for a sound or not complete
	// verdict). A load the scenario leaves running gets no call.
	Verdict(res model.LoadResult, v *Violation)
}

// Observe has o told about every load started from now on, or nobody
// when o is nil.
func (w *World) Observe(o Observer) { w.obs = o }

// HoldUnproven has every load started from now on hold the relay unproven
// (model.LoadConfig.Unproven, why being the reason); empty takes it as
// proven again, as a World does by default.
func (w *World) HoldUnproven(why string) { w.unproven = why }
