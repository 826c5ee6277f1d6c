package exhaustive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// Replay re-runs an explorer witness through the same code that found it:
// its universe and rule set come from the catalogue, its actions are
// resolved against the universe and executed, and every check they meet is
// run. An error (wrapping witnessfile.ErrBad) means the witness does not
// fit; otherwise the result says whether its invariant failed again.
func Replay(cat *Catalog, w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	if w.Kind != witnessfile.KindExplore {
		return nil, witnessfile.Bad("kind %q is not %s", w.Kind, witnessfile.KindExplore)
	}
	if w.Encoding != "" {
		// The production explorer runs the spec's encoding only.
		return nil, witnessfile.Bad("encoding %q: a witness that names an encoding replays through package candidate", w.Encoding)
	}
	// Bounded before anything runs: a trace longer than a causal past can
	// record is not one the explorer could have written.
	if err := w.CheckTrace(); err != nil {
		return nil, err
	}
	u, err := cat.Universe(w.Universe)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	tie, err := model.ParseTiePolicy(w.Tie)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	if !slices.ContainsFunc(InvariantTable(u), func(inv search.Invariant) bool { return inv.ID == w.Invariant }) {
		return nil, witnessfile.Bad("universe %s has no invariant %q (see -list)", u.Name, w.Invariant)
	}
	rules, err := cat.Rules(w.Rules)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	// Replay runs the concrete trace: symmetry off.
	wo, _, err := newWorld(&u, rules.WithTie(tie), w.Depth, false)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	return wo.replay(w)
}

// A witness's depth bound (witnessfile.MaxDepth) must stay within what a
// network world's causal past records (maxIntentSeq events of one device on
// one context): this array has a negative length, and the package does not
// compile, if it does not.
var _ [maxIntentSeq - witnessfile.MaxDepth]struct{}

// Text renders an explorer witness: the one found in this process as it
// was rendered then, one read from a file by replaying it.
func Text(cat *Catalog, w *witnessfile.Witness) (string, error) {
	if w.Text != "" {
		return w.Text, nil
	}
	r, err := Replay(cat, w)
	if err != nil {
		return "", err
	}
	return r.Text, nil
}

// witness builds the explorer witness of a hit.
func (rw *refWorld) witness(run *search.Run, h search.Hit) *witnessfile.Witness {
	var path []int
	if h.Parent >= 0 {
		path = run.Store.Path(h.Parent)
	}
	if h.Trans >= 0 {
		path = append(path, h.Trans)
	}
	tr, err := runTrace(rw.u, rw.e.rules, path)
	if err != nil {
		panic("exhaustive: a stored path does not replay: " + err.Error()) // an internal inconsistency
	}
	w := &witnessfile.Witness{Kind: witnessfile.KindExplore, Universe: rw.u.Name, Depth: rw.depth, Tie: rw.e.rules.Tie.String(),
		Rules: rw.e.rules.Name, Invariant: referenceTable[h.Finding.Inv].ID, Detail: h.Finding.Detail}
	if w.Invariant == InvRegression && len(tr.actions) > 0 {
		w.Detail = fmt.Sprintf("%s lowered a frontier of d%d", tr.actions[len(tr.actions)-1], tr.actions[len(tr.actions)-1].Device)
	}
	for _, a := range tr.actions {
		w.Actions = append(w.Actions, a.toFile())
	}
	var b strings.Builder
	tr.render(&b, rw.u, w)
	w.Text = b.String()
	return w
}

// trace is a sequence of transitions executed on replicas, with the device
// views before the first and after every step.
type trace struct {
	actions []Action
	views   [][]deviceView
	regress []bool
	final   []*model.Replica
	rules   *model.Rules
}

