package mbt

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/itf"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// Run names the run a trace comes from, recorded in its #meta.
type Run struct {
	Universe string
	Rules    string
	Tie      string
	Seed     uint64
	Steps    int
	// Profile is the client profile the trace is masked by (ParseProfile);
	// empty or "full" writes everything.
	Profile string
}

// Traces runs walks From..From+Walks-1 of the simulation (cfg.Rules must be
// the rules named run.Rules under run.Tie) and returns each as a trace.
func Traces(cfg exhaustive.SimConfig, run Run) ([]*itf.Trace, error) {
	walks, err := exhaustive.SimulateObserved(cfg)
	if err != nil {
		return nil, err
	}
	prof, err := ParseProfile(run.Profile)
	if err != nil {
		return nil, err
	}
	if len(walks) > 0 && !slices.ContainsFunc(walks[0].States[0].Devices, func(d exhaustive.DeviceObserved) bool { return prof.hosts(d.Legacy) }) {
		// Such traces could be written but drive no client.
		return nil, fmt.Errorf("profile %s hosts no device of universe %s (it hosts the legacy devices when it lacks the override layer, the upgraded ones otherwise)", prof.Name, run.Universe)
	}
	var out []*itf.Trace
	for _, w := range walks {
		out = append(out, ToTrace(run, w))
	}
	return out, nil
}

// DeviceVar is the variable of device d.
func DeviceVar(d int) string { return fmt.Sprintf("d%d", d) }

// ToTrace is an observed walk as an ITF trace, masked by the run's
// profile (an unknown profile writes everything: Traces refuses one).
func ToTrace(run Run, w exhaustive.ObservedWalk) *itf.Trace {
	prof, _ := ParseProfile(run.Profile)
	var legacy itf.Set
	n := len(w.States[0].Devices)
	vars := make([]string, 0, n+2)
	for d, dv := range w.States[0].Devices {
		vars = append(vars, DeviceVar(d))
		if dv.Legacy {
			legacy = append(legacy, itf.NewInt(int64(d)))
		}
	}
	vars = append(vars, "inflight", "action")
	t := &itf.Trace{
		Meta: itf.Meta{Source: "explore -simulate", Description: fmt.Sprintf("walk %d of the simulation of universe %s from seed %d", w.Walk, run.Universe, run.Seed),
			Extra: itf.Record{"universe": itf.Str(run.Universe), "rules": itf.Str(run.Rules), "tie": itf.Str(run.Tie),
				"seed": itf.BigInt(newUint(run.Seed)), "walk": itf.NewInt(int64(w.Walk)), "steps": itf.NewInt(int64(run.Steps)), "legacy": legacy}},
		Vars: vars,
	}
	if prof.Name != ProfileFull {
		// A full trace names no profile, so traces written before
		// profiles existed read the same.
		t.Meta.Extra["profile"] = itf.Str(prof.Name)
	}
	for i, s := range w.States {
		act := itf.Record{"action": itf.Str("init")}
		if i > 0 {
			act = actionValue(w.Actions[i-1])
		}
		vals := stateValues(s, prof)
		vals["action"] = act
		t.States = append(t.States, itf.State{Index: i, Values: vals})
	}
	return t
}

// stateValues is an observed state's device and inflight variables, as
// the profile shows them.
func stateValues(s exhaustive.Observed, prof Profile) itf.Record {
	vals := itf.Record{}
	for d, dv := range s.Devices {
		vals[DeviceVar(d)] = prof.deviceValue(dv.Contexts)
	}
	inflight := itf.Map{}
	for _, ch := range s.InFlight {
		var msgs itf.List
		for _, b := range ch.Msgs {
			msgs = append(msgs, prof.blobValue(b))
		}
		inflight = append(inflight, itf.Pair{K: itf.Tup{itf.NewInt(int64(ch.From)), itf.NewInt(int64(ch.To))}, V: msgs})
	}
	vals["inflight"] = inflight
	return vals
}

func deviceValue(cs []exhaustive.CtxObserved) itf.Map {
	m := itf.Map{}
	for _, c := range cs {
		m = append(m, itf.Pair{K: itf.Str(c.Ctx), V: itf.Record{"effective": itf.NewInt(int64(c.Effective)), "live": itf.Bool(c.Live)}})
	}
	return m
}

func blobValue(b model.Blob) itf.Record {
	es := itf.Map{}
	for _, e := range b.Contexts {
		es = append(es, itf.Pair{K: itf.Str(e.Key), V: itf.NewInt(int64(e.Value))})
	}
	// No client id: the network world interns blobs by their entries
	// (client ids all have one length and change no behaviour), so the id a
	// message would show is not part of the state. A delivery names its
	// sender instead.
	return itf.Record{"contexts": es}
}

func actionValue(a witnessfile.Action) itf.Record {
	r := itf.Record{"action": itf.Str(a.Action)}
	for name, p := range map[string]*int{"device": a.Device, "from": a.From, "to": a.To} {
		if p != nil {
			r[name] = itf.NewInt(int64(*p))
		}
	}
	if a.Ctx != "" {
		r["ctx"] = itf.Str(a.Ctx)
	}
	if a.Value != 0 {
		r["value"] = itf.NewInt(int64(a.Value))
	}
	if a.Msg != 0 {
		r["msg"] = itf.NewInt(int64(a.Msg))
	}
	return r
}

