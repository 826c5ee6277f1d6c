package mbt

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/nip-rs/harness/itf"
)

// RecordLog drives a client process (argv, speaking the adapter protocol)
// through a trace, as Drive does, and returns the log the client's side
// would write: the init line, then per line sent, the same line with
// "deliver" named "received" and the device's answered view as "state".
// Nothing is compared with the trace: the log is for Validate, which
// knows only what a client knows (no legacy device's actions, no
// publications, no drops).
func RecordLog(argv []string, t *itf.Trace) ([]byte, error) {
	w, err := Parse(t)
	if err != nil {
		return nil, err
	}
	hosted, err := w.hosted()
	if err != nil {
		return nil, err
	}
	cl, err := startClient(argv, w.Profile)
	if err != nil {
		return nil, err
	}
	defer cl.close()
	var out bytes.Buffer
	line := func(v map[string]any) {
		b, _ := json.Marshal(v) // maps of plain values always marshal
		out.Write(append(b, '\n'))
	}
	if _, err := cl.ask(0, map[string]any{"init": map[string]any{"devices": hosted}}); err != nil {
		return nil, err
	}
	line(map[string]any{"step": 0, "init": map[string]any{"devices": hosted}})
	for k := 1; k < len(t.States); k++ {
		msg, err := stepMessage(t, w, k)
		if err != nil {
			return nil, err
		}
		if msg == nil {
			continue
		}
		a, err := cl.ask(k, msg)
		if err != nil {
			return nil, err
		}
		dev, _ := msg["device"].(string)
		view, ok := a.Devices[dev]
		if !ok {
			return nil, fmt.Errorf("step %d: the client's answer has no device %s", k, dev)
		}
		rec := map[string]any{"step": k, "device": dev, "state": view}
		if d, ok := msg["deliver"]; ok {
			rec["received"] = d
		} else {
			rec["action"] = msg["action"]
		}
		line(rec)
	}
	return out.Bytes(), nil
}
