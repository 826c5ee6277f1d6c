package candidate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// trace is a run of transition indices from the initial state, with every
// check met on the way: I3 on each step, the state invariants on the last
// state.
type trace struct {
	actions []action
	views   [][]string // per state (initial first): each device's view
	found   []finding
}

// runTrace executes path from the initial state through a fresh world (no
// memo shared with the search), so a replay runs exactly what a file says.
func (w *world) runTrace(path []int) (*trace, error) {
	devs := make([]Device, len(w.u.Devices))
	for i := range devs {
		devs[i] = w.device(i)
	}
	tr := &trace{views: [][]string{w.views(devs)}}
	for k, t := range path {
		if t < 0 || t >= w.Transitions() {
			return nil, fmt.Errorf("step %d: no transition %d", k+1, t)
		}
		dev, slot, from := w.transition(t)
		before := devs[dev].Clone()
		var a action
		if slot >= 0 {
			var ok bool
			if a, ok = w.applyLocal(devs[dev], dev, slot); !ok {
				return nil, fmt.Errorf("step %d: %s is not enabled", k+1, a)
			}
		} else {
			a = action{kind: "deliver", dev: dev, from: from}
			_ = devs[dev].Receive(devs[from].Publish())
		}
		if a.kind != "reinstall" && regressed(before, devs[dev]) {
			tr.found = append(tr.found, finding{InvRegression, fmt.Sprintf("%s lowered a frontier of d%d", a, dev)})
		}
		tr.actions = append(tr.actions, a)
		tr.views = append(tr.views, w.views(devs))
	}
	// The state invariants on the final state, through the world's tables.
	w.mu.Lock()
	row := make([]int32, len(devs))
	for i, d := range devs {
		row[i] = w.intern(i, d.Clone())
	}
	tr.found = append(tr.found, w.stateChecks(row, search.NewTally(len(Table)))...)
	w.mu.Unlock()
	return tr, nil
}

func (w *world) views(devs []Device) []string {
	out := make([]string, len(devs))
	for i, d := range devs {
		out[i] = d.View(w.u.Contexts)
	}
	return out
}

// witness builds the witness of a hit.
func (w *world) witness(run *search.Run, h search.Hit) *witnessfile.Witness {
	var path []int
	if h.Parent >= 0 {
		path = run.Store.Path(h.Parent)
	}
	if h.Trans >= 0 {
		path = append(path, h.Trans)
	}
	tr, err := w.runTrace(path)
	if err != nil {
		panic("candidate: a stored path does not replay: " + err.Error()) // an internal inconsistency
	}
	wf := &witnessfile.Witness{Kind: witnessfile.KindExplore, Universe: w.u.Name, Depth: w.depth, Tie: w.rules.Tie.String(),
		Rules: w.rules.Name, Encoding: w.enc.Name(), Invariant: Table[h.Finding.Inv].ID, Detail: h.Finding.Detail}
	for _, f := range tr.found {
		if f.inv == wf.Invariant {
			wf.Detail = f.detail // the trace's own account (I3's names the step)
			break
		}
	}
	for _, a := range tr.actions {
		wf.Actions = append(wf.Actions, a.toFile())
	}
	wf.Text = w.render(tr, wf)
	return wf
}

func (a action) toFile() witnessfile.Action {
	d, f := a.dev, a.from
	if a.kind == "deliver" {
		return witnessfile.Action{Action: a.kind, From: &f, To: &d}
	}
	return witnessfile.Action{Action: a.kind, Device: &d, Ctx: a.ctx, Value: a.value}
}

