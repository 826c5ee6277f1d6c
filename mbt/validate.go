package mbt

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// DefaultMaxStates bounds the states one record's search may hold (the
// silent closure and the record's successors together). Past it the
// verdict is unknown, never explained or unexplained.
const DefaultMaxStates = 400000

// maxAllowed bounds the alternatives a report lists.
const maxAllowed = 12

// Validation is the outcome of validating a log.
type Validation struct {
	// Records is the number of records explained (all of them when the
	// log is explained).
	Records int
	// MaxStates is the largest set of states the search held for one
	// record: the model's states consistent with the log so far, with the
	// silent steps after them. When Guided, it is the number of (record,
	// state) pairs the guided search visited in all.
	MaxStates int
	// Guided says the log was explained by the guided search (one
	// behaviour found depth first), not by the breadth-first one.
	Guided bool
	// Unexplained is the first record no behaviour allows; nil when the
	// log is explained or the verdict unknown.
	Unexplained *Unexplained
	// Unknown says which bound stopped the search; empty otherwise.
	Unknown string
}

// Explained reports whether some behaviour of the model explains the
// whole log.
func (v *Validation) Explained() bool { return v.Unexplained == nil && v.Unknown == "" }

// Unexplained is the first record of a log that no behaviour of the model
// allows after the records before it.
type Unexplained struct {
	Line   int
	Step   int
	Device string
	// What is the part of the record that fails: "action", "received",
	// "published" or "state", or for a load record "load start", "load
	// sent", "load received", "load verdict" or "load" (no load started
	// on that relay).
	What string
	// Says is what the log says there, Allows what the model allows there
	// (the alternatives in the states that explain the prefix, sorted,
	// at most maxAllowed; More counts the rest).
	Says   string
	Allows []string
	More   int
	// Prefix is the log up to and including the record, as written.
	Prefix []string
}

func (u *Unexplained) Error() string {
	return fmt.Sprintf("line %d (step %d, %s %s): the log says %s; the model allows %s", u.Line, u.Step, u.Device, u.What,
		u.Says, strings.Join(u.Allows, " | "))
}

// Validate searches for a behaviour of universe u under rules that
// explains the log: a sequence of the model's transitions in which every
// record is one transition of its device (an action; a receipt, which is
// the delivery or duplicate of a message in flight to it with the logged
// entries; a publication with the logged parts) after which the device
// shows the logged state, and between records any number of silent steps
// (package doc, "Logs"). The search is breadth-first over the set of
// states consistent with the log so far, exact (every silent step to a
// fixpoint), deterministic, and bounded by maxStates per record. A guided
// depth-first search runs first, within maxStates visits: when it finds a
// behaviour the log is explained at once; otherwise the breadth-first
// search decides.
func Validate(u exhaustive.Universe, rules *model.Rules, lg *Log, maxStates int) (*Validation, error) {
	st, err := exhaustive.NewStepper(u, rules)
	if err != nil {
		return nil, err
	}
	hosted := make([]bool, st.Devices())
	for _, d := range lg.Devices {
		i, err := deviceIndex(d)
		if err != nil || i >= st.Devices() {
			return nil, &LogError{1, fmt.Sprintf("device %s: universe %s has devices d0..d%d", d, u.Name, st.Devices()-1)}
		}
		if st.Legacy(i) {
			return nil, &LogError{1, fmt.Sprintf("device %s runs the legacy client in universe %s: a log hosts upgraded devices only", d, u.Name)}
		}
		hosted[i] = true
	}
	ok, n, reached := guided(st, hosted, lg.Records, maxStates)
	if ok {
		// Every transition record is explained; the loads are checked
		// on their own, in log order.
		v := &Validation{MaxStates: n, Guided: true}
		loads := newLoadChecker(rules)
		defer loads.release()
		for ri, rec := range lg.Records {
			if rec.Load != nil {
				un, err := loads.check(rec)
				if err != nil {
					return nil, err
				}
				if un != nil {
					un.Prefix = append([]string{lg.First}, rawLines(lg.Records[:ri+1])...)
					v.Unexplained = un
					return v, nil
				}
			}
			v.Records++
		}
		return v, nil
	}
	v := &Validation{}
	loads := newLoadChecker(rules)
	defer loads.release()
	frontier := [][]int32{st.Initial()}
	for ri, rec := range lg.Records {
		if rec.Load != nil {
			// A load is checked on the model's sans-I/O load alone: it
			// changes no state of the universe, and the model's load
			// is deterministic in its frames.
			un, err := loads.check(rec)
			if err != nil {
				return nil, err
			}
			if un != nil {
				un.Prefix = append([]string{lg.First}, rawLines(lg.Records[:ri+1])...)
				v.Unexplained = un
				return v, nil
			}
			v.Records++
			continue
		}
		closure, ok := silentClosure(st, hosted, frontier, maxStates)
		v.MaxStates = max(v.MaxStates, len(closure))
		if !ok {
			v.Unknown = fmt.Sprintf("line %d (step %d): the silent steps before it reach more than %d states", rec.Line, rec.Step, maxStates)
			if reached > rec.Line {
				// The guided search found a behaviour that goes
				// further: a hint at where the log goes wrong, if
				// it does.
				v.Unknown += fmt.Sprintf("; the guided search found a behaviour through line %d (load records aside) within %d states", reached, n)
			}
			return v, nil
		}
		next, un := advance(st, closure, rec)
		if un != nil {
			un.Prefix = append([]string{lg.First}, rawLines(lg.Records[:ri+1])...)
			v.Unexplained = un
			return v, nil
		}
		v.Records++
		frontier = next
	}
	return v, nil
}

