package figures

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nip-rs/harness/model"
)

// clientID is the client_id of every measured blob, as in the project's
// other byte figures (model's ceiling tests): 15 characters.
const clientID = "client-aabbccdd"

// hex64 is a 64-hex event id for the msg: and thread: shapes.
var hex64 = strings.Repeat("0123456789abcdef", 4)

// A contextKind is one shape of context id the note measures.
type contextKind struct {
	name    string
	example string
	// nth is the i-th distinct id of the shape, for tables of many.
	nth func(i int) string
}

// kinds are the note's three shapes: a channel UUID (the note's example
// id), msg:<hex64> and thread:<hex64>.
func kinds() []contextKind {
	return []contextKind{
		{"channel (UUID)", "b68cd7cb-6f8d-4641-b743-a7349eb4114b", func(i int) string {
			return fmt.Sprintf("%08x-6f8d-4641-b743-%012x", i, i)
		}},
		{"message (`msg:` + hex64)", "msg:" + hex64, func(i int) string { return fmt.Sprintf("msg:%064x", i) }},
		{"thread (`thread:` + hex64)", "thread:" + hex64, func(i int) string { return fmt.Sprintf("thread:%064x", i) }},
	}
}

// live is a live group of ctx with the note's example counters unless
// given: S=1, C=0, B=10.
func live(ctx string, s, c, b uint32) []model.Entry {
	return []model.Entry{{Key: model.PrefixS + ctx, Value: s}, {Key: model.PrefixC + ctx, Value: c}, {Key: model.PrefixB + ctx, Value: b}}
}

func floor(ctx string, c uint32) []model.Entry {
	return []model.Entry{{Key: model.PrefixC + ctx, Value: c}}
}

func size(es []model.Entry) int {
	return model.EncodedSize(model.Blob{V: 1, ClientID: clientID, Contexts: model.SortEntries(es)})
}

// alone is what es add to an empty contexts map: the entries as one JSON
// fragment, commas between them included (the note's measure).
func alone(es []model.Entry) int { return size(es) - size(nil) }

// inBlob is what es add to a contexts map already holding an entry: each
// entry pays its comma too (what a budget pays).
func inBlob(es []model.Entry) int {
	other := []model.Entry{{Key: "zz-other", Value: 1}}
	return size(append(append([]model.Entry(nil), other...), es...)) - size(other)
}

// entrySizes is each entry of es alone.
func entrySizes(es []model.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, n(alone([]model.Entry{e})))
	}
	return out
}

// noteBytes is the formal note's table of bytes per manually-unread
// context: live (3 keys), tombstone (1 key).
var noteBytes = map[string][2]int{
	"channel (UUID)":             {138, 45},
	"message (`msg:` + hex64)":   {234, 77},
	"thread (`thread:` + hex64)": {243, 80},
}

// ContextBytes is the note's "Bytes per manually-unread context" for
// candidate B, at the note's example counters (S=1, C=0, B=10; floor C=3)
// and at the uint32 maximum.
func ContextBytes() Table {
	const M = model.MaxU32
	t := Table{
		Title: "Bytes per manually-unread context (candidate B)",
		Intro: "Live group at the note's counters (S=1, C=0, B=10), floor at C=3, and both at the uint32 maximum (S=C=B=2^32-1); the context's own frontier entry is not counted, as in the note.",
		Head:  []string{"context", "id bytes", "live, alone / in a blob", "floor, alone / in a blob", "at the maximum: live / floor, alone", "the note: live / floor"},
	}
	for _, k := range kinds() {
		l, f := live(k.example, 1, 0, 10), floor(k.example, 3)
		nb := noteBytes[k.name]
		t.Rows = append(t.Rows, []string{k.name, n(len(k.example)),
			n(alone(l)) + " / " + n(inBlob(l)), n(alone(f)) + " / " + n(inBlob(f)),
			n(alone(live(k.example, M, M, M))) + " / " + n(alone(floor(k.example, M))),
			n(nb[0]) + " / " + n(nb[1])})
	}
	ch := kinds()[0].example
	t.Notes = []string{
		fmt.Sprintf("The note's live and floor figures are reproduced exactly as fragments. Its breakdown of the channel group writes 44, 44 and 45 characters per entry; they are %s (quotes, colon and value around each key), which its total of 138 already counts.",
			strings.Join(entrySizes(live(ch, 1, 0, 10)), ", ")),
		fmt.Sprintf("In a blob every entry also pays a comma: %s bytes live and %s per floor for a channel, the figure a budget pays.", n(inBlob(live(ch, 1, 0, 10))), n(inBlob(floor(ch, 3)))),
		fmt.Sprintf("At the uint32 maximum a channel group is %s bytes and its floor %s: the spec's ~164 and ~54.", n(alone(live(ch, M, M, M))), n(alone(floor(ch, M)))),
	}
	return t
}

