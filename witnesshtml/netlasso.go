package witnesshtml

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nip-rs/harness/witnessfile"
)

// The network liveness check writes two witnesses of one file kind, told
// apart by the invariant: the re-publish lasso (a fair cycle of
// publications and deliveries that no user action drives) and the
// eventual-agreement witness (the devices reach a state where they
// disagree and never leave it). Both are a stem and a loop of the
// network's steps; the page draws them with the walk's and the
// community's lasso script. The names are the exhaustive package's,
// repeated so this package depends only on the witness file.
const (
	KindNetworkLasso = "liveness"
	invRepublish     = "no-republish-cycle"
	invAgreement     = "override-reaches-every-device"
)

var (
	// netPartLine heads a part of the rendering; netStepLine is one of
	// its steps, numbered within the part.
	netPartLine = regexp.MustCompile(`^(prefix|approach|loop):$`)
	netStepLine = regexp.MustCompile(`^(\d+): (.+)$`)
	// apartDetail is the agreement check's "c0 is live on d0 and dead on
	// d1": the context and the two devices that disagree on it.
	apartDetail = regexp.MustCompile(`(\S+) is (live|dead) on d(\d+) and (live|dead) on d(\d+)`)
	deviceName  = regexp.MustCompile(`\bd(\d{1,3})\b`)
)

// maxLanes bounds the lanes a detail's device names open: the network
// universes have a few devices, and a name past this is not one of them.
const maxLanes = 16

// netParts are the file's three parts, each a list of the explorer's
// actions.
type netParts struct {
	Prefix   []witnessfile.Action `json:"prefix"`
	Approach []witnessfile.Action `json:"approach"`
	Loop     []witnessfile.Action `json:"loop"`
}

func (p netParts) of(part string) []witnessfile.Action {
	switch part {
	case "prefix":
		return p.Prefix
	case "approach":
		return p.Approach
	}
	return p.Loop
}

// netLassoView reads a network lasso's rendering: the line after the
// title is the detail, then each part's heading and its numbered steps.
// The lanes come from the file's actions, matched part by part; a file
// whose actions do not match the rendering draws its steps without lanes.
// A rendering that says the witness does not hold draws its steps and no
// lasso: the loop is the file's claim, not what the replay found.
func netLassoView(w *witnessfile.Witness, lines []string, out *Witness) {
	out.Steps = []Step{}
	var parts netParts
	fileOK := json.Unmarshal(w.Raw, &parts) == nil
	l := &Lasso{Lines: "what the step does (the file holds the steps, not the states)"}
	agreement := w.Invariant == invAgreement
	l.Heads = republishHeads
	if agreement {
		l.Heads = agreementHeads
	}
	part, holds := "", true
	for k, line := range lines {
		t := strings.TrimSpace(line)
		pm, sm := netPartLine.FindStringSubmatch(t), netStepLine.FindStringSubmatch(t)
		switch {
		case pm != nil:
			part = pm[1]
		case sm != nil && part != "":
			n, _ := strconv.Atoi(sm[1])
			s := lassoStep(l, part, sm[2], nil, len(out.Steps))
			if as := parts.of(part); fileOK && n >= 1 && n <= len(as) {
				placeAction(&s, as[n-1])
				s.Lines = []string{gloss(as[n-1], part)}
			}
			out.Steps = append(out.Steps, s)
		case strings.Contains(t, "does not hold: "):
			holds = false
			out.Detail = "the file says: " + w.Detail + "; the replay: " + t
		case k == 0 && t != "":
			out.Detail = t
		case t != "":
			out.Initial = append(out.Initial, t)
		}
	}
	for _, s := range out.Steps {
		out.Devices = max(out.Devices, s.Device+1, s.From+1, s.To+1)
	}
	// A device the detail names has a lane even where no step acts on it:
	// the agreement witness's device that never hears of the mark.
	for _, m := range deviceName.FindAllStringSubmatch(out.Detail, -1) {
		if d, err := strconv.Atoi(m[1]); err == nil && d < maxLanes {
			out.Devices = max(out.Devices, d+1)
		}
	}
	out.Legend = netLassoLegend(agreement)
	if !holds {
		return
	}
	if agreement && l.Loop == 0 {
		l.Heads.Loop = "loop: none: no publication or delivery is enabled where the prefix ends"
		l.Rest = "nothing is left that could bring the devices together, so they stay apart"
	}
	out.Lasso = l
	if agreement {
		out.Harm = agreementHarm(*out)
	} else {
		out.Harm = republishHarm(*out)
	}
}