func rawLines(rs []LogRecord) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Raw
	}
	return out
}

// silent reports whether transition x may happen without a record: any
// step of a device the log does not host, any publication (a client need
// not log them, and the adapter protocol does not send them) and any drop
// (the relay's loss). A hosted device's local actions and receipts are
// always logged.
func silent(x exhaustive.Transition, hosted []bool) bool {
	switch x.Kind {
	case exhaustive.KindPublish, exhaustive.KindDrop:
		return true
	}
	return !hosted[x.Device]
}

// silentClosure is every state reachable from the frontier by silent
// steps, in a deterministic order (breadth-first, transitions in index
// order); false when it exceeds maxStates.
func silentClosure(st *exhaustive.Stepper, hosted []bool, frontier [][]int32, maxStates int) ([][]int32, bool) {
	seen := map[string]bool{}
	var out [][]int32
	for _, r := range frontier {
		if k := exhaustive.Key(r); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	var silentTs []int
	for t := range st.Transitions() {
		if silent(st.Decode(t), hosted) {
			silentTs = append(silentTs, t)
		}
	}
	for i := 0; i < len(out); i++ {
		for _, t := range silentTs {
			n, ok := st.Step(out[i], t)
			if !ok {
				continue
			}
			k := exhaustive.Key(n)
			if seen[k] {
				continue
			}
			if len(out) >= maxStates {
				return out, false
			}
			seen[k] = true
			out = append(out, n)
		}
	}
	return out, true
}

// advance takes the record from every state of the closure: the states
// after it that show the logged state, or what the model allows instead.
func advance(st *exhaustive.Stepper, closure [][]int32, rec LogRecord) ([][]int32, *Unexplained) {
	d, _ := deviceIndex(rec.Device) // checked against the universe by Validate
	un := &Unexplained{Line: rec.Line, Step: rec.Step, Device: rec.Device}
	allowed := map[string]bool{}
	var cands [][]int32
	switch {
	case rec.Action != nil:
		un.What, un.Says = "action", jsonText(rec.Action)
		a := witnessfile.Action{Action: rec.Action.Action, Device: &d, Ctx: rec.Action.Ctx, Value: rec.Action.Value}
		for _, row := range closure {
			t, err := st.Resolve(row, a)
			if err != nil {
				allowed["none: "+err.Error()] = true
				continue
			}
			if x := st.Decode(t); x.Kind == exhaustive.KindPublish || x.Kind == exhaustive.KindDeliver ||
				x.Kind == exhaustive.KindDuplicate || x.Kind == exhaustive.KindDrop {
				allowed["none: "+rec.Action.Action+" is not an action a client logs as one (use published or received)"] = true
				continue
			}
			if n, ok := st.Step(row, t); ok {
				cands = append(cands, n)
			} else {
				allowed["none: "+rec.Action.Action+" is not enabled"] = true
			}
		}
	case rec.Received != nil:
		un.What, un.Says = "received", jsonText(rec.Received)
		want := entriesText(rec.Received.Contexts)
		for _, row := range closure {
			for s := range st.Devices() {
				if s == d {
					continue
				}
				for pos, b := range st.InFlight(row, s, d) {
					got := blobEntriesText(b)
					allowed[fmt.Sprintf("d%d->%s %s", s, rec.Device, got)] = true
					if got != want || (rec.Received.ClientID != "" && rec.Received.ClientID != DeviceVar(s)) {
						continue
					}
					for _, k := range []exhaustive.Kind{exhaustive.KindDeliver, exhaustive.KindDuplicate} {
						t := transitionIndex(st, exhaustive.Transition{Kind: k, Device: d, From: s, Pos: pos})
						if n, ok := st.Step(row, t); ok {
							cands = append(cands, n)
						}
					}
				}
			}
		}
		if len(allowed) == 0 {
			allowed["nothing is in flight to "+rec.Device] = true
		}
	default:
		un.What, un.Says = "published", publishedText(rec.Published)
		t := transitionIndex(st, exhaustive.Transition{Kind: exhaustive.KindPublish, Device: d})
		for _, row := range closure {
			bs, err := st.Publication(row, d)
			if err != nil {
				allowed["none: "+err.Error()] = true
				continue
			}
			got := publicationText(bs)
			allowed[got] = true
			if got != un.Says {
				continue
			}
			if n, ok := st.Step(row, t); ok {
				cands = append(cands, n)
			} else {
				allowed[got+" (not enabled here: nothing to publish, or a channel is full)"] = true
			}
		}
	}
	if len(cands) == 0 {
		un.Allows, un.More = firstSorted(allowed)
		return nil, un
	}
	if rec.State == nil {
		return dedupe(cands), nil
	}
	want := jsonText(rec.State)
	views := map[string]bool{}
	var out [][]int32
	for _, n := range cands {
		got := viewText(st.Device(n, d))
		views[got] = true
		if got == want {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		un.What, un.Says = "state", want
		un.Allows, un.More = firstSorted(views)
		return nil, un
	}
	return dedupe(out), nil
}

// transitionIndex finds the index of a decoded transition.
func transitionIndex(st *exhaustive.Stepper, x exhaustive.Transition) int {
	for t := range st.Transitions() {
		y := st.Decode(t)
		if y.Kind == x.Kind && y.Device == x.Device && (x.Kind == exhaustive.KindPublish || (y.From == x.From && y.Pos == x.Pos)) {
			return t
		}
	}
	return -1
}

func dedupe(rows [][]int32) [][]int32 {
	seen := map[string]bool{}
	var out [][]int32
	for _, r := range rows {
		if k := exhaustive.Key(r); !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

func firstSorted(m map[string]bool) ([]string, int) {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	if len(ks) > maxAllowed {
		return ks[:maxAllowed], len(ks) - maxAllowed
	}
	return ks, 0
}

// jsonText is v as compact JSON (maps with sorted keys).
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	return string(b)
}

func viewText(cs []exhaustive.CtxObserved) string {
	m := map[string]ctxView{}
	for _, c := range cs {
		m[c.Ctx] = ctxView{c.Effective, c.Live}
	}
	return jsonText(m)
}

func entriesText(m map[string]uint32) string { return jsonText(m) }

func blobEntriesText(b model.Blob) string {
	m := map[string]uint32{}
	for _, e := range b.Contexts {
		m[e.Key] = e.Value
	}
	return jsonText(m)
}

// publishedText is the logged parts as a sorted list of entry sets: the
// order of coordinate parts in a log carries no meaning.
func publishedText(bs []LogBlob) string {
	var ps []string
	for _, b := range bs {
		ps = append(ps, entriesText(b.Contexts))
	}
	slices.Sort(ps)
	return "[" + strings.Join(ps, ",") + "]"
}

func publicationText(bs []model.Blob) string {
	var ps []string
	for _, b := range bs {
		ps = append(ps, blobEntriesText(b))
	}
	slices.Sort(ps)
	return "[" + strings.Join(ps, ",") + "]"
}

// PairUniverse is the universe a log is validated in by default: two
// upgraded devices that a client hosts both of, so nothing happens on a
// device the log does not show; override contexts c0 and c1, values 10
// and 20, whole publications, at most two messages in flight per channel,
// client-id rotation. Silent steps are then only publications and drops,
// and the search stays small. A network universe with a legacy device
// (network-whole) validates too: the guided search explains its logs, but
// a log no behaviour explains goes to the breadth-first search, which the
// legacy device's unlogged behaviour can take past its bound (the verdict
// is then unknown).
func PairUniverse() exhaustive.Universe {
	u := exhaustive.NetworkWholeUniverse()
	u.Name = "validate-pair"
	u.Doc = "in-flight network, whole publications: 2 upgraded devices, c0/c1, values 10/20, 2 messages per channel"
	u.Devices = u.Devices[:2]
	n := *u.Network
	n.SymDevices = []int{0, 1}
	u.Network = &n
	return u
}
