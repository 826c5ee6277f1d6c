package exhaustive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// Witnesses of a network universe. The search stores one state per
// symmetry orbit, so its path is a path between representatives; the
// witness is the concrete trace from the initial state that follows it:
// at each step the smallest transition whose successor has the stored
// representative as its canonical form. Replay runs the same transitions on
// a fresh world with symmetry off and requires the same invariant to fail.

func (w *netWorld) witness(run *search.Run, h search.Hit) *witnessfile.Witness {
	var nodes []int32
	for i := h.Parent; i >= 0; i = run.Store.Parent(i) {
		nodes = append(nodes, i)
	}
	slices.Reverse(nodes)
	c := w.e.newCache()
	cur := w.initialRaw(c)
	next := make([]int32, len(cur))
	var actions []Action
	step := func(target []int32, inv string) []finding {
		t, fs := w.matchStep(c, cur, target, inv)
		actions = append(actions, w.action(cur, t))
		w.apply(c, cur, t, next, w.scratch())
		copy(cur, next)
		return fs
	}
	for k := 1; k < len(nodes); k++ {
		step(run.Store.Row(int(nodes[k])), "")
	}
	inv := networkTable[h.Finding.Inv].ID
	detail := h.Finding.Detail
	var found []finding
	if h.Trans >= 0 {
		parent := run.Store.Row(int(h.Parent))
		target := make([]int32, len(parent))
		w.successor(c, parent, h.Trans, target, w.scratch())
		// A transition's finding is stored as replay words it: prefixed
		// with the step and its action.
		for _, f := range step(target, inv) {
			found = append(found, finding{f.Invariant, fmt.Sprintf("step %d (%s): %s", len(actions), actions[len(actions)-1], f.Detail)})
		}
	}
	found = append(found, w.check(c, cur, w.scratch())...)
	for _, f := range found {
		if f.Invariant == inv {
			detail = f.Detail
			break
		}
	}
	wit := &witnessfile.Witness{Kind: witnessfile.KindExplore, Universe: w.u.Name, Depth: w.depth, Tie: w.e.rules.Tie.String(),
		Rules: w.e.rules.Name, Invariant: inv, Detail: detail}
	for _, a := range actions {
		wit.Actions = append(wit.Actions, a.toFile())
	}
	return wit
}

// matchStep is the smallest transition from the concrete row cur whose
// canonical successor is target, preferring one whose own checks report
// invariant inv; it returns the transition and those findings.
func (w *netWorld) matchStep(c *cache, cur, target []int32, inv string) (int, []finding) {
	next := make([]int32, len(cur))
	first := -1
	var firstFs []finding
	for t := range w.Transitions() {
		ok, fs := w.successor(c, cur, t, next, w.scratch())
		if !ok || !slices.Equal(next, target) {
			continue
		}
		if inv == "" || slices.ContainsFunc(fs, func(f finding) bool { return f.Invariant == inv }) {
			return t, fs
		}
		if first < 0 {
			first, firstFs = t, fs
		}
	}
	if first < 0 {
		panic("exhaustive: a stored path has no concrete step") // an internal inconsistency
	}
	return first, firstFs
}

// action names transition t in the concrete row cur.
func (w *netWorld) action(cur []int32, t int) Action {
	x := w.decode(t)
	a := Action{Kind: x.kind, Device: x.dev}
	switch x.kind {
	case KindDeliver, KindDuplicate, KindDrop:
		a.From, a.Msg = x.from, x.pos+1
	case KindPublish, KindRotate:
	default:
		trial := w.replica(x.dev, cur[x.dev]).Clone()
		a, _ = w.u.applyLocal(trial, x.dev, x.slot)
	}
	return a
}

