package witnesshtml

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A lasso is a liveness witness: a stem (the prefix, any actions of the
// user, the relays or the community, then the approach, the device's own
// steps) reaches a state that the loop, again the device's own steps,
// returns to. Along the loop what the property waits for never happens,
// and nothing stops the device from going round it for ever. The walk's
// and the community's lassos are files of their own packages, read here
// by their kind, and drawn from the text their replay renders, so this
// package depends on neither. The network's lassos (netlasso.go) are
// witness files read by FromWitness; one script draws them all.

// The kinds of the lasso files a page draws.
const (
	KindWalkLasso      = "walk-liveness"
	KindCommunityLasso = "community-liveness"
)

// The community liveness properties a lasso names, each with its own
// sentence of what the user sees.
const (
	propRekey = "rekey"
	propLive  = "live"
)

// Lasso is the shape the page draws: how many of the witness's steps are
// the prefix, the approach and the loop (the steps are Witness.Steps, in
// that order, each naming its Part), and what the replay said of the
// loop's end.
type Lasso struct {
	Prefix   int    `json:"prefix"`
	Approach int    `json:"approach"`
	Loop     int    `json:"loop"`
	Closes   string `json:"closes"`
	// Heads is the heading row of each part, in the words of the kind's
	// actors (the device's own steps, the network's publications and
	// deliveries): one script draws every kind.
	Heads PartHeads `json:"heads"`
	// Lines heads the steps' lines: the state after each step, or what
	// the step does when the file holds actions only.
	Lines string `json:"lines"`
	// Rest, for a loop of no steps, says why the state where the stem
	// ends stays as it is for ever (nothing is enabled there); a lasso
	// with an empty loop and no Rest is not drawn.
	Rest string `json:"rest,omitempty"`
}

// PartHeads are a lasso's heading rows, one per part.
type PartHeads struct {
	Prefix   string `json:"prefix"`
	Approach string `json:"approach"`
	Loop     string `json:"loop"`
}

// deviceHeads are the parts of a lasso whose loop is one device's own
// steps (the walk's, a community member's).
var deviceHeads = PartHeads{
	Prefix:   "prefix: what the user, the relays or the community do",
	Approach: "approach: the device's own steps to the loop's first state",
	Loop:     "loop: the device's own steps, back to the loop's first state; they repeat for ever",
}

// LassoFile is what the page reads of a lasso file itself: its kind, the
// property it breaks, the rule set it was found under and the detail it
// stored. The steps come from the replay's rendering.
type LassoFile struct {
	Kind      string `json:"kind"`
	Invariant string `json:"invariant"`
	Property  string `json:"property"`
	Rules     string `json:"rules"`
	Detail    string `json:"detail"`
}

// ParseLassoFile reads the head of a walk or community lasso file. A
// file that is not JSON, of another kind, or without its invariant or
// rule set is refused (its package refuses everything else).
func ParseLassoFile(data []byte) (LassoFile, error) {
	var f LassoFile
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&f); err != nil {
		return LassoFile{}, fmt.Errorf("lasso file: %v", err)
	}
	switch {
	case f.Kind != KindWalkLasso && f.Kind != KindCommunityLasso:
		return LassoFile{}, fmt.Errorf("lasso file: kind %q, want %s or %s", f.Kind, KindWalkLasso, KindCommunityLasso)
	case f.Invariant == "":
		return LassoFile{}, fmt.Errorf("lasso file: no invariant")
	case f.Rules == "":
		return LassoFile{}, fmt.Errorf("lasso file: no rule set")
	case f.Kind == KindCommunityLasso && f.Property == "":
		return LassoFile{}, fmt.Errorf("lasso file: a community lasso names no property")
	}
	return f, nil
}

