package gen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

// A traceWalk turns actions of the explorer's universes (exhaustive:
// reference, network, network-whole) into a trace vector. The reference
// universe delivers synchronously (a delivery is the sender's publication
// now, received at once); the network universes put each publication on
// every channel from its sender, each channel holding at most two
// messages, and a delivery, duplicate or drop takes the n-th message of a
// channel: deliver receives and removes it, duplicate receives and keeps
// it, drop removes it. A split publication puts each coordinate's part on
// the channel as a message of its own. Replaying the trace with the
// production rules records what each installation holds; the walk itself
// only tracks which publication every channel message is.
type traceWalk struct {
	network bool
	in      tracesInput
	devs    []*model.Replica // the walk's own copy, to classify deliveries
	pubs    [][]byte
	// sender of each publication, and how many publications the sender
	// had made when it was made.
	from []int
	// first is the number of the first part of each publication's
	// split (the publication itself when whole).
	first []int
	chans map[[2]int][]int
	nPub  []int
	// compacted[d][ctx] is how many publications existed when device d
	// last compacted ctx in a way that changed its register.
	compacted []map[string]int
	classes   map[string]bool
	// ctxs and values are the universe's contexts and frontier values.
	ctxs   []string
	values []uint32
}

func (w *traceWalk) parent(c string) (string, bool) { p, ok := w.in.Parents[c]; return p, ok }

// Universe shapes: three installations (the third legacy), override
// contexts c0 and c1, frontier values 10 and 20.
var (
	walkCtxs   = []string{"c0", "c1"}
	walkValues = []uint32{10, 20}
)

// walkSpill is the frontier-only context of the split universe, long
// enough that it never fits the primary beside both override groups.
const walkSpill = "spill-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

// walkBudget is a budget under which the primary holds the override
// groups of c0 and c1 and nothing more, so the spill context always goes
// to an additional coordinate.
func walkBudget(client string) *traceBudget {
	full := model.Blob{V: 1, ClientID: client}
	for _, c := range walkCtxs {
		full.Contexts = append(full.Contexts, model.Entry{Key: model.EscapeKey(c), Value: 20},
			model.Entry{Key: model.OverrideKey(model.KeyS, c), Value: 99},
			model.Entry{Key: model.OverrideKey(model.KeyC, c), Value: 99},
			model.Entry{Key: model.OverrideKey(model.KeyB, c), Value: 20})
	}
	full.Contexts = model.SortEntries(full.Contexts)
	return &traceBudget{PlaintextBytes: model.EncodedSize(full), MaxCoordinates: 2}
}

// The hierarchy universe's channel and children (exhaustive.HierarchyUniverse).
var (
	hierChannel = "chan"
	hierThread  = model.ThreadPrefix + strings.Repeat("a", 64)
	hierMsg     = model.MsgPrefix + strings.Repeat("b", 64)
)

func newTraceWalk(u universeShape) *traceWalk {
	w := &traceWalk{network: u.network, chans: map[[2]int][]int{}, classes: map[string]bool{},
		ctxs: walkCtxs, values: walkValues}
	w.in.Devices = []traceDevice{{ClientID: "d0"}, {ClientID: "d1"}, {ClientID: "d2", Legacy: true, DropOverrides: u.legacy}}
	if u.twoDevices {
		w.in.Devices = w.in.Devices[:2]
	}
	switch {
	case u.split:
		w.in.Budget = walkBudget("d0")
		w.ctxs = append(slices.Clone(walkCtxs), walkSpill)
	case u.hierarchy:
		w.in.Budget = &traceBudget{PlaintextBytes: 4096, MaxCoordinates: 2}
		w.in.Parents = map[string]string{hierThread: hierChannel, hierMsg: hierChannel}
		w.ctxs, w.values = []string{hierChannel, hierMsg, hierThread}, []uint32{10, 20, 30}
	}
	defer func() {
		if u.split {
			// The spill context read on both upgraded devices: every
			// publication of theirs splits from the start.
			w.local("advance", 0, walkSpill, 0)
			w.local("advance", 1, walkSpill, 0)
		}
	}()
	for _, d := range w.in.Devices {
		r := model.NewReplica(d.ClientID)
		if d.Legacy {
			mode := model.LegacyCarry
			if d.DropOverrides {
				mode = model.LegacyDropOverrides
			}
			r = model.NewLegacyReplica(d.ClientID, mode)
		}
		if w.in.Parents != nil {
			r.Parent = w.parent
		}
		w.devs = append(w.devs, r)
	}
	w.nPub = make([]int, len(w.devs))
	for range w.devs {
		w.compacted = append(w.compacted, map[string]int{})
	}
	return w
}

