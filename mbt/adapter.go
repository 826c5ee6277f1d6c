package mbt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/nip-rs/harness/itf"
)

// lineTimeout bounds the wait for one answer: a client that hangs is
// reported as an error rather than stalling the run. It is a guard, not a
// measurement: no verdict depends on how fast a client answers.
const lineTimeout = 30 * time.Second

// ctxView is one context as the protocol carries it.
type ctxView struct {
	Effective uint32 `json:"effective"`
	Live      bool   `json:"live"`
}

// answer is one line a client writes.
type answer struct {
	Step    *int                          `json:"step"`
	Devices map[string]map[string]ctxView `json:"devices"`
}

// Drive runs one trace through a client process started from argv (a
// fresh process for the trace) and compares each answer with the trace.
// It returns a *Divergence at the first difference, another error when
// the client cannot be driven (it exits, hangs, or answers out of
// protocol), and nil when every state agrees.
func Drive(argv []string, t *itf.Trace) error {
	w, err := Parse(t)
	if err != nil {
		return err
	}
	hosted, err := w.hosted()
	if err != nil {
		return err
	}
	cl, err := startClient(argv, w.Profile)
	if err != nil {
		return err
	}
	defer cl.close()
	ask := cl.ask
	compare := func(k int, a *answer) error {
		for _, dv := range hosted {
			want, err := viewOf(t.States[k].Values[dv], !w.Profile.Legacy)
			if err != nil {
				return fmt.Errorf("state %d %s: %v", k, dv, err)
			}
			got := w.Profile.maskView(a.Devices[dv])
			if !sameView(want, got) {
				return &Divergence{Walk: w.Walk, Seed: w.Run.Seed, Step: k, Action: actionName(t, k), Var: dv,
					Want: w.Profile.viewJSON(want), Got: w.Profile.viewJSON(got), Witness: Prefix(t, k)}
			}
		}
		return nil
	}
	a, err := ask(0, map[string]any{"init": map[string]any{"devices": hosted}})
	if err != nil {
		return err
	}
	if err := compare(0, a); err != nil {
		return err
	}
	for k := 1; k < len(t.States); k++ {
		msg, err := stepMessage(t, w, k)
		if err != nil {
			return err
		}
		if msg == nil {
			continue // nothing a hosted device sees
		}
		a, err := ask(k, msg)
		if err != nil {
			return err
		}
		if err := compare(k, a); err != nil {
			return err
		}
	}
	return nil
}

// stepMessage is the line for state k's action, or nil when the action
// reaches no hosted device.
func stepMessage(t *itf.Trace, w *Walk, k int) (map[string]any, error) {
	a := w.Actions[k-1]
	switch a.Action {
	case "publish", "drop":
		return nil, nil
	case "deliver", "duplicate":
		if a.From == nil || a.To == nil || !w.hosts(*a.To) {
			return nil, nil
		}
		blob, err := inFlight(t.States[k-1].Values["inflight"], *a.From, *a.To, a.Msg)
		if err != nil {
			return nil, fmt.Errorf("state %d: %v", k, err)
		}
		return map[string]any{"device": DeviceVar(*a.To), "deliver": map[string]any{"client_id": DeviceVar(*a.From), "contexts": blob}}, nil
	}
	if a.Device == nil || !w.hosts(*a.Device) {
		return nil, nil
	}
	act := map[string]any{"action": a.Action}
	if a.Ctx != "" {
		act["ctx"] = a.Ctx
	}
	if a.Value != 0 {
		act["value"] = a.Value
	}
	return map[string]any{"device": DeviceVar(*a.Device), "action": act}, nil
}

// inFlight is message msg (1-based) of channel from->to in an inflight
// value, as wire key -> value.
func inFlight(v itf.Value, from, to, msg int) (map[string]uint32, error) {
	m, ok := v.(itf.Map)
	if !ok {
		return nil, fmt.Errorf("inflight is not a map")
	}
	for _, p := range m {
		tup, ok := p.K.(itf.Tup)
		if !ok || len(tup) != 2 || !isInt(tup[0], from) || !isInt(tup[1], to) {
			continue
		}
		msgs, ok := p.V.(itf.List)
		if !ok || msg < 1 || msg > len(msgs) {
			return nil, fmt.Errorf("channel d%d->d%d has no message %d", from, to, msg)
		}
		cs, err := itf.Field(msgs[msg-1], "contexts")
		if err != nil {
			return nil, err
		}
		return uintMap(cs)
	}
	return nil, fmt.Errorf("channel d%d->d%d is empty", from, to)
}

func isInt(v itf.Value, n int) bool {
	i, ok := v.(itf.Int)
	x, fits := i.Int64()
	return ok && fits && x == int64(n)
}

