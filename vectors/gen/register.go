package gen

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nip-rs/harness/model"
)

// reg3 is a register on the wire of a vector: [S, C, B].
type reg3 [3]uint32

func (r reg3) reg() model.Reg  { return model.Reg{S: r[0], C: r[1], B: r[2]} }
func toReg3(g model.Reg) reg3  { return reg3{g.S, g.C, g.B} }
func regPtr(g model.Reg) *reg3 { r := toReg3(g); return &r }
func boolPtr(b bool) *bool     { return &b }
func u32Ptr(v uint32) *uint32  { return &v }

// registerInput is one register vector; Op says which fields apply.
type registerInput struct {
	// Op is join, live, canonical, mark_unread, mark_read, channel_read or
	// script.
	Op       string  `json:"op"`
	A        *reg3   `json:"a,omitempty"`
	B        *reg3   `json:"b,omitempty"`
	Reg      *reg3   `json:"reg,omitempty"`
	Frontier *uint32 `json:"frontier,omitempty"`
	// Tie is "clear" (the conforming policy, the one a client runs) or
	// "set" (for comparison only) on live vectors.
	Tie      string           `json:"tie,omitempty"`
	Messages []channelMessage `json:"messages,omitempty"`
	// Parents maps thread:/msg: contexts to their channel (script).
	Parents map[string]string `json:"parents,omitempty"`
	Steps   []step            `json:"steps,omitempty"`
}

type channelMessage struct {
	CreatedAt uint32 `json:"created_at"`
	TopLevel  bool   `json:"top_level"`
}

type registerOutput struct {
	Reg   *reg3  `json:"reg,omitempty"`
	Live  *bool  `json:"live,omitempty"`
	Shape string `json:"shape,omitempty"`
	// Error is the refusal code of an action: counter_ceiling (mark-unread
	// or mark-read at the uint32 ceiling), still_active (mark-read at the
	// ceiling left the override active; the action is reported failed) or
	// key_too_long (mark-unread on a context whose ov_* keys would exceed
	// 256 bytes).
	Error string      `json:"error,omitempty"`
	TS    *uint32     `json:"ts,omitempty"`
	OK    *bool       `json:"ok,omitempty"`
	After []stepAfter `json:"after,omitempty"`
}

// actionErrors maps an action's refusal to its code, first match wins
// (a still-active mark-read also wraps the ceiling error).
var actionErrors = []struct {
	err  error
	code string
}{
	{model.ErrStillActive, "still_active"},
	{model.ErrCounterCeiling, "counter_ceiling"},
	{model.ErrKeyTooLong, "key_too_long"},
}

// ActionErrorCodes lists every code actionError gives for a refusal.
func ActionErrorCodes() []string {
	var out []string
	for _, a := range actionErrors {
		out = append(out, a.code)
	}
	return out
}

// actionError maps an action's error to its code; an error no code
// covers is spelled out, so that it shows as a code the vocabulary lacks.
func actionError(err error) string {
	if err == nil {
		return ""
	}
	for _, a := range actionErrors {
		if errors.Is(err, a.err) {
			return a.code
		}
	}
	return "error: " + err.Error()
}

func computeRegister(rules *model.Rules, raw json.RawMessage) (any, error) {
	var in registerInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	need := func(ps ...any) error {
		for _, p := range ps {
			switch p := p.(type) {
			case *reg3:
				if p == nil {
					return fmt.Errorf("%s: missing register", in.Op)
				}
			case *uint32:
				if p == nil {
					return fmt.Errorf("%s: missing frontier", in.Op)
				}
			}
		}
		return nil
	}
	switch in.Op {
	case "join":
		if err := need(in.A, in.B); err != nil {
			return nil, err
		}
		return registerOutput{Reg: regPtr(rules.Join(in.A.reg(), in.B.reg()))}, nil
	case "live":
		if err := need(in.Reg, in.Frontier); err != nil {
			return nil, err
		}
		var live bool
		switch in.Tie {
		case "clear":
			live = rules.IsLive(in.Reg.reg(), *in.Frontier) // the rule set's own, conforming, policy
		case "set":
			live = rules.Live(in.Reg.reg(), *in.Frontier, model.SetWins)
		default:
			return nil, fmt.Errorf("live: tie %q", in.Tie)
		}
		return registerOutput{Live: &live}, nil
	case "canonical":
		if err := need(in.Reg, in.Frontier); err != nil {
			return nil, err
		}
		g, f := in.Reg.reg(), *in.Frontier
		c, shape := rules.Canonical(g, f, rules.IsLive(g, f))
		return registerOutput{Reg: regPtr(c), Shape: shape.String()}, nil
	case "mark_unread":
		if err := need(in.Reg, in.Frontier); err != nil {
			return nil, err
		}
		// A register vector is a context with a frontier entry: one that was read.
		g, err := rules.MarkUnread(in.Reg.reg(), *in.Frontier, true)
		return registerOutput{Reg: regPtr(g), Error: actionError(err)}, nil
	case "mark_read":
		if err := need(in.Reg, in.Frontier); err != nil {
			return nil, err
		}
		g, f := in.Reg.reg(), *in.Frontier
		n, err := rules.MarkRead(g, f, rules.IsLive(g, f))
		return registerOutput{Reg: regPtr(n), Error: actionError(err)}, nil
	case "channel_read":
		msgs := make([]model.ChannelMessage, len(in.Messages))
		for i, m := range in.Messages {
			msgs[i] = model.ChannelMessage{CreatedAt: m.CreatedAt, TopLevel: m.TopLevel}
		}
		ts, ok := rules.Slots.ChannelRead(msgs)
		return registerOutput{TS: &ts, OK: &ok}, nil
	case "script":
		after, err := runScript(rules, in.Parents, in.Steps)
		if err != nil {
			return nil, err
		}
		return registerOutput{After: after}, nil
	}
	return nil, fmt.Errorf("unknown register op %q", in.Op)
}

func registerKind() Kind {
	return Kind{
		Name:        "register",
		Description: "The override register (S, C, B) of one context: join, liveness under each tie policy, canonical form, the actions with their uint32 ceiling refusals, the channel-read target, and scripts of one installation's actions and receipts with its state and canonical candidate blob after every step.",
		HowToRun:    "Dispatch on input.op. Registers are [S, C, B]. join: merge a and b. live: the liveness predicate of reg at frontier under tie (a conforming client uses clear; set is for comparison). canonical: the publication form of reg at frontier (shape omit, live or floor). mark_unread: the action on reg at effective frontier. mark_read: the action on reg after the frontier advanced to frontier. channel_read: the timestamp a channel read advances to. script: replay steps on a fresh installation with client_id \"me\" and compare after[i] with your state after step i: the action's error, contexts (the effective frontier and liveness of every context read or kept unread; a context with neither is absent), the canonical candidate blob and needs_republish; registers (each stored context's raw frontier and [S, C, B]) is compared by the full profile only, since a client storing registers canonically holds others with the same behaviour.",
		Cases:       registerCases,
		Compute:     computeRegister,
	}
}