// runTrace executes transition indices from the initial state.
func runTrace(u *Universe, rules *model.Rules, path []int) (*trace, error) {
	reps := make([]*model.Replica, len(u.Devices))
	for i, spec := range u.Devices {
		reps[i] = newReplica(spec, rules)
	}
	tr := &trace{views: [][]deviceView{views(u, rules, reps)}, rules: rules}
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

// replay resolves the witness's actions against the reference universe,
// runs them, and runs the transition and state checks on the trace.
func (rw *refWorld) replay(w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	u, rules := rw.u, rw.e.rules
	if len(w.Actions) == 0 && w.Invariant == InvRegression {
		return nil, witnessfile.Bad("a frontier regression needs at least one action")
	}
	reps := make([]*model.Replica, len(u.Devices))
	for i, spec := range u.Devices {
		reps[i] = newReplica(spec, rules)
	}
	var path []int
	for k, j := range w.Actions {
		a, err := fromFile(j)
		if err != nil {
			return nil, witnessfile.Bad("step %d: %v", k+1, err)
		}
		t, err := u.resolve(reps, a)
		if err != nil {
			return nil, witnessfile.Bad("step %d: %v", k+1, err)
		}
		u.apply(reps, t)
		path = append(path, t)
	}
	tr, err := runTrace(u, rules, path)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	var found []finding
	for k, r := range tr.regress {
		if r {
			found = append(found, finding{InvRegression, fmt.Sprintf("step %d (%s) lowered a frontier", k+1, tr.actions[k])})
		}
	}
	ids := make([]int32, len(u.Devices))
	for i, r := range tr.final {
		ids[i] = rw.e.internLocked(i, r.Clone())
	}
	fs, _ := rw.e.newCache().stateChecks(ids, rw.perms)
	found = append(found, fs...)

	res, got := replayed(w, found)
	var b strings.Builder
	tr.render(&b, u, got)
	res.Text = b.String()
	return res, nil
}

// replayed collects what a replay found, and the witness as the replay
// saw it: its detail recomputed (the stored one is never shown as found).
func replayed(w *witnessfile.Witness, found []finding) (*witnessfile.Replayed, *witnessfile.Witness) {
	res := &witnessfile.Replayed{}
	got := *w
	got.Detail = "(holds along this trace)"
	for _, f := range found {
		res.Found = append(res.Found, f.Invariant+": "+f.Detail)
		if f.Invariant == w.Invariant && !res.Reproduced {
			res.Reproduced, res.Detail, got.Detail = true, f.Detail, f.Detail
		}
	}
	return res, &got
}

func (tr *trace) render(b *strings.Builder, u *Universe, w *witnessfile.Witness) {
	tr.renderSteps(b, u, w)
	fmt.Fprintf(b, "violation %s: %s\n", w.Invariant, w.Detail)
	b.WriteString(Legend)
}

// renderSteps writes the trace's header, its initial state in full, then
// every step with only what it changed: the part an observation's replay
// shares with a violation's.
func (tr *trace) renderSteps(b *strings.Builder, u *Universe, w *witnessfile.Witness) {
	fmt.Fprintf(b, "witness %s: universe %s, depth bound %d, tie %s, rules %s\n", w.Invariant, u.Name, w.Depth, w.Tie, RulesLabel(u, tr.rules, w.Rules))
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
}

// Legend explains a witness's notation; every rendered explorer witness
// ends with it.
const Legend = "legend: reg=(S,C,B) is the override register (set counter, clear counter, baseline); " +
	"f=N the read frontier, f=- none held (f=0 is a frontier of 0); live/dead the override's verdict; " +
	"unread=true what the device shows for the newest message (dead unread=true: no override, but the message is past the frontier); " +
	"dN->dM the channel from device N to device M\n"

// RulesLabel names the rules a trace ran under truthfully: the run's rule
// set, and each device that decides through rules of its own (a
// one-device variant universe) with those rules' name.
func RulesLabel(u *Universe, run *model.Rules, name string) string {
	var own []string
	for i, d := range u.Devices {
		if d.Rules != nil && run != nil {
			own = append(own, fmt.Sprintf("d%d runs %s", i, d.Rules(run).Name))
		}
	}
	if len(own) == 0 {
		return name
	}
	return name + " (" + strings.Join(own, ", ") + ")"
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