func (w *traceWalk) nextValue(f uint32) (uint32, bool) {
	for _, v := range w.values {
		if v > f {
			return v, true
		}
	}
	return 0, false
}

// local applies an action of device d on ctx; value 0 means the next
// frontier value.
func (w *traceWalk) local(kind string, d int, ctx string, value uint32) bool {
	r := w.devs[d]
	if r.Legacy && kind == "mark_unread" {
		return false
	}
	if (kind == "mark_read" || kind == "advance") && value == 0 {
		v, ok := w.nextValue(r.Frontier(ctx))
		if !ok {
			return false
		}
		value = v
	}
	switch kind {
	case "mark_unread":
		_ = r.MarkUnread(ctx)
	case "mark_read":
		_ = r.MarkRead(ctx, value)
	case "advance":
		r.Advance(ctx, value)
	case "compact":
		before := r.Reg(ctx)
		r.Compact(ctx)
		if r.Reg(ctx) != before {
			w.compacted[d][ctx] = len(w.pubs)
		}
	}
	w.in.Steps = append(w.in.Steps, traceStep{Do: kind, Device: d, Ctx: ctx, TS: value})
	w.classes["action:"+kind] = true
	return true
}

// publish makes device d publish and returns the publications' numbers
// (one per coordinate).
func (w *traceWalk) publish(d int) []int {
	r := w.devs[d]
	var blobs []model.Blob
	if w.in.Budget != nil {
		sp, err := r.PublishSplit(model.Budget{PlaintextBytes: w.in.Budget.PlaintextBytes, MaxCoordinates: w.in.Budget.MaxCoordinates})
		if err != nil {
			return nil
		}
		blobs = sp.Blobs
	} else {
		blobs = []model.Blob{r.Publish()}
	}
	w.in.Steps = append(w.in.Steps, traceStep{Do: "publish", Device: d})
	w.nPub[d]++
	var ns []int
	for _, b := range blobs {
		ns = append(ns, len(w.pubs))
		w.pubs = append(w.pubs, model.EncodeBlob(b))
		w.from = append(w.from, d)
		w.first = append(w.first, ns[0])
		if r.Legacy && slices.ContainsFunc(b.Contexts, func(e model.Entry) bool { return strings.HasPrefix(e.Key, "ov_s:") }) {
			w.classes["legacy-publishes-override"] = true
		}
	}
	if len(ns) > 1 {
		w.classes["split-publication"] = true
	}
	return ns
}

// deliver has device to receive publication p, classifying the delivery.
func (w *traceWalk) deliver(to, p int) {
	r := w.devs[to]
	parse := model.ParseBlobWith
	if r.Legacy {
		parse = model.ParseBlobLegacy
	}
	b, _, err := parse(model.Proposed(), w.pubs[p])
	if err == nil {
		for _, e := range b.Contexts {
			if c, ok := strings.CutPrefix(e.Key, "ov_c:"); ok && !r.Legacy && r.Live(c) &&
				!slices.ContainsFunc(b.Contexts, func(x model.Entry) bool { return x.Key == "ov_s:"+c }) {
				w.classes["tombstone-meets-live"] = true
			}
		}
		for _, e := range b.Contexts {
			if at, ok := w.compacted[to][keyCtx(e.Key)]; ok && p < at {
				// Published before the receiver compacted a context it
				// carries: the stale message meets the compacted register.
				w.classes["stale-after-compaction"] = true
			}
		}
		r.Receive(b)
	}
	w.in.Steps = append(w.in.Steps, traceStep{Do: "deliver", Device: to, Publication: p})
	w.classes["action:deliver"] = true
}