var (
	republishHeads = PartHeads{
		Prefix:   "prefix: what the user does",
		Approach: "approach: publications and deliveries, no user action, to the loop's first state",
		Loop:     "loop: publications and deliveries, no user action, back to the loop's first state; they repeat for ever",
	}
	agreementHeads = PartHeads{
		Prefix:   "prefix: the user's actions and the publications and deliveries that follow, to a state where the devices disagree",
		Approach: "approach: publications and deliveries to the loop's first state",
		Loop:     "loop: publications and deliveries back to that state, the devices never agreeing; they repeat for ever",
	}
)

// netLassoLegend is the network lasso's notation.
func netLassoLegend(agreement bool) []string {
	first := "a lasso: the user's actions and the publications and deliveries they set off reach a state; the loop, publications and deliveries with no user action, returns to it and can go round for ever, so the publications never stop"
	if agreement {
		first = "an agreement witness: the stem reaches a state where the devices disagree on a context's override; from there either nothing is enabled (the devices settled apart) or a fair loop of publications and deliveries returns to it without the devices ever agreeing"
	}
	return []string{
		first,
		lassoPicture,
		"the lanes: one per device; a blue dot the user's action on that device, a green dot with dotted arrows a publication to every peer, an orange arrow a delivery from one device to another",
		"publish dN: device N publishes its canonical state; deliver dN->dM msg K: device M receives the K-th message in flight on the channel from N; mark_unread / mark_read dN cX: the user's mark on device N",
	}
}

// placeAction puts a step on its device's lane, or between two lanes.
func placeAction(s *Step, a witnessfile.Action) {
	switch {
	case a.From != nil && a.To != nil:
		s.Kind, s.From, s.To = a.Action, *a.From, *a.To
	case a.Device != nil:
		s.Device = *a.Device
		if a.Action == "publish" {
			s.Kind = "publish"
		}
	}
}

// gloss says what one step does, in words.
func gloss(a witnessfile.Action, part string) string {
	dev := func(p *int) string {
		if p == nil {
			return "a device"
		}
		return "d" + strconv.Itoa(*p)
	}
	switch a.Action {
	case "mark_unread":
		return fmt.Sprintf("the user marks %s unread on %s", a.Ctx, dev(a.Device))
	case "mark_read":
		return fmt.Sprintf("the user marks %s read on %s", a.Ctx, dev(a.Device))
	case "publish":
		if part == "prefix" {
			return dev(a.Device) + " publishes its canonical state to its peers"
		}
		return dev(a.Device) + " publishes its canonical state to its peers: no user action asked for it, its trigger fired"
	case "deliver":
		return fmt.Sprintf("%s receives message %d from %s", dev(a.To), a.Msg, dev(a.From))
	case "duplicate":
		return fmt.Sprintf("%s receives message %d from %s again (a duplicate)", dev(a.To), a.Msg, dev(a.From))
	case "drop":
		return fmt.Sprintf("message %d from %s to %s is lost", a.Msg, dev(a.From), dev(a.To))
	}
	if a.Ctx != "" {
		return fmt.Sprintf("the user's %s of %s on %s", a.Action, a.Ctx, dev(a.Device))
	}
	return fmt.Sprintf("the user's %s on %s", a.Action, dev(a.Device))
}

