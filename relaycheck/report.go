package relaycheck

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// Verdict is what the probe concluded about one check or requirement.
type Verdict string

const (
	Conforms Verdict = "conforms"
	Violates Verdict = "violates"
	Unknown  Verdict = "unknown"
)

// worse orders verdicts violates > unknown > conforms.
func worse(a, b Verdict) Verdict {
	rank := map[Verdict]int{Conforms: 0, Unknown: 1, Violates: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// Requirement is what a check bears on: one of the five relay requirements
// of the full-state load, or a NIP-01 behaviour the load relies on.
// The five are model's; the NIP-01 ones are the probe's own.
type Requirement = model.RelayRequirement

const (
	ReqPrefix                  = model.ReqPrefix
	ReqCap                     = model.ReqCap
	ReqFloor                   = model.ReqFloor
	ReqPush                    = model.ReqPush
	ReqBarrier                 = model.ReqBarrier
	ReqReplacement Requirement = "NIP-01 addressable replacement"
	ReqTags        Requirement = "NIP-01 tag filter"
)

// LoadRequirements are the requirements whose violation bars a full-state
// load (the gate); the others are reported for what they cost.
var LoadRequirements = []Requirement{ReqPrefix, ReqCap, ReqFloor, ReqPush, ReqBarrier}

var allRequirements = append(append([]Requirement{}, LoadRequirements...), ReqReplacement, ReqTags)

// Evidence is one exchange: the REQ sent (or the writes made) and what
// came back, each event as "created_at id d".
type Evidence struct {
	Sent string   `json:"sent"`
	Got  []string `json:"got"`
	Want string   `json:"want"`
}

// Check is one probe and its outcome.
type Check struct {
	ID          string      `json:"id"`
	Requirement Requirement `json:"requirement"`
	Verdict     Verdict     `json:"verdict"`
	Detail      string      `json:"detail"`
	Evidence    []Evidence  `json:"evidence,omitempty"`
}

// RequirementVerdict is the worst verdict of a requirement's checks.
type RequirementVerdict struct {
	Requirement Requirement `json:"requirement"`
	Verdict     Verdict     `json:"verdict"`
	Checks      []string    `json:"checks"`
}

// Report is the outcome of one probe run.
type Report struct {
	Relay        string               `json:"relay"`
	Requirements []RequirementVerdict `json:"requirements"`
	Checks       []Check              `json:"checks"`
	// BarrierTrials is how many times the barrier was tried.
	BarrierTrials int `json:"barrier_trials"`
	// Cleanup says what the deletion of the probe's events achieved.
	Cleanup string `json:"cleanup"`
}

// finish computes the per-requirement verdicts, in a fixed order.
func (r *Report) finish() {
	r.Requirements = nil
	for _, req := range allRequirements {
		rv := RequirementVerdict{Requirement: req, Verdict: Conforms}
		for _, c := range r.Checks {
			if c.Requirement == req {
				rv.Verdict = worse(rv.Verdict, c.Verdict)
				rv.Checks = append(rv.Checks, c.ID)
			}
		}
		if len(rv.Checks) == 0 {
			rv.Verdict = Unknown
		}
		r.Requirements = append(r.Requirements, rv)
	}
}

// Verdict is the report's overall verdict over the load requirements:
// violates if any is violated, unknown if any could not be observed,
// conforms otherwise.
func (r Report) Verdict() Verdict {
	v := Conforms
	for _, rv := range r.Requirements {
		for _, lr := range LoadRequirements {
			if rv.Requirement == lr {
				v = worse(v, rv.Verdict)
			}
		}
	}
	return v
}

// Violated lists the violated requirements, load requirements first.
func (r Report) Violated() []Requirement {
	var out []Requirement
	for _, rv := range r.Requirements {
		if rv.Verdict == Violates {
			out = append(out, rv.Requirement)
		}
	}
	return out
}

// JSON is the report as indented JSON.
func (r Report) JSON() ([]byte, error) { return json.MarshalIndent(r, "", "  ") }

// Text is the report for people: one line per requirement, then each
// check with its evidence.
func (r Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "relay %s: %s\n", r.Relay, r.Verdict())
	for _, rv := range r.Requirements {
		fmt.Fprintf(&b, "  %-32s %-9s (%s)\n", rv.Requirement, rv.Verdict, strings.Join(rv.Checks, ", "))
	}
	for _, c := range r.Checks {
		fmt.Fprintf(&b, "%s [%s] %s: %s\n", c.ID, c.Requirement, c.Verdict, c.Detail)
		for _, e := range c.Evidence {
			fmt.Fprintf(&b, "    sent %s\n    want %s\n", e.Sent, e.Want)
			if len(e.Got) == 0 {
				b.WriteString("    got  nothing\n")
			}
			for _, g := range e.Got {
				fmt.Fprintf(&b, "    got  %s\n", g)
			}
		}
	}
	fmt.Fprintf(&b, "barrier trials: %d; cleanup: %s\n", r.BarrierTrials, r.Cleanup)
	return b.String()
}

// describe is an event in evidence: "created_at id d".
func describe(ev *nostr.Event) string {
	return fmt.Sprintf("%d %s d=%s", ev.CreatedAt, ev.ID, ev.Tags.GetD())
}

func describeAll(evs []*nostr.Event) []string {
	out := make([]string, 0, len(evs))
	for _, ev := range evs {
		out = append(out, describe(ev))
	}
	return out
}
