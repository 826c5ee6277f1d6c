package witnesshtml

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// KindCommunity is the witness kind of the community history universes
// (the kind their package writes in every witness file); named here so
// this package need not depend on the universes it draws.
const KindCommunity = "community"

// communityLegend is the community universes' notation.
var communityLegend = []string{
	"one row per step: the action, then the whole state after it; step 0 is the initial state",
	"t=N the clock; community@E the community's current epoch; rotations=[...] the rotations announced; wraps=[eE@T] the wraps sealed under epoch E at time T (! forged, * read by the member)",
	"member@E keys=[...] the epoch the member knows and the keys it holds (retired@E: retired at that rotation); cursor=[oldest,newest] the member's history cursor",
}

// communityStep is a community witness's line "N. action: state".
var communityStep = regexp.MustCompile(`^(\d+)\. ([^:]*): (.*)$`)

// communityView reads a community witness's text: step 0 is the initial
// state, every further numbered line one step with its state, and the
// violation line the detail.
func communityView(lines []string, out *Witness) {
	out.Steps = []Step{}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		m := communityStep.FindStringSubmatch(t)
		switch {
		case m != nil && m[1] == "0":
			out.Initial = append(out.Initial, m[3])
		case m != nil:
			n, _ := strconv.Atoi(m[1])
			out.Steps = append(out.Steps, Step{N: n, Action: m[2], Kind: "local", Device: -1, From: -1, To: -1, Lines: []string{m[3]}})
		case strings.HasPrefix(t, "violation: "+out.Invariant+": "):
			out.Detail = strings.TrimPrefix(t, "violation: "+out.Invariant+": ")
		case strings.HasPrefix(t, "violation "+out.Invariant+": "):
			out.Detail = strings.TrimPrefix(t, "violation "+out.Invariant+": ")
		case t != "" && len(out.Steps) > 0:
			last := &out.Steps[len(out.Steps)-1]
			last.Lines = append(last.Lines, t)
		case t != "":
			out.Initial = append(out.Initial, t)
		}
	}
}

// encodingLegend is the legend of a witness that ran a wire encoding other
// than the spec's: the state lines are that encoding's own, so the spec's
// register notation (and its sibling keys) would misread them.
func encodingLegend(enc string) []string {
	return []string{
		"encoding " + enc + ": every state line is that encoding's own device state as it prints it, not the spec's register (S,C,B) nor its ov_s/ov_c/ov_b keys",
		"dN: device N; a step names the device it acts on, or the channel dN->dM of a delivery",
		"initial: every device's state before the first step; each step lists the devices it changed",
	}
}

// fixpointLine is a device's view at quiescence: "dN at the fixpoint: ..."
// followed by one "ctx: f=F live|dead unread=B" per context.
var (
	fixpointLine = regexp.MustCompile(`^d(\d+) at the fixpoint: (.*)$`)
	ctxView      = regexp.MustCompile(`(\S+): f=(\S+) (live|dead) unread=(true|false)`)
)

// deviceView is what one device shows for one context.
type deviceView struct {
	dev          int
	frontier     string
	live, unread bool
}

// shows says in a user's words what a device shows and why.
func (v deviceView) shows() string {
	switch {
	case v.live:
		return "unread, because it was marked unread (an override: it stays unread after the newest message is read)"
	case v.unread:
		return "unread only because a message is past its read frontier f=" + v.frontier + " (reading that message makes it read)"
	}
	return "read"
}

// harmOf says what a user would see at the witness's quiescence: each
// device's view of each context, and where the devices disagree. Nothing
// when the witness has no quiescence views (a witness of another kind).
func harmOf(steps []Step) []string {
	var views = map[string][]deviceView{}
	var ctxs []string
	for _, s := range steps {
		if s.Kind != "quiescence" {
			continue
		}
		for _, l := range s.Lines {
			m := fixpointLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			d, _ := strconv.Atoi(m[1])
			for _, c := range ctxView.FindAllStringSubmatch(m[2], -1) {
				if _, seen := views[c[1]]; !seen {
					ctxs = append(ctxs, c[1])
				}
				views[c[1]] = append(views[c[1]], deviceView{dev: d, frontier: c[2], live: c[3] == "live", unread: c[4] == "true"})
			}
		}
	}
	var out []string
	for _, c := range ctxs { // in the order the text names them
		vs := views[c]
		for _, v := range vs {
			out = append(out, fmt.Sprintf("d%d shows %s %s", v.dev, c, v.shows()))
		}
		out = append(out, disagreement(c, vs))
	}
	return out
}

// disagreement says where the devices' views of a context part: now (one
// shows it unread, another read), or at the user's next read (one keeps an
// override the other lacks).
func disagreement(c string, vs []deviceView) string {
	for _, a := range vs {
		for _, b := range vs {
			if a.unread && !b.unread {
				return fmt.Sprintf("where they disagree: right now d%d shows %s unread and d%d shows it read", a.dev, c, b.dev)
			}
		}
	}
	for _, a := range vs {
		for _, b := range vs {
			if a.live && !b.live {
				return fmt.Sprintf("where they disagree: both show %s unread now, but once the user reads the newest message d%d shows %s read while d%d keeps showing it unread: the user's mark is honoured on one device and lost on the other", c, b.dev, c, a.dev)
			}
		}
	}
	return fmt.Sprintf("every device shows %s the same: what fails is in the state the check compares (the detail above), not yet on screen", c)
}