// userMarks are the user's marks among the prefix's steps, with the step
// each is on: "marks c0 unread on d0 (step 1)".
func userMarks(w Witness) []string {
	var out []string
	for _, s := range w.Steps {
		if s.Part != "prefix" {
			continue
		}
		if f := strings.Fields(s.Action); len(f) == 3 && (f[0] == "mark_unread" || f[0] == "mark_read") {
			out = append(out, fmt.Sprintf("marks %s %s on %s (step %d)", f[2], strings.TrimPrefix(f[0], "mark_"), f[1], s.N))
		}
	}
	return out
}

// republishHarm says what the re-publish lasso costs the user: the
// devices that publish along the loop, and how much each pass sends.
func republishHarm(w Witness) []string {
	var pubs []string
	npub, ndel := 0, 0
	for _, s := range w.Steps {
		if s.Part != "loop" {
			continue
		}
		switch f := strings.Fields(s.Action); {
		case len(f) == 2 && f[0] == "publish":
			npub++
			if !slices.Contains(pubs, f[1]) {
				pubs = append(pubs, f[1])
			}
		case len(f) > 0 && (f[0] == "deliver" || f[0] == "duplicate"):
			ndel++
		}
	}
	if npub == 0 {
		return []string{fmt.Sprintf("%s never holds along the loop (%s): %s", invRepublish, loopSpan(w.Lasso), w.Detail)}
	}
	who := pubs[0] + " keeps re-publishing"
	if len(pubs) > 1 {
		who = strings.Join(pubs, " and ") + " keep re-publishing to each other"
	}
	after := ""
	if m := userMarks(w); len(m) > 0 {
		after = "after the user " + strings.Join(m, ", then ") + ", "
	}
	return []string{
		fmt.Sprintf("%s%s for ever with no further user action (%s): the loop's publications and deliveries return to the state they started from, and nothing ends them", after, who, loopSpan(w.Lasso)),
		fmt.Sprintf("traffic and battery use never stop: every pass of the loop sends %s and %s, and ends in the state it began in, so nothing sent changes what any device shows", count(npub, "publication"), count(ndel, "delivery")),
	}
}

// agreementHarm says what the agreement witness leaves on screen: the
// device that holds the context marked unread, the one that does not, and
// why nothing will bring them together.
func agreementHarm(w Witness) []string {
	m := apartDetail.FindStringSubmatch(w.Detail)
	if m == nil {
		return []string{fmt.Sprintf("%s never holds (%s): %s", invAgreement, loopSpan(w.Lasso), w.Detail)}
	}
	ctx, live, dead := m[1], "d"+m[3], "d"+m[5]
	if m[2] == "dead" {
		live, dead = dead, live
	}
	first := fmt.Sprintf("%s and %s never agree on %s", live, dead, ctx)
	for _, s := range w.Steps {
		f := strings.Fields(s.Action)
		if s.Part != "prefix" || len(f) != 3 || f[2] != ctx {
			continue
		}
		switch {
		case f[0] == "mark_unread" && f[1] == live:
			first = fmt.Sprintf("the mark unread the user set on %s at step %d never reaches %s", live, s.N, dead)
		case f[0] == "mark_read" && f[1] == dead:
			first = fmt.Sprintf("the mark read the user made on %s at step %d never reaches %s", dead, s.N, live)
		}
	}
	why := ": no publication or delivery is left to bring them together"
	if w.Lasso.Loop > 0 {
		why = fmt.Sprintf(", although both devices keep publishing and delivering (%s)", loopSpan(w.Lasso))
	}
	return []string{
		first + why,
		fmt.Sprintf("one shows %s unread, the other read, for ever: %s holds the mark (its override is live) and shows %s unread even after its newest message is read, while %s holds none and shows %s read once that message is read", ctx, live, ctx, dead, ctx),
	}
}

// count is "2 publications", "1 delivery".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "y") {
		return strconv.Itoa(n) + " " + strings.TrimSuffix(what, "y") + "ies"
	}
	return strconv.Itoa(n) + " " + what + "s"
}
