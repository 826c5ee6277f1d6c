package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// MultiLoad is a full-state load over several relays: one Load per relay,
// each on its own connection, and one aggregate verdict. The aggregate is
// complete only when every relay's load is; a relay that failed, lapsed or
// could not prove completeness makes the whole load potentially incomplete
// (Full-State Load step 8, Read-Before-Write).
type MultiLoad struct {
	rules  *Rules
	relays []string
	loads  []*Load
}

// multiConn is the connection identity of a MultiLoad's relay, for
// LoadConfig.Connection.
type multiConn string

// RelayOut is a message to send to one relay.
type RelayOut struct {
	Relay string
	Out
}

// RelayResult is one relay's part of a MultiLoad result.
type RelayResult struct {
	Relay string
	LoadResult
}

// MultiResult is the aggregate verdict of a MultiLoad.
type MultiResult struct {
	Verdict Verdict
	// Reason is the reason of the first relay (in configuration order)
	// whose load is not complete.
	Reason Reason
	Detail string
	// Events merges every relay's collected coordinates by the retention
	// rule, one per d tag, sorted by d tag.
	Events   []*nostr.Event
	PerRelay []RelayResult
}

// Complete reports whether every relay's load is complete.
func (r MultiResult) Complete() bool { return r.Verdict == Complete }

// NewMultiLoad makes one load per relay with the same configuration;
// known lists the relays known not to conform. Relay names must be unique.
func NewMultiLoad(relays []string, cfg LoadConfig, known map[string]bool) (*MultiLoad, error) {
	if len(relays) == 0 {
		return nil, fmt.Errorf("load: no relay")
	}
	m := &MultiLoad{rules: cfg.Rules, relays: slices.Clone(relays)}
	if m.rules == nil {
		m.rules = Proposed()
	}
	seen := map[string]bool{}
	for _, r := range relays {
		if seen[r] {
			return nil, fmt.Errorf("load: relay %q listed twice", r)
		}
		seen[r] = true
		c := cfg
		c.KnownNonConforming = known[r]
		if c.Connection == nil {
			// Each relay is its own connection: an explicit prefix is
			// held per relay.
			c.Connection = multiConn(r)
		}
		l, err := NewLoad(c)
		if err != nil {
			for _, held := range m.loads {
				held.Abort("multi-load not built")
			}
			return nil, err
		}
		m.loads = append(m.loads, l)
	}
	return m, nil
}

// Relays lists the relays in configuration order.
func (m *MultiLoad) Relays() []string { return slices.Clone(m.relays) }

// Load returns the load of one relay, or nil.
func (m *MultiLoad) Load(relay string) *Load {
	if i := slices.Index(m.relays, relay); i >= 0 {
		return m.loads[i]
	}
	return nil
}

// Start starts every relay's load.
func (m *MultiLoad) Start() []RelayOut {
	var out []RelayOut
	for i, l := range m.loads {
		for _, o := range l.Start() {
			out = append(out, RelayOut{m.relays[i], o})
		}
	}
	return out
}

// Feed routes a message from one relay to its load. A message from a relay
// not in the load is ignored.
func (m *MultiLoad) Feed(relay string, in In) []Out {
	if l := m.Load(relay); l != nil {
		return l.Feed(in)
	}
	return nil
}

// Running reports whether any relay's load is still running.
func (m *MultiLoad) Running() bool {
	for _, l := range m.loads {
		if l.Running() {
			return true
		}
	}
	return false
}

// Result aggregates the relays' results.
func (m *MultiLoad) Result() MultiResult {
	res := MultiResult{Verdict: Complete}
	merged := map[string]*nostr.Event{}
	var notes []string
	for i, l := range m.loads {
		r := l.Result()
		res.PerRelay = append(res.PerRelay, RelayResult{m.relays[i], r})
		for _, ev := range r.Events {
			d := ev.Tags.GetD()
			if held, ok := merged[d]; !ok || m.rules.Load.Retain(held, ev) {
				merged[d] = ev
			}
		}
		switch {
		case r.Verdict == Running:
			res.Verdict = Running
		case r.Verdict != Complete && res.Verdict != Running:
			if res.Reason == ReasonNone {
				res.Reason = r.Reason
			}
			if r.Verdict == Failed || res.Verdict == Complete {
				res.Verdict = r.Verdict
			}
		}
		if r.Verdict != Complete {
			notes = append(notes, fmt.Sprintf("%s: %s (%s)", m.relays[i], r.Verdict, r.Reason))
		}
	}
	if res.Verdict == Running {
		res.Reason = ReasonNone
	}
	res.Detail = strings.Join(notes, "; ")
	for _, ev := range merged {
		res.Events = append(res.Events, ev)
	}
	slices.SortFunc(res.Events, func(a, b *nostr.Event) int { return strings.Compare(a.Tags.GetD(), b.Tags.GetD()) })
	return res
}
