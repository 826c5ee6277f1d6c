package vectorgen

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

// ctxState is one context of an installation after a step.
type ctxState struct {
	Frontier  uint32 `json:"frontier"`
	Effective uint32 `json:"effective"`
	Reg       reg3   `json:"reg"`
	Live      bool   `json:"live"`
}

// stepAfter is the installation after one step.
type stepAfter struct {
	Error    string              `json:"error,omitempty"`
	Contexts map[string]ctxState `json:"contexts"`
	// Candidate is the canonical blob's contexts the installation would
	// publish now (frontier keys escaped).
	Candidate map[string]uint32 `json:"candidate"`
	// NeedsRepublish says whether the candidate differs from the last
	// publication.
	NeedsRepublish bool `json:"needs_republish"`
}

// ScriptClientID is the client_id of a script's installation.
const ScriptClientID = "me"

func runScript(rules *model.Rules, parents map[string]string, steps []step) ([]stepAfter, error) {
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
		out = append(out, snapshot(r, actionError(err)))
	}
	return out, nil
}

func snapshot(r *model.Replica, errCode string) stepAfter {
	a := stepAfter{Error: errCode, Contexts: map[string]ctxState{}, Candidate: map[string]uint32{}}
	ctxs := r.Contexts()
	slices.Sort(ctxs)
	for _, c := range ctxs {
		a.Contexts[c] = ctxState{Frontier: r.Frontier(c), Effective: r.Effective(c), Reg: toReg3(r.Reg(c)), Live: r.Live(c)}
	}
	for _, e := range r.Candidate().Contexts {
		a.Candidate[e.Key] = e.Value
	}
	a.NeedsRepublish = r.NeedsRepublish()
	return a
}