var (
	// walkLassoStep is a walk lasso's step line "part N: action" (its
	// state follows on indented lines); communityLassoStep is a community
	// lasso's "part N. action: state".
	walkLassoStep      = regexp.MustCompile(`^(prefix|approach|loop) (\d+): (.*)$`)
	communityLassoStep = regexp.MustCompile(`^(prefix|approach|loop) (\d+)\. ([^:]*): (.*)$`)
)

// FromLasso builds the page's view of a lasso: f is its file, rules the
// rule set it was replayed under, text what the replay rendered, and
// reproduced whether the loop held (when it did not, text is the reason).
// The steps are numbered from 1 across the stem and the loop, so each row
// has its own anchor.
func FromLasso(f LassoFile, rules, text string, reproduced bool) Witness {
	out := Witness{Kind: f.Kind, Invariant: f.Invariant, Detail: f.Detail, Steps: []Step{}, Changed: []string{"rules " + rules}}
	out.Legend = lassoLegend(f.Kind)
	if !reproduced {
		out.Title = fmt.Sprintf("%s lasso of rules %s, replayed under rules %s", f.Kind, f.Rules, rules)
		out.Verdict = "not reproduced: " + strings.TrimSpace(text)
		// The file's own detail is a claim this replay did not confirm.
		out.Detail = "the file says (under rules " + f.Rules + "): " + f.Detail
		return out
	}
	out.Verdict = "reproduced: the loop repeats for ever under fair scheduling (" + f.Kind + ")"
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	out.Title = lines[0]
	if len(lines) > 1 {
		out.Detail = lines[1]
		lines = lines[2:]
	}
	l := &Lasso{Heads: deviceHeads, Lines: "the state after the step"}
	var root []string
	inRoot := false
	for _, line := range lines {
		t := strings.TrimSpace(line)
		cm := communityLassoStep.FindStringSubmatch(t)
		wm := walkLassoStep.FindStringSubmatch(t)
		switch {
		case cm != nil:
			out.Steps = append(out.Steps, lassoStep(l, cm[1], cm[3], []string{cm[4]}, len(out.Steps)))
			inRoot = false
		case wm != nil:
			out.Steps = append(out.Steps, lassoStep(l, wm[1], wm[3], nil, len(out.Steps)))
			inRoot = false
		case t == "root:":
			inRoot = true
		case strings.HasPrefix(t, "the loop returns to its first state"):
			l.Closes = t
		case t == "":
		case inRoot:
			root = append(root, t)
		case len(out.Steps) > 0:
			last := &out.Steps[len(out.Steps)-1]
			last.Lines = append(last.Lines, t)
		default:
			out.Initial = append(out.Initial, t)
		}
	}
	placeRoot(&out, l, root)
	out.Lasso = l
	out.Harm = lassoHarm(f, out)
	rewriteCeiling(&out)
	return out
}

// lassoStep is the step numbered after n others, counted in its part.
func lassoStep(l *Lasso, part, action string, lines []string, n int) Step {
	switch part {
	case "prefix":
		l.Prefix++
	case "approach":
		l.Approach++
	default:
		l.Loop++
	}
	return Step{N: n + 1, Action: action, Kind: "local", Device: -1, From: -1, To: -1, Lines: lines, Part: part}
}

// placeRoot puts the walk's state after the prefix (its "root") on the
// prefix's last step, where that state is reached, and says so on the
// prefix's earlier steps, whose states the walk does not print. Without a
// prefix the root is the initial state.
func placeRoot(out *Witness, l *Lasso, root []string) {
	if len(root) == 0 {
		return
	}
	if l.Prefix == 0 {
		out.Initial = append(out.Initial, root...)
		return
	}
	for i := 0; i < l.Prefix-1; i++ {
		if len(out.Steps[i].Lines) == 0 {
			out.Steps[i].Lines = []string{fmt.Sprintf("(the state after the whole prefix is shown at step %d)", l.Prefix)}
		}
	}
	last := &out.Steps[l.Prefix-1]
	last.Lines = append(last.Lines, root...)
}