// Walk is what a trace says about its run, read back.
type Walk struct {
	Run     Run
	Walk    int
	Legacy  []int
	Devices int
	Actions []witnessfile.Action
	Profile Profile
}

// hosted names the devices a client of the walk's profile hosts: the
// upgraded ones, or under a profile without the override layer the
// legacy ones.
func (w *Walk) hosted() ([]string, error) {
	var out []string
	for d := range w.Devices {
		if w.hosts(d) {
			out = append(out, DeviceVar(d))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("profile %s hosts no device of universe %s (legacy devices %v)", w.Profile.Name, w.Run.Universe, w.Legacy)
	}
	return out, nil
}

// hosts reports whether a client of the walk's profile hosts device d.
func (w *Walk) hosts(d int) bool { return w.Profile.hosts(slices.Contains(w.Legacy, d)) }

// Parse reads a trace of this package back: its run and its actions. A
// trace missing what Check needs is an error naming what.
func Parse(t *itf.Trace) (*Walk, error) {
	w := &Walk{}
	ex := t.Meta.Extra
	var err error
	str := func(k string) string {
		v, ok := ex[k].(itf.Str)
		if !ok && err == nil {
			err = fmt.Errorf("#meta %s: want a string", k)
		}
		return string(v)
	}
	num := func(k string, lo, hi int64) int64 {
		v, ok := ex[k].(itf.Int)
		n, fits := v.Int64()
		if (!ok || !fits || n < lo || n > hi) && err == nil {
			err = fmt.Errorf("#meta %s: want an integer in %d..%d", k, lo, hi)
		}
		return n
	}
	w.Run.Universe, w.Run.Rules, w.Run.Tie = str("universe"), str("rules"), str("tie")
	w.Walk = int(num("walk", 0, 1<<31))
	w.Run.Steps = int(num("steps", 1, witnessfile.MaxDepth))
	if s, ok := ex["seed"].(itf.Int); ok && s.Big().Sign() >= 0 && s.Big().IsUint64() {
		w.Run.Seed = s.Big().Uint64()
	} else if err == nil {
		err = fmt.Errorf("#meta seed: want an unsigned 64-bit integer")
	}
	if err != nil {
		return nil, err
	}
	if p, ok := ex["profile"]; ok {
		s, isStr := p.(itf.Str)
		if !isStr {
			return nil, fmt.Errorf("#meta profile: want a string")
		}
		w.Run.Profile = string(s)
	}
	if w.Profile, err = ParseProfile(w.Run.Profile); err != nil {
		return nil, fmt.Errorf("#meta profile: %v", err)
	}
	for d := 0; slices.Contains(t.Vars, DeviceVar(d)); d++ {
		w.Devices++
	}
	if w.Devices == 0 || !slices.Contains(t.Vars, "inflight") || !slices.Contains(t.Vars, "action") {
		return nil, fmt.Errorf("vars %v: want d0.., inflight and action", t.Vars)
	}
	if ls, ok := ex["legacy"].(itf.Set); ok {
		for _, l := range ls {
			n, ok := l.(itf.Int)
			d, fits := n.Int64()
			if !ok || !fits || d < 0 || d >= int64(w.Devices) {
				return nil, fmt.Errorf("#meta legacy: %v is not a device", l)
			}
			w.Legacy = append(w.Legacy, int(d))
		}
	} else {
		return nil, fmt.Errorf("#meta legacy: want a set of devices")
	}
	if len(t.States) == 0 {
		return nil, fmt.Errorf("no states")
	}
	for i, s := range t.States[1:] {
		a, err := readAction(s.Values["action"])
		if err != nil {
			return nil, fmt.Errorf("state %d action: %v", i+1, err)
		}
		w.Actions = append(w.Actions, a)
	}
	return w, nil
}

func readAction(v itf.Value) (witnessfile.Action, error) {
	var a witnessfile.Action
	r, ok := v.(itf.Record)
	if !ok {
		return a, fmt.Errorf("want a record")
	}
	for k, f := range r {
		switch k {
		case "action", "ctx":
			s, ok := f.(itf.Str)
			if !ok {
				return a, fmt.Errorf("%s: want a string", k)
			}
			if k == "action" {
				a.Action = string(s)
			} else {
				a.Ctx = string(s)
			}
		case "device", "from", "to", "value", "msg":
			n, ok := f.(itf.Int)
			x, fits := n.Int64()
			if !ok || !fits || x < 0 || x > 1<<32-1 {
				return a, fmt.Errorf("%s: want a small non-negative integer", k)
			}
			i := int(x)
			switch k {
			case "device":
				a.Device = &i
			case "from":
				a.From = &i
			case "to":
				a.To = &i
			case "value":
				a.Value = uint32(x)
			case "msg":
				a.Msg = i
			}
		default:
			return a, fmt.Errorf("unknown member %q", k)
		}
	}
	if a.Action == "" {
		return a, fmt.Errorf("no action name")
	}
	return a, nil
}

// WriteTraces writes traces, walks from, from+1, ... of one run under
// tie, to dir (created if need be) as walk-<index>-<tie>.itf.json: the
// index four digits wide, so the files list in walk order.
func WriteTraces(dir string, from int, tie model.TiePolicy, trs []*itf.Trace) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, tr := range trs {
		b, err := itf.Encode(tr)
		if err != nil {
			return err
		}
		name := filepath.Join(dir, fmt.Sprintf("walk-%04d-%s.itf.json", from+i, tie))
		if err := os.WriteFile(name, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
