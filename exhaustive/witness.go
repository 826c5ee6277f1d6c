package exhaustive

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Witness is a violation that can be replayed: for the explorer, the
// universe and the actions from its initial state; for a directed check,
// the check and its parameter point. Its JSON form is the witness file.
type Witness struct {
	Kind      string       `json:"kind"` // "explore" or "directed"
	Universe  string       `json:"universe,omitempty"`
	Depth     int          `json:"depth,omitempty"`
	Check     string       `json:"check,omitempty"`
	Tie       string       `json:"tie"`
	Rules     string       `json:"rules"`
	Invariant string       `json:"invariant"`
	Detail    string       `json:"detail"`
	Actions   []actionJSON `json:"actions,omitempty"`
	Point     Params       `json:"point,omitempty"`

	text string // the rendering, when the witness was found in this process
}

// Witness kinds.
const (
	KindExplore  = "explore"
	KindDirected = "directed"
)

// ErrBadWitness marks a witness that does not parse or does not fit its
// universe or check: an input error, not a violation.
var ErrBadWitness = errors.New("bad witness")

func badWitness(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrBadWitness, fmt.Sprintf(format, a...))
}

// ParseWitness reads a witness file.
func ParseWitness(data []byte) (*Witness, error) {
	var w Witness
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, badWitness("%v", err)
	}
	if dec.More() {
		return nil, badWitness("trailing data after the witness object")
	}
	if w.Invariant == "" {
		return nil, badWitness("no invariant named")
	}
	return &w, nil
}

// JSON is the witness file content (indented, newline-terminated).
func (w *Witness) JSON() []byte {
	b, _ := json.MarshalIndent(w, "", "  ") // plain data always marshals
	return append(b, '\n')
}

// ReplayResult is what replaying a witness found.
type ReplayResult struct {
	// Reproduced is true when the witness's invariant failed again.
	Reproduced bool
	// Found lists every violation the replay observed.
	Found []string
	// Text is the witness rendered step by step.
	Text string
}

// Replay re-runs a witness through the same code that found it. An error
// (wrapping ErrBadWitness) means the witness does not fit; otherwise the
// result says whether its invariant failed again.
func Replay(w *Witness) (*ReplayResult, error) {
	switch w.Kind {
	case KindExplore:
		return replayExplore(w)
	case KindDirected:
		return replayDirected(w)
	}
	return nil, badWitness("unknown kind %q (want %s or %s)", w.Kind, KindExplore, KindDirected)
}

// witnessSetup is the witness's rule set under the witness's tie policy.
func witnessSetup(w *Witness) (*model.Rules, error) {
	tie, err := model.ParseTiePolicy(w.Tie)
	if err != nil {
		return nil, badWitness("%v", err)
	}
	rules, err := LookupRules(w.Rules)
	if err != nil {
		return nil, badWitness("%v", err)
	}
	return rules.WithTie(tie), nil
}

// witness builds the explorer witness of a hit.
func (x *explorer) witness(h hit) *Witness {
	var path []int
	if h.parent >= 0 {
		path = x.store.path(h.parent)
	}
	if h.trans >= 0 {
		path = append(path, h.trans)
	}
	tr, err := runTrace(x.u, x.cfg.Rules, path)
	if err != nil {
		panic("exhaustive: a stored path does not replay: " + err.Error()) // an internal inconsistency
	}
	w := &Witness{Kind: KindExplore, Universe: x.u.Name, Depth: x.cfg.Depth, Tie: x.cfg.Rules.Tie.String(),
		Rules: x.cfg.Rules.Name, Invariant: h.f.Invariant, Detail: h.f.Detail}
	if h.f.Invariant == InvRegression && len(tr.actions) > 0 {
		w.Detail = fmt.Sprintf("%s lowered a frontier of d%d", tr.actions[len(tr.actions)-1], tr.actions[len(tr.actions)-1].Device)
	}
	for _, a := range tr.actions {
		w.Actions = append(w.Actions, a.toJSON())
	}
	var b strings.Builder
	tr.render(&b, x.u, w)
	w.text = b.String()
	return w
}

// trace is a sequence of transitions executed on replicas, with the device
// views before the first and after every step.
type trace struct {
	actions []Action
	views   [][]deviceView
	regress []bool
	final   []*model.Replica
}