// lassoPicture explains a lasso's picture, for every kind.
const lassoPicture = "the picture: the stem left to right, one arrow per step, then the loop as a ring; each arrow's number is its step's row"

// lassoLegend is a lasso's notation: the parts, then its kind's states.
func lassoLegend(kind string) []string {
	out := []string{
		"a lasso: the stem reaches a state, the loop returns to it; nothing makes the device leave the loop, so it can go round for ever and what the property waits for never happens",
		"prefix: what the user, the relays or the community do (any action); approach: the device's own steps from there to the loop's first state; loop: the device's own steps back to that state",
		lassoPicture,
	}
	if kind == KindWalkLasso {
		return append(out,
			"relayN {t,...} the wraps relay N holds, by created_at; store {...} the wraps the device stored; backdated {...} wraps published with an earlier created_at than their time",
			"cursor newest=N oldest=M the bounds of the history the walk has covered (- none yet); exhausted: nothing older is looked for, the walk is done",
		)
	}
	return append(out, communityLegend[1:]...)
}

// lassoHarm says what the user sees go wrong along the loop: in the words
// of the property the lasso breaks, with the state it sticks in.
func lassoHarm(f LassoFile, w Witness) []string {
	span := loopSpan(w.Lasso)
	switch {
	case f.Kind == KindWalkLasso:
		out := []string{"the walk never ends: the device keeps paging through the same history (" + span + ") and never shows the history complete, nor says that loading it failed"}
		if c := lastLoopLine(w, "cursor "); c != "" {
			out = append(out, "where it sticks: "+c+", the same after every pass of the loop, so no page the walk asks brings it closer to the end")
		}
		return out
	case f.Property == propRekey:
		if m := stuckEpoch.FindStringSubmatch(w.Detail); m != nil {
			return []string{
				fmt.Sprintf("a rotation is never adopted: the device stays on the key of epoch %s while the community has moved to epoch %s (%s)", m[1], m[2], span),
				"messages sealed under the new key are never read: new messages stop appearing in the community, while the device keeps running its rounds as if nothing were missing",
			}
		}
	case f.Property == propLive:
		if m := staleREQ.FindStringSubmatch(w.Detail); m != nil {
			return []string{
				fmt.Sprintf("the live REQ is never re-installed: the subscription stays at [%s] and never asks for [%s] (%s)", m[1], m[2], span),
				fmt.Sprintf("new messages on %s stop arriving as they are sent: the live subscription no longer asks for the key they are sealed under", channelsOf(m[2])),
			}
		}
	}
	return []string{fmt.Sprintf("%s never holds along the loop (%s): %s", f.Invariant, span, w.Detail)}
}

// loopSpan names the loop's rows: "steps 5 to 8 repeat for ever".
func loopSpan(l *Lasso) string {
	if l.Loop == 0 {
		return "for ever"
	}
	first := l.Prefix + l.Approach + 1
	if l.Loop == 1 {
		return fmt.Sprintf("step %d repeats for ever", first)
	}
	return fmt.Sprintf("steps %d to %d repeat for ever", first, first+l.Loop-1)
}

var (
	stuckEpoch = regexp.MustCompile(`the member at epoch (\d+) with the community at (\d+)`)
	staleREQ   = regexp.MustCompile(`the live REQ at \[([^\]]*)\], without the current planes of \[([^\]]*)\]`)
)

// lastLoopLine is the last line of the loop's last step that starts with
// prefix, or "".
func lastLoopLine(w Witness, prefix string) string {
	if len(w.Steps) == 0 {
		return ""
	}
	s := w.Steps[len(w.Steps)-1]
	for i := len(s.Lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(s.Lines[i], prefix) {
			return s.Lines[i]
		}
	}
	return ""
}

// channelsOf names the channels of planes "cN/eE ...", once each, in
// their order.
func channelsOf(planes string) string {
	var out []string
	for _, p := range strings.Fields(planes) {
		c, _, _ := strings.Cut(p, "/")
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return strings.Join(out, " and ")
}
