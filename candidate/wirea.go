package candidate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/nip-rs/harness/model"
)

// BlobA is a candidate-A plaintext: the v1 blob (its frontier entries in
// contexts, unescaped: A puts nothing of its own there) and the top-level
// "overrides" field, one register per raw context id.
type BlobA struct {
	model.Blob
	Overrides []OverrideA // sorted by context, unique
}

// OverrideA is one entry of the "overrides" field.
type OverrideA struct {
	Ctx string
	Reg RegA
}

// wireRegA is a register as the "overrides" field spells it. Pointers tell
// a missing member from a zero one.
type wireRegA struct {
	Counter  *uint32 `json:"counter"`
	Tiebreak *string `json:"tiebreak"`
	Op       *string `json:"op"`
	Baseline *uint32 `json:"baseline"`
}

// EncodeA serialises a candidate-A blob deterministically: the v1 members
// as model.EncodeBlob writes them, then "overrides" (omitted when empty)
// with its contexts in sorted order.
func EncodeA(b BlobA) []byte {
	base := model.EncodeBlob(b.Blob)
	if len(b.Overrides) == 0 {
		return base
	}
	ovs := slices.SortedFunc(slices.Values(b.Overrides), func(x, y OverrideA) int { return cmp.Compare(x.Ctx, y.Ctx) })
	var buf bytes.Buffer
	buf.Write(base[:len(base)-1]) // reopen the top-level object
	buf.WriteString(`,"overrides":{`)
	for i, o := range ovs {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(o.Ctx)
		t, _ := json.Marshal(o.Reg.Tiebreak) // strings always marshal
		fmt.Fprintf(&buf, `%s:{"counter":%d,"tiebreak":%s,"op":%q,"baseline":%d}`, k, o.Reg.Counter, t, o.Reg.Op, o.Reg.Baseline)
	}
	buf.WriteString("}}")
	return buf.Bytes()
}

// ParseA reads a candidate-A plaintext. The v1 members go through the
// production parser (model.ParseBlob: every Content Validation rule, and
// unknown top-level members ignored); "overrides", when present, must be an
// object of complete registers: a counter of at least 1, a tiebreak of 1 to
// 64 characters, an op SET or CLEAR, a baseline, all integers uint32, no
// other member, a context id of at most 256 bytes. Anything else rejects
// the whole blob (an error, never a panic).
func ParseA(data []byte) (BlobA, error) {
	b, _, err := model.ParseBlob(data)
	if err != nil {
		return BlobA{}, err
	}
	var top struct {
		Overrides json.RawMessage `json:"overrides"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return BlobA{}, fmt.Errorf("candidate A: %v", err)
	}
	out := BlobA{Blob: b}
	if top.Overrides == nil || string(top.Overrides) == "null" {
		return out, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(top.Overrides, &raw); err != nil {
		return BlobA{}, fmt.Errorf("candidate A: overrides is not an object: %v", err)
	}
	if len(raw) > model.MaxEntries {
		return BlobA{}, fmt.Errorf("candidate A: overrides has %d entries, over the limit of %d", len(raw), model.MaxEntries)
	}
	ctxs := make([]string, 0, len(raw))
	for k := range raw {
		ctxs = append(ctxs, k)
	}
	slices.Sort(ctxs)
	for _, ctx := range ctxs {
		reg, err := parseRegA(raw[ctx])
		if err != nil {
			return BlobA{}, fmt.Errorf("candidate A: overrides[%q]: %v", ctx, err)
		}
		if len(ctx) > model.MaxKeyBytes || ctx == "" {
			return BlobA{}, fmt.Errorf("candidate A: overrides key of %d bytes (want 1..%d)", len(ctx), model.MaxKeyBytes)
		}
		out.Overrides = append(out.Overrides, OverrideA{Ctx: ctx, Reg: reg})
	}
	return out, nil
}

func parseRegA(data []byte) (RegA, error) {
	var w wireRegA
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return RegA{}, err
	}
	switch {
	case w.Counter == nil || w.Tiebreak == nil || w.Op == nil || w.Baseline == nil:
		return RegA{}, fmt.Errorf("a register needs counter, tiebreak, op and baseline")
	case *w.Counter == 0:
		return RegA{}, fmt.Errorf("counter 0 (an operation counts from 1)")
	case !utf8.ValidString(*w.Tiebreak):
		return RegA{}, fmt.Errorf("tiebreak is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(*w.Tiebreak); n < 1 || n > model.MaxClientIDChars {
		return RegA{}, fmt.Errorf("tiebreak has %d characters, want 1..%d", n, model.MaxClientIDChars)
	}
	r := RegA{Counter: *w.Counter, Tiebreak: *w.Tiebreak, Baseline: *w.Baseline}
	switch *w.Op {
	case "SET":
		r.Op = OpSet
	case "CLEAR":
		r.Op = OpClear
	default:
		return RegA{}, fmt.Errorf("op %q (want SET or CLEAR)", *w.Op)
	}
	return r, nil
}