// runTrace executes transition indices from the initial state.
func runTrace(u *Universe, rules *model.Rules, path []int) (*trace, error) {
	reps := make([]*model.Replica, len(u.Devices))
	for i, spec := range u.Devices {
		reps[i] = newReplica(spec, rules)
	}
	tr := &trace{views: [][]deviceView{views(u, rules, reps)}}
	for k, t := range path {
		if t < 0 || t >= u.numTransitions() {
			return nil, fmt.Errorf("step %d: no transition %d", k+1, t)
		}
		a, before, ok := u.apply(reps, t)
		if !ok {
			return nil, fmt.Errorf("step %d: %s is not enabled", k+1, a)
		}
		tr.actions = append(tr.actions, a)
		tr.regress = append(tr.regress, a.Kind != KindReinstall && frontierRegressed(before, reps[a.Device]))
		tr.views = append(tr.views, views(u, rules, reps))
	}
	tr.final = reps
	return tr, nil
}

// apply executes transition t on the replicas, returning the action, the
// changed device's state before it, and whether it was enabled.
func (u *Universe) apply(reps []*model.Replica, t int) (Action, *model.Replica, bool) {
	dev, slot, from := u.transition(t)
	before := reps[dev].Clone()
	if slot >= 0 {
		a, ok := u.applyLocal(reps[dev], dev, slot)
		return a, before, ok
	}
	reps[dev].Receive(publish(reps[from]))
	return Action{Kind: KindDeliver, Device: dev, From: from}, before, true
}

// resolve finds the transition an action names in the current state.
func (u *Universe) resolve(reps []*model.Replica, a Action) (int, error) {
	n := len(u.Devices)
	if a.Device < 0 || a.Device >= n {
		return 0, fmt.Errorf("device %d out of range (universe %q has %d)", a.Device, u.Name, n)
	}
	if a.Kind == KindDeliver {
		if a.From < 0 || a.From >= n || a.From == a.Device {
			return 0, fmt.Errorf("bad delivery d%d->d%d", a.From, a.Device)
		}
		return u.deliverIndex(a.From, a.Device), nil
	}
	for s := range u.slotsPerDevice() {
		k, ctx := u.slot(s)
		if k != a.Kind || ctx != a.Ctx {
			continue
		}
		trial := reps[a.Device].Clone()
		got, ok := u.applyLocal(trial, a.Device, s)
		if !ok {
			return 0, fmt.Errorf("%s is not enabled here", a)
		}
		if got.Value != a.Value {
			return 0, fmt.Errorf("%s: the universe moves %s to %d here, not %d", a, a.Ctx, got.Value, a.Value)
		}
		return a.Device*u.slotsPerDevice() + s, nil
	}
	return 0, fmt.Errorf("universe %q has no transition %s", u.Name, a)
}

func replayExplore(w *Witness) (*ReplayResult, error) {
	u, err := LookupUniverse(w.Universe)
	if err != nil {
		return nil, badWitness("%v", err)
	}
	if u.Network != nil {
		return replayNetwork(w, u)
	}
	rules, err := witnessSetup(w)
	if err != nil {
		return nil, err
	}
	if len(w.Actions) == 0 && w.Invariant == InvRegression {
		return nil, badWitness("a frontier regression needs at least one action")
	}
	reps := make([]*model.Replica, len(u.Devices))
	for i, spec := range u.Devices {
		reps[i] = newReplica(spec, rules)
	}
	var path []int
	for k, j := range w.Actions {
		a, err := j.action()
		if err != nil {
			return nil, badWitness("step %d: %v", k+1, err)
		}
		t, err := u.resolve(reps, a)
		if err != nil {
			return nil, badWitness("step %d: %v", k+1, err)
		}
		u.apply(reps, t)
		path = append(path, t)
	}
	tr, err := runTrace(&u, rules, path)
	if err != nil {
		return nil, badWitness("%v", err)
	}
	var found []finding
	for k, r := range tr.regress {
		if r {
			found = append(found, finding{InvRegression, fmt.Sprintf("step %d (%s) lowered a frontier", k+1, tr.actions[k])})
		}
	}
	e := newEngine(&u, rules)
	ids := make([]int32, len(u.Devices))
	for i, r := range tr.final {
		ids[i] = e.internLocked(i, r.Clone())
	}
	fs, _ := e.newCache().stateChecks(ids, permutations(len(u.Devices)))
	found = append(found, fs...)

	res := &ReplayResult{}
	var b strings.Builder
	tr.render(&b, &u, w)
	for _, f := range found {
		res.Found = append(res.Found, f.Invariant+": "+f.Detail)
		if f.Invariant == w.Invariant {
			res.Reproduced = true
		}
	}
	res.Text = b.String()
	return res, nil
}

