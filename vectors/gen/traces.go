package gen

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/nip-rs/harness/model"
)

const secTraces = "Merge Rule; Mandatory Canonical Publication; Live Subscription and Convergence; Legacy Clients"

// tracesInput is several installations of one user and a sequence of
// actions, publications and deliveries.
type tracesInput struct {
	// Devices are the installations' client_ids; Legacy marks those
	// without the override layer (they carry unknown keys opaquely).
	Devices []traceDevice `json:"devices"`
	// Budget, when set, splits every publication over coordinates
	// (Bounds and Budget): each coordinate's blob is a publication of its
	// own, numbered in order, the primary first.
	Budget *traceBudget `json:"budget,omitempty"`
	// Parents resolves thread:/msg: contexts to their parent channel
	// (Hierarchical Frontier Rule) on every installation.
	Parents map[string]string `json:"parents,omitempty"`
	Steps   []traceStep       `json:"steps"`
}

type traceBudget struct {
	PlaintextBytes int `json:"plaintext_bytes"`
	MaxCoordinates int `json:"max_coordinates"`
}

type traceDevice struct {
	ClientID string `json:"client_id"`
	Legacy   bool   `json:"legacy,omitempty"`
	// DropOverrides makes a legacy device discard ov_* keys on receipt
	// instead of carrying them (the formal note's legacy model; production
	// legacy clients carry them).
	DropOverrides bool `json:"drop_overrides,omitempty"`
}

// traceStep is one event of a trace: an action on Device (advance,
// mark_unread, mark_read, compact), a publication by Device (publish: the
// plaintext it would write now, numbered in order from 0), or the
// delivery of publication Publication to Device (deliver; a publication may
// be delivered any number of times, in any order).
type traceStep struct {
	Do          string `json:"do"`
	Device      int    `json:"device"`
	Ctx         string `json:"ctx,omitempty"`
	TS          uint32 `json:"ts,omitempty"`
	Publication int    `json:"publication,omitempty"`
}

type traceAfter struct {
	Error string `json:"error,omitempty"`
	// Published is the exact plaintext of a publish step.
	Published string `json:"published,omitempty"`
	// Parts are the exact plaintexts of a split publish step, the
	// primary first; PartsFrom is the number of the first.
	Parts     []string `json:"parts,omitempty"`
	PartsFrom int      `json:"parts_from,omitempty"`
	// Devices is every installation's state after the step.
	Devices []map[string]ctxState `json:"devices"`
}

func computeTraces(rules *model.Rules, raw json.RawMessage) (any, error) {
	var in tracesInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	devs := make([]*model.Replica, len(in.Devices))
	for i, d := range in.Devices {
		switch {
		case d.Legacy && d.DropOverrides:
			devs[i] = model.NewLegacyReplica(d.ClientID, model.LegacyDropOverrides)
		case d.Legacy:
			devs[i] = model.NewLegacyReplica(d.ClientID, model.LegacyCarry)
		default:
			devs[i] = model.NewReplica(d.ClientID)
		}
		devs[i].Rules = rules
		if len(in.Parents) > 0 {
			devs[i].Parent = func(c string) (string, bool) { p, ok := in.Parents[c]; return p, ok }
		}
	}
	var pubs [][]byte
	var out []traceAfter
	for i, s := range in.Steps {
		if s.Device < 0 || s.Device >= len(devs) {
			return nil, fmt.Errorf("step %d: device %d", i, s.Device)
		}
		r := devs[s.Device]
		var a traceAfter
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
			if in.Budget == nil {
				pt := model.EncodeBlob(r.Publish())
				pubs = append(pubs, pt)
				a.Published = string(pt)
				break
			}
			sp, serr := r.PublishSplit(model.Budget{PlaintextBytes: in.Budget.PlaintextBytes, MaxCoordinates: in.Budget.MaxCoordinates})
			if serr != nil {
				a.Error = splitError(serr)
				if a.Error == "" {
					return nil, fmt.Errorf("step %d: %w", i, serr)
				}
				break
			}
			a.PartsFrom = len(pubs)
			for _, b := range sp.Blobs {
				pt := model.EncodeBlob(b)
				pubs = append(pubs, pt)
				a.Parts = append(a.Parts, string(pt))
			}
		case "deliver":
			if s.Publication < 0 || s.Publication >= len(pubs) {
				return nil, fmt.Errorf("step %d: publication %d", i, s.Publication)
			}
			parse := model.ParseBlobWith
			if r.Legacy {
				parse = model.ParseBlobLegacy
			}
			b, _, perr := parse(rules, pubs[s.Publication])
			if perr == nil {
				r.Receive(b)
			}
		default:
			return nil, fmt.Errorf("step %d: unknown step %q", i, s.Do)
		}
		if err != nil {
			a.Error = actionError(err)
		}
		for _, d := range devs {
			a.Devices = append(a.Devices, rawContexts(d))
		}
		out = append(out, a)
	}
	return out, nil
}