// resolve finds the transition index of a witness action in the current
// state, checking every parameter against the universe.
func (w *world) resolve(devs []Device, j witnessfile.Action) (int, error) {
	n := len(devs)
	dev := func(p *int, what string) (int, error) {
		if p == nil {
			return 0, fmt.Errorf("%s needs a %s", j.Action, what)
		}
		if *p < 0 || *p >= n {
			return 0, fmt.Errorf("%s: no device %d", j.Action, *p)
		}
		return *p, nil
	}
	if j.Action == "deliver" {
		from, err := dev(j.From, "from")
		if err != nil {
			return 0, err
		}
		to, err := dev(j.To, "to")
		if err != nil || from == to {
			return 0, fmt.Errorf("deliver needs two distinct devices")
		}
		return w.deliverIndex(from, to), nil
	}
	d, err := dev(j.Device, "device")
	if err != nil {
		return 0, err
	}
	base := d * w.slots()
	if j.Action == "reinstall" {
		return base + kindsPerCtx*len(w.u.Contexts), nil
	}
	kind := slices.Index(slotNames[:], j.Action)
	if kind < 0 {
		return 0, fmt.Errorf("unknown action %q (want one of %s, reinstall, deliver)", j.Action, strings.Join(slotNames[:], ", "))
	}
	ci := slices.Index(w.u.Contexts, j.Ctx)
	if ci < 0 {
		return 0, fmt.Errorf("%s: no context %q in universe %s", j.Action, j.Ctx, w.u.Name)
	}
	if kind == slotMarkRead || kind == slotAdvance {
		if v, ok := w.nextValue(devs[d].Frontier(j.Ctx)); !ok || v != j.Value {
			return 0, fmt.Errorf("%s d%d %s %d: the universe's step there is to %d", j.Action, d, j.Ctx, j.Value, v)
		}
	}
	return base + ci*kindsPerCtx + kind, nil
}

// Replay re-runs an explorer witness that names an encoding: its universe
// and rule set from the catalogue, its actions resolved against the
// universe and executed, every check they meet run. An error (wrapping
// witnessfile.ErrBad) means the witness does not fit.
func Replay(cat *exhaustive.Catalog, wf *witnessfile.Witness) (*witnessfile.Replayed, error) {
	if wf.Kind != witnessfile.KindExplore {
		return nil, witnessfile.Bad("kind %q is not %s", wf.Kind, witnessfile.KindExplore)
	}
	if err := wf.CheckTrace(); err != nil {
		return nil, err
	}
	enc, err := Lookup(wf.Encoding)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	u, err := cat.Universe(wf.Universe)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	tie, err := model.ParseTiePolicy(wf.Tie)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	if search.Index(Table, wf.Invariant) < 0 {
		return nil, witnessfile.Bad("the encoding world has no invariant %q", wf.Invariant)
	}
	rules, err := cat.Rules(wf.Rules)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	w, err := newWorld(u, enc, rules.WithTie(tie), wf.Depth)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	// Resolve step by step on live devices, then run the indices.
	devs := make([]Device, len(u.Devices))
	for i := range devs {
		devs[i] = w.device(i)
	}
	var path []int
	for k, j := range wf.Actions {
		t, err := w.resolve(devs, j)
		if err != nil {
			return nil, witnessfile.Bad("step %d: %v", k+1, err)
		}
		dev, slot, from := w.transition(t)
		if slot >= 0 {
			if a, ok := w.applyLocal(devs[dev], dev, slot); !ok {
				return nil, witnessfile.Bad("step %d: %s is not enabled", k+1, a)
			}
		} else {
			_ = devs[dev].Receive(devs[from].Publish())
		}
		path = append(path, t)
	}
	tr, err := w.runTrace(path)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	out := &witnessfile.Replayed{}
	for _, f := range tr.found {
		out.Found = append(out.Found, f.inv+": "+f.detail)
		if f.inv == wf.Invariant && !out.Reproduced {
			out.Reproduced, out.Detail = true, f.detail
		}
	}
	shown := *wf
	shown.Detail = out.Detail
	out.Text = w.render(tr, &shown)
	return out, nil
}

// render is the witness as text: the run, the initial state in full, each
// step with the state of the device it changed, then the violation (or
// that the replay did not find it).
func (w *world) render(tr *trace, wf *witnessfile.Witness) string {
	var b strings.Builder
	fmt.Fprintf(&b, "witness %s: universe %s, depth %d, encoding %s, tie %s, rules %s\n", wf.Invariant, wf.Universe, wf.Depth,
		wf.Encoding, wf.Tie, wf.Rules)
	b.WriteString("initial:\n")
	for i, v := range tr.views[0] {
		fmt.Fprintf(&b, "  d%d: %s\n", i, v)
	}
	for k, a := range tr.actions {
		fmt.Fprintf(&b, "step %d: %s\n", k+1, a)
		for i, v := range tr.views[k+1] {
			if v != tr.views[k][i] {
				fmt.Fprintf(&b, "  d%d: %s\n", i, v)
			}
		}
	}
	if wf.Detail == "" {
		fmt.Fprintf(&b, "%s holds on this trace\n", wf.Invariant)
	} else {
		fmt.Fprintf(&b, "violation %s: %s\n", wf.Invariant, wf.Detail)
	}
	return b.String()
}