// Text renders a witness. An explorer witness shows the initial state in
// full, then every step with its action and only the fields it changed,
// then the violation; one read from a file is replayed to render it, so its
// rule set must be registered (RegisterRules).
func (w *Witness) Text() (string, error) {
	if w.Kind == KindDirected {
		return w.directedText(), nil
	}
	if w.text != "" {
		return w.text, nil
	}
	r, err := replayExplore(w)
	if err != nil {
		return "", err
	}
	return r.Text, nil
}

func (tr *trace) render(b *strings.Builder, u *Universe, w *Witness) {
	fmt.Fprintf(b, "witness %s: universe %s, depth bound %d, tie %s, rules %s\n", w.Invariant, u.Name, w.Depth, w.Tie, w.Rules)
	b.WriteString("initial state:\n")
	for d, v := range tr.views[0] {
		fmt.Fprintf(b, "  d%d %s\n", d, v.full(u))
	}
	for k, a := range tr.actions {
		fmt.Fprintf(b, "step %d: %s\n", k+1, a)
		changes := diffViews(u, tr.views[k], tr.views[k+1])
		if len(changes) == 0 {
			b.WriteString("  (no change)\n")
		}
		for _, c := range changes {
			fmt.Fprintf(b, "  %s\n", c)
		}
	}
	fmt.Fprintf(b, "violation %s: %s\n", w.Invariant, w.Detail)
}

// deviceView is what a witness shows of a device.
type deviceView struct {
	client string
	legacy bool
	ctx    []ctxView
}

type ctxView struct {
	f    uint32
	hasF bool
	reg  model.Reg
	live bool
}

func views(u *Universe, rules *model.Rules, reps []*model.Replica) []deviceView {
	out := make([]deviceView, len(reps))
	for i, r := range reps {
		v := deviceView{client: r.ClientID, legacy: r.Legacy}
		for _, ctx := range u.Contexts {
			c := ctxView{f: r.Frontier(ctx), hasF: r.HasFrontier(ctx), reg: r.Reg(ctx)}
			if !r.Legacy {
				c.live = rules.IsLive(c.reg, r.Effective(ctx))
			}
			v.ctx = append(v.ctx, c)
		}
		out[i] = v
	}
	return out
}

func (c ctxView) frontier() string {
	if !c.hasF {
		return "-"
	}
	return fmt.Sprint(c.f)
}

func (v deviceView) full(u *Universe) string {
	kind := "upgraded"
	if v.legacy {
		kind = "legacy"
	}
	parts := []string{fmt.Sprintf("%s client_id=%s", kind, v.client)}
	for i, ctx := range u.Contexts {
		c := v.ctx[i]
		if v.legacy {
			parts = append(parts, fmt.Sprintf("%s: f=%s", ctx, c.frontier()))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: f=%s reg=%v %s", ctx, c.frontier(), c.reg, verdict(c.live)))
	}
	return strings.Join(parts, "  ")
}

func diffViews(u *Universe, a, b []deviceView) []string {
	var out []string
	for d := range a {
		if a[d].client != b[d].client {
			out = append(out, fmt.Sprintf("d%d client_id %s -> %s", d, a[d].client, b[d].client))
		}
		for i, ctx := range u.Contexts {
			x, y := a[d].ctx[i], b[d].ctx[i]
			var ch []string
			if x.f != y.f || x.hasF != y.hasF {
				ch = append(ch, fmt.Sprintf("f %s -> %s", x.frontier(), y.frontier()))
			}
			if x.reg != y.reg {
				ch = append(ch, fmt.Sprintf("reg %v -> %v", x.reg, y.reg))
			}
			if x.live != y.live {
				ch = append(ch, fmt.Sprintf("%s -> %s", verdict(x.live), verdict(y.live)))
			}
			if len(ch) > 0 {
				out = append(out, fmt.Sprintf("d%d %s: %s", d, ctx, strings.Join(ch, ", ")))
			}
		}
	}
	return out
}