func tracesKind() Kind {
	return Kind{
		Name:        "traces",
		Description: "Several installations of one user (upgraded and legacy): actions, publications and deliveries, with duplicates and reordering, and every installation's state and the exact published plaintext after each step.",
		HowToRun:    "Create one installation per input.devices entry (legacy ones without the override layer, carrying unknown keys as opaque contexts, or with drop_overrides discarding ov_* keys on receipt); input.parents, when present, resolves thread:/msg: contexts to their parent channel on every installation. Replay input.steps: actions on a device, publish (serialise the device's canonical blob compactly, keys sorted, members v, client_id, contexts in that order; publications are numbered from 0; with input.budget, split the candidate over coordinates under that plaintext budget and coordinate count, each coordinate's blob a publication of its own, the primary first), deliver (parse publication n and merge it into the device; a publication may be delivered any number of times, in any order). After step i compare expected[i]: the action's or the split's error, the exact published plaintext (or, split, the parts and the number of the first), and per device every context's frontier, effective frontier, register and liveness.",
		Cases:       tracesCases,
		Compute:     computeTraces,
	}
}

func tracesCases() ([]Case, error) {
	var cs []Case
	devs := []traceDevice{{ClientID: "phone"}, {ClientID: "desk"}, {ClientID: "old", Legacy: true}}
	cs = append(cs, Case{ID: "traces/floor-through-legacy", Section: secTraces,
		Description: "a mark-read's tombstone floor reaches the other upgraded device through a legacy device's republication",
		Input: tracesInput{Devices: devs, Steps: []traceStep{
			{Do: "advance", Device: 0, Ctx: "c", TS: 100}, {Do: "mark_unread", Device: 0, Ctx: "c"}, {Do: "publish", Device: 0},
			{Do: "deliver", Device: 1, Publication: 0}, {Do: "deliver", Device: 2, Publication: 0},
			{Do: "mark_read", Device: 1, Ctx: "c", TS: 150}, {Do: "publish", Device: 1},
			{Do: "deliver", Device: 2, Publication: 1}, {Do: "publish", Device: 2},
			{Do: "deliver", Device: 0, Publication: 2}, {Do: "deliver", Device: 0, Publication: 0},
		}}})
	for i := range 40 {
		cs = append(cs, Case{ID: fmt.Sprintf("traces/random-%02d", i), Section: secTraces,
			Description: "a seeded random trace of three installations, one of them legacy",
			Input:       randomTrace(rand.New(rand.NewPCG(uint64(i), 2503)), devs)})
	}
	cs = append(cs, universeTraceCases()...)
	wit, _, err := witnessTraceCases()
	if err != nil {
		return nil, err
	}
	return append(cs, wit...), nil
}

func randomTrace(rng *rand.Rand, devs []traceDevice) tracesInput {
	ctxs := []string{"c", "ov_q"}
	in := tracesInput{Devices: devs}
	pubs := 0
	for range 8 + rng.IntN(7) {
		d, c := rng.IntN(len(devs)), ctxs[rng.IntN(len(ctxs))]
		switch k := rng.IntN(8); {
		case k < 2:
			in.Steps = append(in.Steps, traceStep{Do: "advance", Device: d, Ctx: c, TS: uint32(rng.IntN(5))})
		case k == 2 && !devs[d].Legacy: // a legacy client has no mark-unread
			in.Steps = append(in.Steps, traceStep{Do: "mark_unread", Device: d, Ctx: c})
		case k == 3:
			in.Steps = append(in.Steps, traceStep{Do: "mark_read", Device: d, Ctx: c, TS: uint32(rng.IntN(5))})
		case k == 4 || pubs == 0:
			in.Steps = append(in.Steps, traceStep{Do: "publish", Device: d})
			pubs++
		default:
			in.Steps = append(in.Steps, traceStep{Do: "deliver", Device: d, Publication: rng.IntN(pubs)})
		}
	}
	return in
}

// splitError is the reason code of a refused split, or empty for an error
// that is not a refusal.
func splitError(err error) string {
	for _, s := range splitErrors {
		if errors.Is(err, s.err) {
			return s.code
		}
	}
	return ""
}

// splitErrors maps the slot split's refusals to codes.
var splitErrors = []struct {
	err  error
	code string
}{
	{model.ErrOverrideBudget, "override_budget"},
	{model.ErrCoordinateLimit, "coordinate_limit"},
	{model.ErrSplitOverflow, "overflow"},
}

// SplitErrorCodes lists every code splitError gives.
func SplitErrorCodes() []string {
	var out []string
	for _, s := range splitErrors {
		out = append(out, s.code)
	}
	return out
}
