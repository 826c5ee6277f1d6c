package gen

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
)

// step is one action of a script.
type step struct {
	// Do is advance (a natural read to ts), mark_unread, mark_read (to ts),
	// compact (local storage compaction of ctx), publish (record the
	// candidate as published) or receive (merge a peer's validated blob).
	Do       string            `json:"do"`
	Ctx      string            `json:"ctx,omitempty"`
	TS       uint32            `json:"ts,omitempty"`
	ClientID string            `json:"client_id,omitempty"`
	Entries  map[string]uint32 `json:"entries,omitempty"`
}

// ctxState is one context of an installation after a step, raw: its
// stored frontier and register (traces compare these).
type ctxState struct {
	Frontier  uint32 `json:"frontier"`
	Effective uint32 `json:"effective"`
	Reg       reg3   `json:"reg"`
	Live      bool   `json:"live"`
}

// observed is what a user or a peer can see of one context: its effective
// frontier and whether an override keeps it unread. Two installations
// that store registers differently (one compacting on receipt, one never
// storing a frontier of 0) agree on it wherever they behave alike.
type observed struct {
	Effective uint32 `json:"effective"`
	Live      bool   `json:"live"`
}

// stored is one context's raw storage: what the full profile compares
// beside the observable state.
type stored struct {
	Frontier uint32 `json:"frontier"`
	Reg      reg3   `json:"reg"`
}

// stepAfter is the installation after one step.
type stepAfter struct {
	Error string `json:"error,omitempty"`
	// Contexts is the observable state of every context that is read
	// (effective frontier above 0) or kept unread by a live override; a
	// context with neither looks the same as one never seen.
	Contexts map[string]observed `json:"contexts"`
	// Candidate is the canonical blob's contexts the installation would
	// publish now (frontier keys escaped).
	Candidate map[string]uint32 `json:"candidate"`
	// NeedsRepublish says whether the candidate differs from the last
	// publication.
	NeedsRepublish bool `json:"needs_republish"`
	// Registers is the raw storage of every context the installation
	// holds, which only a client storing registers as this one does
	// reproduces.
	Registers map[string]stored `json:"registers"`
}

// ScriptClientID is the client_id of a script's installation.
const ScriptClientID = "me"

func runScript(rules *model.Rules, parents map[string]string, steps []step) ([]stepAfter, error) {
	return runScriptWith(rules, parents, steps, nil)
}

// runScriptWith is runScript with store run after every step, before the
// snapshot: how another client's storage (one compacting on receipt, say)
// treats the installation.
func runScriptWith(rules *model.Rules, parents map[string]string, steps []step, store func(*model.Replica, step)) ([]stepAfter, error) {
	r := model.NewReplica(ScriptClientID)
	r.Rules = rules
	if len(parents) > 0 {
		r.Parent = func(c string) (string, bool) { p, ok := parents[c]; return p, ok }
	}
	var out []stepAfter
	for i, s := range steps {
		var err error
		switch s.Do {
		case "advance":
			r.Advance(s.Ctx, s.TS)
		case "mark_unread":
			err = r.MarkUnread(s.Ctx)
		case "mark_read":
			err = r.MarkRead(s.Ctx, s.TS)
		case "compact":
			r.Compact(s.Ctx)
		case "publish":
			r.Publish()
		case "receive":
			b := model.Blob{V: 1, ClientID: s.ClientID}
			for k, v := range s.Entries {
				b.Contexts = append(b.Contexts, model.Entry{Key: k, Value: v})
			}
			b.Contexts = model.SortEntries(b.Contexts)
			r.Receive(b)
		default:
			return nil, fmt.Errorf("step %d: unknown action %q", i, s.Do)
		}
		if store != nil {
			store(r, s)
		}
		out = append(out, snapshot(r, actionError(err)))
	}
	return out, nil
}

func snapshot(r *model.Replica, errCode string) stepAfter {
	a := stepAfter{Error: errCode, Contexts: map[string]observed{}, Candidate: map[string]uint32{}, Registers: map[string]stored{}}
	ctxs := r.Contexts()
	slices.Sort(ctxs)
	for _, c := range ctxs {
		a.Registers[c] = stored{Frontier: r.Frontier(c), Reg: toReg3(r.Reg(c))}
		if o := (observed{Effective: r.Effective(c), Live: r.Live(c)}); o.Effective > 0 || o.Live {
			a.Contexts[c] = o
		}
	}
	for _, e := range r.Candidate().Contexts {
		a.Candidate[e.Key] = e.Value
	}
	a.NeedsRepublish = r.NeedsRepublish()
	return a
}

// rawContexts is every context an installation holds with its stored
// frontier and register, as the traces compare them.
func rawContexts(r *model.Replica) map[string]ctxState {
	out := map[string]ctxState{}
	ctxs := r.Contexts()
	slices.Sort(ctxs)
	for _, c := range ctxs {
		out[c] = ctxState{Frontier: r.Frontier(c), Effective: r.Effective(c), Reg: toReg3(r.Reg(c)), Live: r.Live(c)}
	}
	return out
}
