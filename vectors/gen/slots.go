package gen

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

const secSlots = "d Tag; Override Group Co-Location Rule; Bounds and Budget; Eviction"

// slotsInput is a canonical candidate blob and a budget.
type slotsInput struct {
	ClientID string            `json:"client_id"`
	Contexts map[string]uint32 `json:"contexts"`
	Budget   slotsBudget       `json:"budget"`
	// Parents maps thread:/msg: contexts to their channel.
	Parents map[string]string `json:"parents,omitempty"`
	// LastPublished, when set, asks whether the split requires a
	// re-publish against this last publication.
	LastPublished map[string]uint32 `json:"last_published,omitempty"`
}

type slotsBudget struct {
	// PlaintextBytes bounds each coordinate's encoded blob (the compact
	// encoding: keys sorted, no whitespace).
	PlaintextBytes int   `json:"plaintext_bytes"`
	MaxCoordinates int   `json:"max_coordinates"`
	MaxEntries     int   `json:"max_entries"`
	Horizon        int64 `json:"horizon,omitempty"`
	Now            int64 `json:"now,omitempty"`
}

type slotsOutput struct {
	// Error is override_budget (the override-bearing groups do not fit the
	// primary: terminal), coordinate_limit or overflow.
	Error string `json:"error,omitempty"`
	// Blobs are the coordinates' contexts, the primary first.
	Blobs   []map[string]uint32 `json:"blobs,omitempty"`
	Evicted []slotsEviction     `json:"evicted,omitempty"`
	// NeedsRepublish answers last_published.
	NeedsRepublish *bool `json:"needs_republish,omitempty"`
}

type slotsEviction struct {
	Key    string `json:"key"`
	Value  uint32 `json:"value"`
	Reason string `json:"reason"`
}

func entriesOf(m map[string]uint32) []model.Entry {
	es := make([]model.Entry, 0, len(m))
	for k, v := range m {
		es = append(es, model.Entry{Key: k, Value: v})
	}
	return model.SortEntries(es)
}

func computeSlots(rules *model.Rules, raw json.RawMessage) (any, error) {
	var in slotsInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	b := model.Blob{V: 1, ClientID: in.ClientID, Contexts: entriesOf(in.Contexts)}
	budget := model.Budget{PlaintextBytes: in.Budget.PlaintextBytes, MaxCoordinates: in.Budget.MaxCoordinates,
		MaxEntries: in.Budget.MaxEntries, Horizon: in.Budget.Horizon, Now: in.Budget.Now}
	var parent model.ParentResolver
	if len(in.Parents) > 0 {
		parent = func(c string) (string, bool) { p, ok := in.Parents[c]; return p, ok }
	}
	sp, err := model.SplitBlob(rules, b, budget, parent)
	if err != nil {
		if code := splitError(err); code != "" {
			return slotsOutput{Error: code}, nil
		}
		return nil, err
	}
	var out slotsOutput
	for _, bl := range sp.Blobs {
		m := map[string]uint32{}
		for _, e := range bl.Contexts {
			m[e.Key] = e.Value
		}
		out.Blobs = append(out.Blobs, m)
	}
	for _, e := range sp.Evicted {
		out.Evicted = append(out.Evicted, slotsEviction{Key: e.Key, Value: e.Value, Reason: e.Reason.String()})
	}
	if in.LastPublished != nil {
		r := rules.Slots.Republish(b.Contexts, sp.Entries(), entriesOf(in.LastPublished))
		out.NeedsRepublish = &r
	}
	return out, nil
}

func slotsKind() Kind {
	return Kind{
		Name:        "slots",
		Description: "The slot split of one canonical candidate blob under a budget: which entries go to the primary and to each additional coordinate, what is evicted and why, and the refusals.",
		HowToRun:    "Split input.contexts (client_id input.client_id, v 1) under input.budget with input.parents resolving thread:/msg: contexts; compare blobs (the primary first), evicted (key, value, reason: dominated, horizon or budget) or error; with last_published, also whether a re-publish is needed.",
		Cases:       slotsCases,
		Compute:     computeSlots,
	}
}