// resolve finds the transition an action names in the concrete row cur.
func (w *netWorld) resolve(cur []int32, a Action) (int, error) {
	if a.Device < 0 || a.Device >= w.n {
		return 0, fmt.Errorf("device %d out of range (universe %q has %d)", a.Device, w.u.Name, w.n)
	}
	switch a.Kind {
	case KindPublish, KindRotate:
		return w.encode(netTrans{kind: a.Kind, dev: a.Device}), nil
	case KindDeliver, KindDuplicate, KindDrop:
		if a.From < 0 || a.From >= w.n || a.From == a.Device {
			return 0, fmt.Errorf("bad channel d%d->d%d", a.From, a.Device)
		}
		if a.Msg < 1 || a.Msg > w.net.Capacity {
			return 0, fmt.Errorf("%s: message position %d out of range 1..%d", a, a.Msg, w.net.Capacity)
		}
		return w.encode(netTrans{kind: a.Kind, dev: a.Device, from: a.From, pos: a.Msg - 1}), nil
	}
	for s := range w.spd {
		k, ctx := w.u.slot(s)
		if k != a.Kind || ctx != a.Ctx {
			continue
		}
		trial := w.replica(a.Device, cur[a.Device]).Clone()
		got, ok := w.u.applyLocal(trial, a.Device, s)
		if !ok {
			return 0, fmt.Errorf("%s is not enabled here", a)
		}
		if got.Value != a.Value {
			return 0, fmt.Errorf("%s: the universe moves %s to %d here, not %d", a, a.Ctx, got.Value, a.Value)
		}
		return a.Device*w.perDevice() + s, nil
	}
	return 0, fmt.Errorf("universe %q has no transition %s", w.u.Name, a)
}

// replay runs a witness's actions on a fresh world with symmetry off (the
// world replay builds) and runs every check they meet.
func (w *netWorld) replay(wit *witnessfile.Witness) (*witnessfile.Replayed, error) {
	c := w.e.newCache()
	cur := w.initialRaw(c)
	next := make([]int32, len(cur))
	rows := [][]int32{slices.Clone(cur)}
	var found []finding
	var actions []Action
	for k, j := range wit.Actions {
		a, err := fromFile(j)
		if err != nil {
			return nil, witnessfile.Bad("step %d: %v", k+1, err)
		}
		t, err := w.resolve(cur, a)
		if err != nil {
			return nil, witnessfile.Bad("step %d: %v", k+1, err)
		}
		ok, fs := w.apply(c, cur, t, next, w.scratch())
		if !ok {
			return nil, witnessfile.Bad("step %d: %s is not enabled", k+1, a)
		}
		for _, f := range fs {
			found = append(found, finding{f.Invariant, fmt.Sprintf("step %d (%s): %s", k+1, a, f.Detail)})
		}
		copy(cur, next)
		rows = append(rows, slices.Clone(cur))
		actions = append(actions, a)
	}
	found = append(found, w.check(c, cur, w.scratch())...)
	res, got := replayed(wit, found)
	var b strings.Builder
	w.render(&b, got, rows, actions)
	w.renderQuiescence(&b, c, cur)
	fmt.Fprintf(&b, "violation %s: %s\n", got.Invariant, got.Detail)
	b.WriteString(Legend)
	res.Text = b.String()
	return res, nil
}