// aRegister is candidate A's register as the note defines it:
// {counter, client_tiebreak, op, baseline}, one per context in a new
// top-level overrides object.
type aRegister struct {
	Counter        uint32 `json:"counter"`
	ClientTiebreak string `json:"client_tiebreak"`
	Op             string `json:"op"`
	Baseline       uint32 `json:"baseline"`
}

// aBlob renders a candidate-A blob: the production encoding of the
// frontier entries, then "overrides" holding each register keyed by its
// context (sorted: encoding/json sorts map keys).
func aBlob(frontiers []model.Entry, regs map[string]aRegister) []byte {
	base := model.EncodeBlob(model.Blob{V: 1, ClientID: clientID, Contexts: model.SortEntries(frontiers)})
	ov, err := json.Marshal(regs)
	if err != nil {
		panic(err) // a map of plain structs always marshals
	}
	if regs == nil {
		ov = []byte("{}")
	}
	out := append([]byte(nil), base[:len(base)-1]...)
	out = append(out, `,"overrides":`...)
	out = append(out, ov...)
	return append(out, '}')
}

// aContext is what one A register adds to the overrides object, alone
// (the first) and beside another.
func aContext(ctx string, r aRegister) (first, beside int) {
	empty := len(aBlob(nil, map[string]aRegister{}))
	one := len(aBlob(nil, map[string]aRegister{ctx: r}))
	other := map[string]aRegister{"zz-other": r}
	two := map[string]aRegister{"zz-other": r, ctx: r}
	return one - empty, len(aBlob(nil, two)) - len(aBlob(nil, other))
}

// noteA is the note's example A register.
const noteA = `{"counter":1,"tiebreak":"dev0","op":"SET","baseline":10}`

// CandidateA is the note's candidate-A comparison, from a faithful
// rendering of A's register in a top-level overrides field.
func CandidateA() Table {
	reg := aRegister{Counter: 1, ClientTiebreak: clientID, Op: "SET", Baseline: 10}
	obj, _ := json.Marshal(reg)
	wide := reg
	wide.ClientTiebreak = strings.Repeat("c", model.MaxClientIDChars)
	field := len(aBlob(nil, map[string]aRegister{})) - size(nil)
	t := Table{
		Title: "Candidate A, rendered",
		Intro: fmt.Sprintf("A's register `%s` (client_tiebreak is the %d-character client_id of every measured blob) in a top-level `overrides` object, keyed by the raw context id. The field itself, `,\"overrides\":{}`, costs %s bytes once per blob.", obj, len(clientID), n(field)),
		Head:  []string{"context", "A per context, first / beside another", "with a 64-character client_id", "B live, alone", "B floor, alone"},
	}
	for _, k := range kinds() {
		first, beside := aContext(k.example, reg)
		_, wideBeside := aContext(k.example, wide)
		t.Rows = append(t.Rows, []string{k.name, n(first) + " / " + n(beside), n(wideBeside),
			n(alone(live(k.example, 1, 0, 10))), n(alone(floor(k.example, 3)))})
	}
	t.Notes = []string{
		fmt.Sprintf("The note's ≈ 56 is its example object `%s`, exactly %s bytes, with a 4-character tiebreak and the field named `tiebreak`; the register it defines holds a client_id (1–64 characters) under `client_tiebreak`, so the object alone is %s bytes here, and the context key comes on top.", noteA, n(len(noteA)), n(len(obj))),
		"A has no floor: a cleared register keeps its whole object, so A's dead contexts cost what its live ones do, where B's fold to one key.",
	}
	return t
}