func slotsCases() ([]Case, error) {
	var cs []Case
	add := func(id, desc string, in slotsInput) {
		cs = append(cs, Case{ID: "slots/" + id, Section: secSlots, Description: desc, Input: in})
	}
	small := slotsBudget{PlaintextBytes: 90, MaxCoordinates: 4, MaxEntries: 10000}
	th := hexThread
	add("fits-primary", "everything fits in the primary", slotsInput{ClientID: "me", Contexts: map[string]uint32{"a": 1, "b": 2}, Budget: slotsBudget{PlaintextBytes: 32768, MaxCoordinates: 8, MaxEntries: 10000}})
	add("group-stays-whole", "an override group and its frontier entry travel together to the primary",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"a": 1, "b": 2, "c": 3, "ov_s:c": 2, "ov_c:c": 1, "ov_b:c": 3}, Budget: small})
	add("escaped-grouped-raw", "an escaped frontier key groups with the override keys of its raw id, so it stays in the primary",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"a": 1, "bbbbbbbbbbbbb": 1, "esc:ov_x": 7, "ov_c:ov_x": 4}, Budget: slotsBudget{PlaintextBytes: 75, MaxCoordinates: 4, MaxEntries: 10000}})
	add("overrides-primary-only", "groups with overrides sort after frontier-only ones but still go to the primary",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"a": 100, "b": 200, "zz": 5, "ov_c:zz": 9}, Budget: slotsBudget{PlaintextBytes: 60, MaxCoordinates: 4, MaxEntries: 10000}})
	add("override-budget", "override groups that do not fit the primary: terminal, nothing is dropped",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"ov_c:a": 1, "ov_c:b": 1, "ov_c:c": 1, "ov_c:d": 1}, Budget: slotsBudget{PlaintextBytes: 60, MaxCoordinates: 4, MaxEntries: 10000}})
	add("overrides-never-evicted", "at the coordinate limit frontier entries are evicted, never ov_* entries",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"a": 1, "b": 2, "c": 3, "ov_c:c": 9, "d": 4}, Budget: slotsBudget{PlaintextBytes: 70, MaxCoordinates: 1, MaxEntries: 10000}})
	add("evict-msg-first", "budget eviction takes msg: before thread: before other contexts",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"a": 1, th: 2, hexMsg: 3}, Budget: slotsBudget{PlaintextBytes: 110, MaxCoordinates: 1, MaxEntries: 10000}})
	add("dominated-child", "a thread entry at or below its channel is evicted as dominated",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"chan": 9, th: 9}, Parents: map[string]string{th: "chan"}, Budget: small})
	add("newer-child-kept", "a thread entry newer than its channel is kept",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"chan": 9, th: 10}, Parents: map[string]string{th: "chan"}, Budget: slotsBudget{PlaintextBytes: 32768, MaxCoordinates: 8, MaxEntries: 10000}})
	add("dominated-no-republish", "an entry eviction drops does not by itself require a re-publish",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"chan": 9, th: 3}, Parents: map[string]string{th: "chan"}, Budget: small, LastPublished: map[string]uint32{"chan": 9}})
	add("changed-republish", "a changed entry requires a re-publish",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"chan": 10}, Budget: small, LastPublished: map[string]uint32{"chan": 9}})
	add("horizon", "with a horizon, frontier entries older than it are dropped, overrides kept",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"old": 10, "new": 1000, "ov_c:old": 2}, Budget: slotsBudget{PlaintextBytes: 32768, MaxCoordinates: 8, MaxEntries: 10000, Horizon: 100, Now: 1050}})
	add("max-entries", "the entry limit per coordinate splits too",
		slotsInput{ClientID: "me", Contexts: map[string]uint32{"a": 1, "b": 2, "c": 3}, Budget: slotsBudget{PlaintextBytes: 32768, MaxCoordinates: 8, MaxEntries: 2}})
	for i := range 80 {
		add(fmt.Sprintf("random-%02d", i), "a seeded random candidate and budget", randomSlots(rand.New(rand.NewPCG(uint64(i), 2502))))
	}
	return cs, nil
}

func randomSlots(rng *rand.Rand) slotsInput {
	chans := []string{"c0", "c1", "c2", "c3", "ov_q", "esc:z"}
	in := slotsInput{ClientID: "me", Contexts: map[string]uint32{}, Parents: map[string]string{}}
	n := 2 + rng.IntN(8)
	for range n {
		ch := chans[rng.IntN(len(chans))]
		ctx := ch
		switch rng.IntN(4) {
		case 0:
			ctx = "thread:" + strings.Repeat(fmt.Sprintf("%02x", rng.IntN(256)), 32)
			in.Parents[ctx] = ch
		case 1:
			ctx = "msg:" + strings.Repeat(fmt.Sprintf("%02x", rng.IntN(256)), 32)
			in.Parents[ctx] = ch
		}
		v := uint32(rng.IntN(20))
		in.Contexts[model.EscapeKey(ctx)] = v
		switch rng.IntN(5) {
		case 0:
			in.Contexts[model.PrefixC+ctx] = uint32(1 + rng.IntN(5))
		case 1:
			in.Contexts[model.PrefixS+ctx], in.Contexts[model.PrefixC+ctx], in.Contexts[model.PrefixB+ctx] = 3, 1, v
		}
	}
	in.Budget = slotsBudget{PlaintextBytes: 60 + rng.IntN(400), MaxCoordinates: 1 + rng.IntN(4), MaxEntries: 2 + rng.IntN(8)}
	if rng.IntN(3) == 0 {
		in.LastPublished = map[string]uint32{}
		for _, k := range slices.Sorted(maps.Keys(in.Contexts)) {
			if rng.IntN(2) == 0 {
				in.LastPublished[k] = in.Contexts[k]
			}
		}
	}
	if len(in.Parents) == 0 {
		in.Parents = nil
	}
	return in
}