// channel action: kind deliver, duplicate or drop of message msg (from 1)
// on the channel from -> to.
func (w *traceWalk) channel(kind string, from, to, msg int) bool {
	ch := w.chans[[2]int{from, to}]
	if msg < 1 || msg > len(ch) {
		return false
	}
	p := ch[msg-1]
	if kind != "drop" {
		if msg > 1 {
			w.classes["delivery:reordered"] = true
		}
		if w.nPub[from] > 0 && w.from[p] == from && p+1 < len(w.from) && slices.Contains(w.from[p+1:], from) {
			w.classes["delivery:stale"] = true
		}
		if kind == "duplicate" {
			w.classes["delivery:duplicate"] = true
		}
		for i, q := range ch {
			if i != msg-1 && q != p && w.first[q] == w.first[p] {
				w.classes["delivery:split-half-way"] = true
			}
		}
		w.deliver(to, p)
	}
	if kind != "duplicate" {
		w.chans[[2]int{from, to}] = slices.Delete(slices.Clone(ch), msg-1, msg)
	}
	w.classes["action:"+kind] = true
	return true
}

// networkPublish publishes from d onto every channel from d, refused when
// a channel would hold more than two messages.
func (w *traceWalk) networkPublish(d int) bool {
	for to := range w.devs {
		if to != d && len(w.chans[[2]int{d, to}])+max(1, len(w.partsOf(d))) > 2 {
			return false
		}
	}
	ns := w.publish(d)
	if ns == nil {
		return false
	}
	for to := range w.devs {
		if to != d {
			w.chans[[2]int{d, to}] = append(w.chans[[2]int{d, to}], ns...)
		}
	}
	w.classes["action:publish"] = true
	return true
}

// partsOf is how many coordinates a publication of d would take now.
func (w *traceWalk) partsOf(d int) []model.Blob {
	if w.in.Budget == nil {
		return []model.Blob{{}}
	}
	sp, err := w.devs[d].Split(model.Budget{PlaintextBytes: w.in.Budget.PlaintextBytes, MaxCoordinates: w.in.Budget.MaxCoordinates})
	if err != nil {
		return nil
	}
	return sp.Blobs
}

// randomStep takes one enabled action at random.
func (w *traceWalk) randomStep(rng *rand.Rand) {
	for {
		d := rng.IntN(len(w.devs))
		c := w.ctxs[rng.IntN(len(w.ctxs))]
		switch k := rng.IntN(10); {
		case k == 0:
			if w.local("mark_unread", d, c, 0) {
				return
			}
		case k == 1:
			if w.local("mark_read", d, c, 0) {
				return
			}
		case k == 2:
			if w.local("advance", d, c, 0) {
				return
			}
		case k == 3:
			if w.local("compact", d, c, 0) {
				return
			}
		case !w.network:
			to := (d + 1 + rng.IntN(len(w.devs)-1)) % len(w.devs)
			if ns := w.publish(d); ns != nil {
				for _, p := range ns {
					w.deliver(to, p)
				}
				return
			}
		case k < 6:
			if w.networkPublish(d) {
				return
			}
		default:
			to := (d + 1 + rng.IntN(len(w.devs)-1)) % len(w.devs)
			kind := []string{"deliver", "deliver", "deliver", "duplicate", "drop"}[rng.IntN(5)]
			if w.channel(kind, d, to, 1+rng.IntN(2)) {
				return
			}
		}
	}
}

