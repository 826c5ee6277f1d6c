package mbt

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/itf"
	"github.com/nip-rs/harness/model"
)

// Divergence is the first step where a trace and what it is checked
// against disagree.
type Divergence struct {
	Walk int
	Seed uint64
	// Step is the state index (0: the initial state); Action names the
	// action that led to it.
	Step   int
	Action string
	// Var is the variable (or, against a client, the device) that differs;
	// Want is the trace's value, Got the other side's, both as JSON.
	Var       string
	Want, Got string
	// Witness is the trace cut after Step: replaying it reproduces the
	// divergence.
	Witness *itf.Trace
}

func (d *Divergence) Error() string {
	return fmt.Sprintf("walk %d (seed %d) diverges at step %d (%s) in %s: trace has %s, got %s", d.Walk, d.Seed, d.Step, d.Action, d.Var, d.Want, d.Got)
}

// Prefix is the trace cut after state k (a copy sharing the values).
func Prefix(t *itf.Trace, k int) *itf.Trace {
	p := *t
	p.States = slices.Clone(t.States[:k+1])
	p.Loop = nil
	return &p
}

// Check replays the trace's actions on the model (the universe and rules
// its #meta names, from cat) and compares every state, every variable. It
// returns a *Divergence at the first difference, another error when the
// trace cannot be replayed at all, and nil when every state agrees.
func Check(cat *exhaustive.Catalog, t *itf.Trace) error {
	w, err := Parse(t)
	if err != nil {
		return err
	}
	u, rules, err := inputs(cat, w.Run)
	if err != nil {
		return err
	}
	states, rerr := exhaustive.ObserveActions(u, rules, w.Actions)
	if len(states) == 0 {
		return rerr
	}
	if len(states[0].Devices) != w.Devices {
		return fmt.Errorf("the trace has %d devices, universe %s has %d", w.Devices, u.Name, len(states[0].Devices))
	}
	for k, s := range states {
		vals := stateValues(s, w.Profile)
		for _, v := range t.Vars {
			if v == "action" {
				continue
			}
			if !itf.Equal(vals[v], t.States[k].Values[v]) {
				return &Divergence{Walk: w.Walk, Seed: w.Run.Seed, Step: k, Action: actionName(t, k), Var: v,
					Want: show(t.States[k].Values[v]), Got: show(vals[v]), Witness: Prefix(t, k)}
			}
		}
	}
	if rerr != nil {
		// The states before the action that cannot run agreed.
		return fmt.Errorf("walk %d: %w", w.Walk, rerr)
	}
	return nil
}

// inputs are the universe and rules a run names.
func inputs(cat *exhaustive.Catalog, run Run) (exhaustive.Universe, *model.Rules, error) {
	u, err := cat.Universe(run.Universe)
	if err != nil {
		return u, nil, err
	}
	rules, err := cat.Rules(run.Rules)
	if err != nil {
		return u, nil, err
	}
	tie, err := model.ParseTiePolicy(run.Tie)
	if err != nil {
		return u, nil, err
	}
	return u, rules.WithTie(tie), nil
}

func actionName(t *itf.Trace, k int) string {
	if k == 0 {
		return "init"
	}
	a, err := readAction(t.States[k].Values["action"])
	if err != nil {
		return "?"
	}
	s := a.Action
	switch {
	case a.From != nil && a.To != nil:
		s += fmt.Sprintf(" d%d->d%d msg %d", *a.From, *a.To, a.Msg)
	case a.Device != nil:
		s += fmt.Sprintf(" d%d", *a.Device)
		if a.Ctx != "" {
			s += " " + a.Ctx
		}
		if a.Value != 0 {
			s += fmt.Sprint(" ", a.Value)
		}
	}
	return s
}

func show(v itf.Value) string {
	if v == nil {
		return "(nothing)"
	}
	b, err := itf.EncodeValue(v)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	return string(b)
}

// IsDivergence reports whether err is a divergence, and returns it.
func IsDivergence(err error) (*Divergence, bool) {
	var d *Divergence
	ok := errors.As(err, &d)
	return d, ok
}