// render writes a network trace: the initial state in full, then every
// step with its action and only the lines it changed, then the violation.
func (w *netWorld) render(b *strings.Builder, wit *witnessfile.Witness, rows [][]int32, actions []Action) {
	fmt.Fprintf(b, "witness %s: universe %s, depth bound %d, tie %s, rules %s\n", wit.Invariant, w.u.Name, wit.Depth, wit.Tie, RulesLabel(w.u, w.e.rules, wit.Rules))
	b.WriteString("initial state:\n")
	names, lines := w.lines(rows[0])
	for _, n := range names {
		fmt.Fprintf(b, "  %s: %s\n", n, lines[n])
	}
	for k, a := range actions {
		fmt.Fprintf(b, "step %d: %s\n", k+1, a)
		names, after := w.lines(rows[k+1])
		changed := false
		for _, n := range names {
			if lines[n] != after[n] {
				fmt.Fprintf(b, "  %s: %s -> %s\n", n, orNone(lines[n]), orNone(after[n]))
				changed = true
			}
		}
		if !changed {
			b.WriteString("  (no change)\n")
		}
		lines = after
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// lines describes a concrete row: per device and context its frontier,
// register, verdict and intent knowledge, and per channel its messages.
func (w *netWorld) lines(row []int32) ([]string, map[string]string) {
	var names []string
	out := map[string]string{}
	add := func(name, text string) {
		names = append(names, name)
		out[name] = text
	}
	for d := range w.n {
		r := w.replica(d, row[d])
		kn := w.t.knows.get(row[w.knWord(d)])
		for _, ctx := range w.u.Contexts {
			text := "f=" + frontierText(r, ctx)
			if !r.Legacy && !w.u.frontierOnly(ctx) {
				text += fmt.Sprintf(" reg=%v %s", r.Reg(ctx), verdict(r.Live(ctx)))
				if i, ok := w.ovAt[ctx]; ok {
					text += " intent " + w.t.acs.get(kn.ac[i]).String()
				}
			}
			add(fmt.Sprintf("d%d %s", d, ctx), text)
		}
		if r.Legacy {
			var carried []string
			r.Each(func(key string, f uint32, _ bool, _ model.Reg) {
				if _, ok := w.keys[key]; ok && !slices.Contains(w.u.Contexts, key) {
					carried = append(carried, fmt.Sprintf("%s:%d", key, f))
				}
			})
			add(fmt.Sprintf("d%d carries", d), "{"+strings.Join(carried, ", ")+"}")
		}
	}
	for s := range w.n {
		for d := range w.n {
			if s == d {
				continue
			}
			var ms []string
			for k, m := range w.t.chans.get(row[w.chWord(s, d)]) {
				ms = append(ms, fmt.Sprintf("msg %d %s", k+1, w.describeMsg(m, d)))
			}
			if len(ms) == 0 {
				ms = []string{"empty"}
			}
			add(fmt.Sprintf("d%d->d%d", s, d), strings.Join(ms, "; "))
		}
	}
	return names, out
}

func frontierText(r *model.Replica, ctx string) string {
	if !r.HasFrontier(ctx) {
		return "-"
	}
	return fmt.Sprint(r.Frontier(ctx))
}

func (w *netWorld) describeMsg(m int32, dst int) string {
	msg := w.t.msgs.get(m)
	s := model.EntriesString(msg.b.Contexts)
	if msg.parts > 1 {
		s += fmt.Sprintf(" part %d/%d", msg.part+1, msg.parts)
	}
	for i, a := range msg.tag {
		if a != w.t.empty {
			s += fmt.Sprintf(" intent %s %s", w.ov[i], w.t.acs.get(a))
		}
		if msg.flags&(1<<i) != 0 {
			s += fmt.Sprintf(" (older than d%d's compaction of %s)", dst, w.ov[i])
		}
	}
	return s
}

// renderQuiescence shows what the quiescence checks ran on after the last
// step: the messages the drain delivered, each device after the drain, and
// each device at the fixpoint of the publication rounds, verdicts and
// registers, so that a convergence or oracle violation can be read off.
func (w *netWorld) renderQuiescence(b *strings.Builder, c *cache, row []int32) {
	b.WriteString("quiescence (what the checks at this state ran on):\n")
	delivered := false
	for s := range w.n {
		for d := range w.n {
			if s == d {
				continue
			}
			for k, m := range w.t.chans.get(row[w.chWord(s, d)]) {
				fmt.Fprintf(b, "  drain: deliver d%d->d%d msg %d %s\n", s, d, k+1, w.describeMsg(m, d))
				delivered = true
			}
		}
	}
	if !delivered {
		b.WriteString("  drain: nothing in flight\n")
	}
	for d, nd := range w.drain(c, row) {
		fmt.Fprintf(b, "  d%d drained: %s\n", d, w.describeNode(d, nd))
	}
	q := w.quiesce(c, row)
	for d, nd := range q.final {
		fmt.Fprintf(b, "  d%d at the fixpoint: %s  %s\n", d, w.view(d, nd), w.describeNode(d, nd))
	}
}