// universeShape is how a trace walk models one of the explorer's
// universes: synchronous or in-flight delivery, split publications (the
// spill context), a legacy device that drops override keys, and the
// hierarchy universe's channel and children.
type universeShape struct {
	name                              string
	network, split, legacy, hierarchy bool
	// twoDevices: the universe has no legacy device (d2 is left out);
	// witnessOnly: its stored witnesses become traces, but no seeded walk
	// is drawn from it.
	twoDevices, witnessOnly bool
}

// universeShapes are the universes the walks are drawn from.
var universeShapes = []universeShape{
	{name: "reference", legacy: true},
	{name: "network-whole", network: true},
	{name: "network", network: true, split: true},
	{name: "hierarchy", network: true, hierarchy: true},
	{name: "long-id", network: true, twoDevices: true, witnessOnly: true},
}

// Walks per universe: drawn from seeds 0, 1, ... up to walkDraws, a walk
// kept when it reaches a class (an action kind, a delivery that is
// reordered, duplicated or stale, a split publication, a tombstone floor
// meeting a live register, a message published before its receiver
// compacted a context it carries, a legacy device publishing override
// keys) no
// kept walk of its universe reached, at most walkKeep of them.
const (
	walkDraws = 200
	walkKeep  = 12
	walkSeed  = 30078
)

func universeTraceCases() []Case {
	var cs []Case
	for _, u := range universeShapes {
		if u.witnessOnly {
			continue
		}
		seen := map[string]bool{}
		kept := 0
		for i := 0; i < walkDraws && kept < walkKeep; i++ {
			rng := rand.New(rand.NewPCG(uint64(i), walkSeed))
			w := newTraceWalk(u)
			for range 6 + rng.IntN(9) {
				w.randomStep(rng)
			}
			var fresh []string
			for c := range w.classes {
				if !seen[c] {
					fresh = append(fresh, c)
				}
			}
			if len(fresh) == 0 {
				continue
			}
			slices.Sort(fresh)
			for _, c := range fresh {
				seen[c] = true
			}
			kept++
			cs = append(cs, Case{ID: fmt.Sprintf("traces/universe-%s-%03d", u.name, i), Section: secTraces, Input: w.in,
				Description: fmt.Sprintf("a seeded walk of the %s universe's actions, first to reach %s", u.name, strings.Join(fresh, ", "))})
		}
	}
	// A class the seeded walks reach too rarely, by a path of its own: d0
	// publishes a live group of c0; d1 reads, marks unread and marks read
	// c0 and compacts its dead register to the floor; d0's message, older
	// than the compaction, arrives after it.
	i := func(v int) *int { return &v }
	stale := []witnessfile.Action{
		{Action: "advance", Device: i(0), Ctx: "c0", Value: 10}, {Action: "mark_unread", Device: i(0), Ctx: "c0"},
		{Action: "publish", Device: i(0)},
		{Action: "advance", Device: i(1), Ctx: "c0", Value: 10}, {Action: "mark_unread", Device: i(1), Ctx: "c0"},
		{Action: "mark_read", Device: i(1), Ctx: "c0", Value: 20}, {Action: "compact", Device: i(1), Ctx: "c0"},
		{Action: "deliver", From: i(0), To: i(1), Msg: 1},
	}
	if w, ok := walkOf("network-whole", stale); ok && w.classes["stale-after-compaction"] {
		cs = append(cs, Case{ID: "traces/universe-network-whole-stale-after-compaction", Section: secTraces, Input: w.in,
			Description: "a path of the network-whole universe that reaches " + strings.Join(w.classList(), ", ")})
	}
	return cs
}

// exploreWitness is the part of a stored explorer witness a trace reads.
type exploreWitness struct {
	Universe string               `json:"universe"`
	Detail   string               `json:"detail"`
	Actions  []witnessfile.Action `json:"actions"`
}

// traceOf replays explorer actions of a universe as a trace; false when
// the universe or an action is one the trace format does not carry.
func traceOf(universe string, actions []witnessfile.Action) (tracesInput, bool) {
	w, ok := walkOf(universe, actions)
	if !ok {
		return tracesInput{}, false
	}
	return w.in, true
}

