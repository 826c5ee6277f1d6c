package itf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
)

// MaxBytes bounds the document Read accepts: a trace larger than this is
// refused rather than held in memory.
const MaxBytes = 64 << 20

// ErrMalformed marks a document that is not an ITF trace.
var ErrMalformed = errors.New("malformed ITF trace")

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// Read reads one ITF trace. Anything that is not one (bad JSON, a
// missing or misplaced member, a state without a value of some variable,
// a tagged object of the wrong shape, a fraction where an integer must
// be) is an error wrapping ErrMalformed and naming where it is.
func Read(r io.Reader) (*Trace, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, bad("larger than %d bytes", MaxBytes)
	}
	return Decode(data)
}

// Decode is Read of a document in memory.
func Decode(data []byte) (*Trace, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var top map[string]json.RawMessage
	if err := dec.Decode(&top); err != nil {
		return nil, bad("not a JSON object: %v", err)
	}
	if top == nil {
		return nil, bad("not a JSON object: null")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad("data after the trace object")
	}
	t := &Trace{}
	for k := range top {
		switch k {
		case "#meta", "params", "vars", "states", "loop":
		default:
			return nil, bad("unknown top-level member %q", k)
		}
	}
	if err := readMeta(top["#meta"], &t.Meta); err != nil {
		return nil, err
	}
	var err2 error
	if t.Vars, err2 = readNames("vars", top["vars"], true); err2 != nil {
		return nil, err2
	}
	if raw, ok := top["params"]; ok {
		if t.Params, err2 = readNames("params", raw, false); err2 != nil {
			return nil, err2
		}
	}
	if err := readStates(top["states"], t); err != nil {
		return nil, err
	}
	if raw, ok := top["loop"]; ok {
		n, err := readIndex("loop", raw)
		if err != nil {
			return nil, err
		}
		t.Loop = &n
	}
	if err := t.check(); err != nil {
		return nil, bad("%v", err)
	}
	return t, nil
}

func readMeta(raw json.RawMessage, m *Meta) error {
	if raw == nil {
		return bad("no #meta")
	}
	v, err := parseValue(raw, "#meta")
	if err != nil {
		return err
	}
	rec, ok := v.(Record)
	if !ok {
		return bad("#meta is a %s, not an object", v.kind())
	}
	m.Extra = Record{}
	for k, x := range rec {
		s, isStr := x.(Str)
		switch k {
		case "format", "source", "description":
			if !isStr {
				return bad("#meta %s is a %s, not a string", k, x.kind())
			}
			switch k {
			case "format":
				m.Format = string(s)
			case "source":
				m.Source = string(s)
			default:
				m.Description = string(s)
			}
		default:
			m.Extra[k] = x
		}
	}
	if m.Format != "ITF" {
		return bad("#meta format %q (want \"ITF\")", m.Format)
	}
	return nil
}

func readNames(what string, raw json.RawMessage, required bool) ([]string, error) {
	if raw == nil {
		if required {
			return nil, bad("no %s", what)
		}
		return nil, nil
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil || names == nil {
		return nil, bad("%s is not an array of strings", what)
	}
	return names, nil
}

func readIndex(what string, raw json.RawMessage) (int, error) {
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, bad("%s is not a number", what)
	}
	i, err := n.Int64()
	if err != nil || i < 0 || i > 1<<31 {
		return 0, bad("%s %s is not an index", what, n)
	}
	return int(i), nil
}

func readStates(raw json.RawMessage, t *Trace) error {
	if raw == nil {
		return bad("no states")
	}
	var states []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &states); err != nil || states == nil {
		return bad("states is not an array of objects")
	}
	for i, s := range states {
		if s == nil {
			return bad("state %d is null", i)
		}
		st := State{Values: Record{}}
		mraw, ok := s["#meta"]
		if !ok {
			return bad("state %d has no #meta", i)
		}
		var sm map[string]json.RawMessage
		if err := json.Unmarshal(mraw, &sm); err != nil || sm == nil {
			return bad("state %d: #meta is not an object", i)
		}
		iraw, ok := sm["index"]
		if !ok {
			return bad("state %d: #meta has no index", i)
		}
		idx, err := readIndex(fmt.Sprintf("state %d index", i), iraw)
		if err != nil {
			return err
		}
		if idx != i {
			return bad("state %d has index %d", i, idx)
		}
		st.Index = idx
		for k, vraw := range s {
			if k == "#meta" {
				continue
			}
			v, err := parseValue(vraw, fmt.Sprintf("state %d var %q", i, k))
			if err != nil {
				return err
			}
			st.Values[k] = v
		}
		t.States = append(t.States, st)
	}
	return nil
}

// parseValue reads one value's JSON; where names the place for errors.
func parseValue(raw json.RawMessage, where string) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, bad("%s: %v", where, err)
	}
	return toValue(x, where)
}

func toValue(x any, where string) (Value, error) {
	switch v := x.(type) {
	case nil:
		return nil, bad("%s: null is not an ITF value", where)
	case bool:
		return Bool(v), nil
	case string:
		return Str(v), nil
	case json.Number:
		n, ok := new(big.Int).SetString(v.String(), 10)
		if !ok {
			return nil, bad("%s: %s is not an integer", where, v)
		}
		return Int{n}, nil
	case []any:
		return toList(v, where)
	case map[string]any:
		return toTagged(v, where)
	}
	return nil, bad("%s: unexpected JSON %T", where, x)
}

func toList(xs []any, where string) (List, error) {
	out := make(List, len(xs))
	for i, e := range xs {
		v, err := toValue(e, fmt.Sprintf("%s[%d]", where, i))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// toTagged reads an object: a tagged value when it has a # member (then
// that member alone), a record otherwise.
func toTagged(m map[string]any, where string) (Value, error) {
	tag := ""
	for k := range m {
		if strings.HasPrefix(k, "#") {
			if len(m) != 1 {
				return nil, bad("%s: tagged object %q has other members", where, k)
			}
			tag = k
		}
	}
	if tag == "" {
		rec := Record{}
		for k, e := range m {
			v, err := toValue(e, where+"."+k)
			if err != nil {
				return nil, err
			}
			rec[k] = v
		}
		return rec, nil
	}
	body := m[tag]
	at := where + " " + tag
	switch tag {
	case "#bigint":
		s, ok := body.(string)
		if !ok {
			return nil, bad("%s: want a string of digits", at)
		}
		n, ok := new(big.Int).SetString(s, 10)
		if !ok || strings.HasPrefix(s, "+") {
			return nil, bad("%s: %q is not an integer", at, s)
		}
		return Int{n}, nil
	case "#unserializable":
		s, ok := body.(string)
		if !ok {
			return nil, bad("%s: want a string", at)
		}
		return Unserializable(s), nil
	case "#set", "#tup", "#map":
		xs, ok := body.([]any)
		if !ok {
			return nil, bad("%s: want an array", at)
		}
		l, err := toList(xs, at)
		if err != nil {
			return nil, err
		}
		switch tag {
		case "#set":
			return Set(l), nil
		case "#tup":
			return Tup(l), nil
		}
		out := make(Map, len(l))
		for i, p := range l {
			kv, ok := p.(List)
			if !ok || len(kv) != 2 {
				return nil, bad("%s[%d]: want a [key, value] pair", at, i)
			}
			out[i] = Pair{kv[0], kv[1]}
		}
		return out, nil
	}
	return nil, bad("%s: unknown tag", at)
}