func uintMap(v itf.Value) (map[string]uint32, error) {
	m, ok := v.(itf.Map)
	if !ok {
		return nil, fmt.Errorf("want a map of keys to integers")
	}
	out := map[string]uint32{}
	for _, p := range m {
		k, ok1 := p.K.(itf.Str)
		i, ok2 := p.V.(itf.Int)
		x, fits := i.Int64()
		if !ok1 || !ok2 || !fits || x < 0 || x > 1<<32-1 {
			return nil, fmt.Errorf("entry %v: want a key and a 32-bit value", p.K)
		}
		out[string(k)] = uint32(x)
	}
	return out, nil
}

// viewOf is a device variable as the protocol's context map; live says
// whether each context must carry its liveness (a trace masked for a
// client without the override layer has none).
func viewOf(v itf.Value, live bool) (map[string]ctxView, error) {
	m, ok := v.(itf.Map)
	if !ok {
		return nil, fmt.Errorf("want a map of contexts")
	}
	out := map[string]ctxView{}
	for _, p := range m {
		k, ok := p.K.(itf.Str)
		if !ok {
			return nil, fmt.Errorf("context %v is not a string", p.K)
		}
		fv, err1 := itf.Field(p.V, "effective")
		i, ok1 := fv.(itf.Int)
		x, fits := i.Int64()
		var l itf.Bool
		ok2, err2 := true, error(nil)
		if live {
			var lv itf.Value
			lv, err2 = itf.Field(p.V, "live")
			l, ok2 = lv.(itf.Bool)
		}
		if err1 != nil || err2 != nil || !ok1 || !ok2 || !fits || x < 0 || x > 1<<32-1 {
			if !live {
				return nil, fmt.Errorf("context %s: want {effective}", k)
			}
			return nil, fmt.Errorf("context %s: want {effective, live}", k)
		}
		out[string(k)] = ctxView{uint32(x), bool(l)}
	}
	return out, nil
}

func sameView(a, b map[string]ctxView) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// viewJSON is a view with its contexts in name order (json sorts map keys).
func viewJSON(v map[string]ctxView) string {
	if v == nil {
		return "(absent)"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// client is one client process spoken to by the adapter protocol.
type client struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *bytes.Buffer
	lines  chan []byte
}

// startClient starts the process argv with its standard input and output
// piped to the protocol, and NIPRS_PROFILE naming the trace's profile (as
// the vectors' node runner names it), so that a client able to run as
// several profiles runs as the one the trace is masked for whatever its
// caller's environment says.
func startClient(argv []string, prof Profile) (*client, error) {
	if len(argv) == 0 {
		return nil, fmt.Errorf("no client command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "NIPRS_PROFILE="+prof.Name)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cl := &client{cmd: cmd, stdin: stdin, stderr: &bytes.Buffer{}, lines: make(chan []byte)}
	cmd.Stderr = cl.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start client: %w", err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			cl.lines <- slices.Clone(sc.Bytes())
		}
		close(cl.lines)
	}()
	return cl, nil
}

func (cl *client) close() {
	cl.stdin.Close()
	_ = cl.cmd.Process.Kill()
	_ = cl.cmd.Wait()
}

// ask sends one line for step and reads the client's answer to it.
func (cl *client) ask(step int, msg map[string]any) (*answer, error) {
	msg["step"] = step
	b, _ := json.Marshal(msg) // maps of plain values always marshal
	if _, err := cl.stdin.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("step %d: write to client: %v (stderr: %s)", step, err, cl.stderr.String())
	}
	select {
	case line, ok := <-cl.lines:
		if !ok {
			return nil, fmt.Errorf("step %d: the client exited without answering (stderr: %s)", step, cl.stderr.String())
		}
		var a answer
		if err := json.Unmarshal(line, &a); err != nil || a.Step == nil || a.Devices == nil {
			return nil, fmt.Errorf("step %d: the client's answer is not {\"step\", \"devices\"}: %.200s", step, line)
		}
		if *a.Step != step {
			return nil, fmt.Errorf("step %d: the client answered step %d", step, *a.Step)
		}
		return &a, nil
	case <-time.After(lineTimeout):
		return nil, fmt.Errorf("step %d: no answer within %s", step, lineTimeout)
	}
}

// Report is a run of simulated walks through a client.
type Report struct {
	Walks, States int
	Divergence    *Divergence
}

// DriveAll drives each trace in order and stops at the first divergence
// (the report carries it) or the first error.
func DriveAll(argv []string, trs []*itf.Trace) (*Report, error) {
	r := &Report{}
	for _, t := range trs {
		err := Drive(argv, t)
		if d, ok := IsDivergence(err); ok {
			r.Divergence = d
			return r, nil
		}
		if err != nil {
			return r, err
		}
		r.Walks++
		r.States += len(t.States)
	}
	return r, nil
}