// classList is the classes the walk reached, sorted.
func (w *traceWalk) classList() []string {
	var out []string
	for c := range w.classes {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// walkOf is traceOf's walk.
func walkOf(universe string, actions []witnessfile.Action) (*traceWalk, bool) {
	shape := -1
	for i, s := range universeShapes {
		if s.name == universe {
			shape = i
		}
	}
	if shape < 0 {
		return nil, false
	}
	u := universeShapes[shape]
	w := newTraceWalk(u)
	for _, a := range actions {
		dev := 0
		if a.Device != nil {
			dev = *a.Device
		}
		ok := true
		switch a.Action {
		case "mark_unread", "mark_read", "advance", "compact":
			ok = dev >= 0 && dev < len(w.devs) && w.local(a.Action, dev, a.Ctx, a.Value)
		case "publish":
			ok = dev >= 0 && dev < len(w.devs) && w.networkPublish(dev)
		case "deliver", "duplicate", "drop":
			switch {
			case a.From == nil || a.To == nil || *a.From < 0 || *a.From >= len(w.devs) || *a.To < 0 || *a.To >= len(w.devs):
				ok = false
			case !u.network:
				ns := w.publish(*a.From)
				for _, p := range ns {
					w.deliver(*a.To, p)
				}
				ok = ns != nil
			default:
				ok = w.channel(a.Action, *a.From, *a.To, a.Msg)
			}
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
	}
	return w, true
}

// witnessTraceCases converts every stored explorer witness of a mutant
// over the reference or a network universe, then every path of
// testdata/explored.json, into a trace the production rules decide; it
// lists the witnesses it cannot convert and why.
func witnessTraceCases() ([]Case, []string, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, nil, err
	}
	var cs []Case
	var skipped []string
	for _, m := range mutants.All() {
		if m.Change.History != nil || m.Change.Community != nil {
			continue // the walk's witnesses are history vectors; the community mechanisms have none
		}
		for _, name := range []string{m.ID + ".clear.json", m.ID + ".clear.explore.json"} {
			b, err := os.ReadFile(filepath.Join(root, "mutants", "testdata", name))
			if err != nil {
				continue
			}
			var ew exploreWitness
			if err := json.Unmarshal(b, &ew); err != nil || len(ew.Actions) == 0 {
				continue
			}
			in, ok := traceOf(ew.Universe, ew.Actions)
			if !ok {
				skipped = append(skipped, fmt.Sprintf("%s: universe %s", name, ew.Universe))
				continue
			}
			cs = append(cs, Case{ID: "traces/witness-" + strings.TrimSuffix(name, ".json"), Section: secTraces, Input: in,
				Description: fmt.Sprintf("the %s universe's witness of %s (%s): %s; the trace as the production rules decide it", ew.Universe, m.ID, m.Rule, ew.Detail)})
		}
	}
	paths, err := readExplored()
	if err != nil {
		return nil, nil, err
	}
	for _, p := range paths {
		in, ok := traceOf(p.Universe, p.Actions)
		if !ok {
			return nil, nil, fmt.Errorf("explored path of %s over %s: not a trace", p.Mutant, p.Universe)
		}
		cs = append(cs, Case{ID: fmt.Sprintf("traces/explored-%s-%s-%s", p.Mutant, p.Universe, p.Invariant), Section: secTraces, Input: in,
			Description: fmt.Sprintf("the explorer's smallest path to %s under %s in the %s universe (depth %d): %s; the trace as the production rules decide it", p.Invariant, p.Mutant, p.Universe, exploredDepth, p.Detail)})
	}
	return cs, skipped, nil
}

// keyCtx is the context a wire key is of: an ov_s:/ov_c:/ov_b: key names
// it raw, a frontier key escaped.
func keyCtx(key string) string {
	for _, p := range []string{"ov_s:", "ov_c:", "ov_b:"} {
		if c, ok := strings.CutPrefix(key, p); ok {
			return c
		}
	}
	return model.UnescapeKey(key)
}
