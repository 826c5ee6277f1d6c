package gen

import (
	"fmt"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
)

// loadRec is one load as a relay saw it: its configuration, the messages
// it sent on start, then each relay message fed to it and its reply, and
// its verdict (zero, that is running, for a load left running).
type loadRec struct {
	cfg     model.LoadConfig
	start   []model.Out
	frames  []model.In
	replies [][]model.Out
	result  model.LoadResult
	// falseComplete says props.World's soundness check found the
	// complete verdict false: it missed or misread a coordinate the relay
	// held when the load's last query read storage.
	falseComplete bool
}

// loadRecorder is the props.Observer that keeps every load of a World.
type loadRecorder struct{ recs []*loadRec }

func (r *loadRecorder) LoadStarted(cfg model.LoadConfig, out []model.Out) {
	r.recs = append(r.recs, &loadRec{cfg: cfg, start: out})
}

func (r *loadRecorder) Fed(in model.In, out []model.Out) {
	l := r.recs[len(r.recs)-1]
	l.frames = append(l.frames, in)
	l.replies = append(l.replies, out)
}

func (r *loadRecorder) Verdict(res model.LoadResult, v *props.Violation) {
	l := r.recs[len(r.recs)-1]
	l.result = res
	l.falseComplete = v != nil && v.Check == props.CheckSoundness
}

// runLoadScenario runs a soundness scenario (the steps, then the last load
// to its verdict) or a quiescent one (the writes, every split replacement
// settled, one load to its verdict) in a props.World under the proposed
// rules, and returns every load it started. A false complete does not
// end the scenario as it ends a property check: the steps after it run
// too (a delivery it cut short leaves the rest of its messages queued for
// the next step that reads them), and the finish goes on until nothing is
// left to exchange.
func runLoadScenario(cfg props.Config, check string, steps []props.Step, unproven string) ([]*loadRec, error) {
	w, err := props.NewWorld(cfg, model.Proposed())
	if err != nil {
		return nil, fmt.Errorf("load scenario: %w", err)
	}
	rec := &loadRecorder{}
	w.Observe(rec)
	w.HoldUnproven(unproven)
	for _, s := range steps {
		w.Apply(s)
	}
	if check == props.CheckQuiescent {
		for w.Relay().Pending() > 0 {
			w.Relay().Settle()
		}
		w.Apply(props.Step{Op: props.OpStart})
	}
	// Finish stops at a false complete; called again, it goes on from
	// there. It stops for good with nothing left, or a load stuck.
	for v := w.Finish(); v != nil && v.Check == props.CheckSoundness; v = w.Finish() {
	}
	return rec.recs, nil
}
