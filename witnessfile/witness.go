package witnessfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Witness is a violation that can be replayed: for the explorer, the
// universe and the actions from its initial state; for a directed check,
// the check and its parameter point. Its JSON form is the witness file.
type Witness struct {
	Kind      string   `json:"kind"` // KindExplore or KindDirected
	Universe  string   `json:"universe,omitempty"`
	Depth     int      `json:"depth,omitempty"`
	Check     string   `json:"check,omitempty"`
	Tie       string   `json:"tie"`
	Rules     string   `json:"rules"`
	Invariant string   `json:"invariant"`
	Detail    string   `json:"detail"`
	Actions   []Action `json:"actions,omitempty"`
	Point     Params   `json:"point,omitempty"`
	// Encoding names the wire encoding of an explorer run other than the
	// spec's (package candidate: "A", or "B" run through its world); empty
	// is the spec's encoding in the production explorer, as every witness
	// written before encodings existed.
	Encoding string `json:"encoding,omitempty"`

	// Text is the rendering, when the witness was found in this process
	// (a witness read from a file is rendered by replaying it).
	Text string `json:"-"`
	// Raw is the file as read, for a kind whose fields this package does
	// not hold (a load witness, or a kind another package defines).
	Raw []byte `json:"-"`
}

// Witness kinds.
const (
	KindExplore  = "explore"
	KindDirected = "directed"
	// KindLoad is a full-state load scenario (props.Witness): its file
	// has no kind field, it is recognised by its config.
	KindLoad = "load"
	// KindHistory is the history walk's trace (package history replays
	// it); it is named here for the bounds every trace kind keeps.
	KindHistory = "history"
)

// Action is one step of an explorer witness as the file holds it: the
// action's name and its parameters. A channel action (deliver, duplicate,
// drop) names From and To; any other names Device.
type Action struct {
	Action string `json:"action"`
	Device *int   `json:"device,omitempty"`
	From   *int   `json:"from,omitempty"`
	To     *int   `json:"to,omitempty"`
	Ctx    string `json:"ctx,omitempty"`
	Value  uint32 `json:"value,omitempty"`
	Msg    int    `json:"msg,omitempty"`
}

// ErrBad marks a witness that does not parse or does not fit its universe
// or check: an input error, not a violation.
var ErrBad = errors.New("bad witness")

// Bad is an ErrBad error with a message.
func Bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrBad, fmt.Sprintf(format, a...))
}

// Parse reads a witness file of any kind. An explorer or directed witness
// is read strictly: unknown fields, trailing data and a missing invariant
// are errors (wrapping ErrBad). A load witness (props' format, recognised
// by its "config" object and no "kind") and a witness of any other kind
// keep the file in Raw, for the package that replays them to read strictly;
// their common fields are filled in as far as they are present.
//
// Every kind is bounded before it is believed: the file's size
// (MaxFileBytes), every text field's length, and for a trace kind (explore,
// history) its depth bound and action count (CheckTrace). The replayer of
// each kind then checks every parameter against its universe or check.
func Parse(data []byte) (*Witness, error) {
	if err := CheckSize(data); err != nil {
		return nil, err
	}
	w, err := parse(data)
	if err != nil {
		return nil, err
	}
	if err := w.checkFields(); err != nil {
		return nil, err
	}
	switch w.Kind {
	case KindExplore, KindHistory:
		if err := w.CheckTrace(); err != nil {
			return nil, err
		}
		if w.Kind == KindExplore && (w.Check != "" || len(w.Point) > 0) {
			return nil, Bad("an explore witness carries no check or point (a directed witness does)")
		}
	case KindDirected:
		if w.Universe != "" || w.Depth != 0 || len(w.Actions) > 0 || w.Encoding != "" {
			return nil, Bad("a directed witness carries no universe, depth, actions or encoding (an explore witness does)")
		}
	}
	return w, nil
}

func parse(data []byte) (*Witness, error) {
	var head struct {
		Kind   string          `json:"kind"`
		Config json.RawMessage `json:"config"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, Bad("%v", err)
	}
	switch {
	case head.Kind == "" && head.Config != nil:
		return parseLoad(data)
	case head.Kind == KindExplore || head.Kind == KindDirected:
		return parseStrict(data)
	case head.Kind == KindHistory:
		// The walk's witness has this package's fields and no others; it
		// decides no ties, so a tie is a file the harness did not write.
		w, err := parseStrict(data)
		if err == nil && w.Tie != "" {
			return nil, Bad("tie %q: a history witness has none (the walk decides no ties)", w.Tie)
		}
		if err == nil {
			w.Raw = data
		}
		return w, err
	case head.Kind == "":
		return nil, Bad("no kind named (want %s, %s, or a load witness's config)", KindExplore, KindDirected)
	}
	var w Witness
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, Bad("%v", err)
	}
	if w.Invariant == "" {
		return nil, Bad("no invariant named")
	}
	w.Raw = data
	return &w, nil
}

func parseStrict(data []byte) (*Witness, error) {
	var w Witness
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, Bad("%v", err)
	}
	if dec.More() {
		return nil, Bad("trailing data after the witness object")
	}
	if w.Invariant == "" {
		return nil, Bad("no invariant named")
	}
	return &w, nil
}

// parseLoad reads the common fields of a load witness: its check, rule set
// and violation ("<invariant>: <detail>").
func parseLoad(data []byte) (*Witness, error) {
	var l struct {
		Check     string `json:"check"`
		Rules     string `json:"rules"`
		Violation string `json:"violation"`
	}
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, Bad("%v", err)
	}
	inv, detail, _ := strings.Cut(l.Violation, ": ")
	if inv == "" {
		return nil, Bad("load witness names no violation")
	}
	return &Witness{Kind: KindLoad, Check: l.Check, Rules: l.Rules, Invariant: inv, Detail: detail, Raw: data}, nil
}

// JSON is the witness file content (indented, newline-terminated); for a
// kind this package does not lay out, the file as read.
func (w *Witness) JSON() []byte {
	if w.Raw != nil && w.Kind != KindExplore && w.Kind != KindDirected {
		return w.Raw
	}
	b, _ := json.MarshalIndent(w, "", "  ") // plain data always marshals
	return append(b, '\n')
}

// Replayed is what replaying a witness found.
type Replayed struct {
	// Reproduced is true when the witness's invariant failed again.
	Reproduced bool
	// Found lists every violation the replay observed.
	Found []string
	// Detail is the replay's own account of the witness's invariant
	// (empty when it held), to compare with the file's stored detail.
	Detail string
	// Text is the witness rendered step by step.
	Text string
}

// DirectedText renders a directed witness: the check, its point and the
// violation.
func (w *Witness) DirectedText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "witness %s: directed check %s, tie %s, rules %s\n", w.Invariant, w.Check, w.Tie, w.Rules)
	fmt.Fprintf(&b, "point: %s\n", w.Point)
	fmt.Fprintf(&b, "violation %s: %s\n", w.Invariant, w.Detail)
	return b.String()
}
