package witnesshtml

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/nip-rs/harness/witnessfile"
)

// What a page says about each witness before its trace: the verdict in
// the command line's words, what was changed from the production rules,
// and a legend of the witness kind's own notation.

// ceilingSpan is how far below 2^32 a value is still written 2^32−k: the
// ceiling universes start counters a few steps below the uint32 ceiling,
// where the raw ten-digit values hide what matters (how far from the top).
const ceilingSpan = 1 << 16

var bigNumber = regexp.MustCompile(`\b\d{10}\b`)

// ceilingText writes every value within ceilingSpan of 2^32 as 2^32−k
// (2^32 itself as 2^32), and reports whether it rewrote any.
func ceilingText(s string) (string, bool) {
	changed := false
	out := bigNumber.ReplaceAllStringFunc(s, func(m string) string {
		v, err := strconv.ParseUint(m, 10, 64)
		if err != nil || v > 1<<32 || v < 1<<32-ceilingSpan {
			return m
		}
		changed = true
		if v == 1<<32 {
			return "2^32"
		}
		return "2^32−" + strconv.FormatUint(1<<32-v, 10)
	})
	return out, changed
}

// ceilingLegend explains the 2^32−k notation.
const ceilingLegend = "2^32−k: a counter k below 2^32 (4294967296): this universe starts its counters near the uint32 ceiling, so what matters is the distance from the top"

// loadCeilingLegend explains the notation in a load's rows, where such a
// value is a time: a window's upper bound the load sets before it has
// seen any event, past every event a relay holds.
const loadCeilingLegend = "2^32−k: the time k seconds below 2^32 (4294967296): the upper bound of a window the load opens before it has seen any event, later than every event; the picture draws it as an open end"

// rewriteCeiling applies ceilingText to every line the page shows, and adds
// the notation to the legend when it was used.
func rewriteCeiling(w *Witness) {
	used := false
	fix := func(s *string) {
		var ok bool
		*s, ok = ceilingText(*s)
		used = used || ok
	}
	fix(&w.Title)
	fix(&w.Detail)
	for i := range w.Initial {
		fix(&w.Initial[i])
	}
	for i := range w.Found {
		fix(&w.Found[i])
	}
	for i := range w.Steps {
		for j := range w.Steps[i].Lines {
			fix(&w.Steps[i].Lines[j])
		}
	}
	for i := range w.Load {
		fix(&w.Load[i].Text)
	}
	switch {
	case used && w.Kind == witnessfile.KindLoad:
		w.Legend = append(w.Legend, loadCeilingLegend)
	case used:
		w.Legend = append(w.Legend, ceilingLegend)
	}
}

// verdictOf is the verdict of a witness as the command line words it when
// nothing replayed it: a history witness of the rule set's documented
// limitation says so (its text prints "documented limitation"), every
// other witness is a violation of its invariant. An observation is a
// situation the search was asked to reach, not a failure: verdictOf
// leaves it to observationVerdict.
func verdictOf(w *witnessfile.Witness, text string) (verdict string, documented bool) {
	if strings.Contains(text, "\ndocumented limitation "+w.Invariant+":") {
		return "documented limitation: " + w.Invariant + " fails, as the rule set's text says it does", true
	}
	return "violation: " + w.Invariant + " fails", false
}

// KindObservation is the kind of an observation's witness (package
// exhaustive's; a test keeps the two equal).
const KindObservation = "observation"

// observationVerdict is an observation's verdict: the situation reached,
// which is no failure of any check.
func observationVerdict(w *witnessfile.Witness) string {
	return "observed: " + w.Invariant + " is reached (a situation looked for, not a failure)"
}

// lineLegend is the explorer's notation, and what the page's colours mean.
var lineLegend = []string{
	"reg=(S,C,B): the override register: set counter S, clear counter C, baseline B",
	"f=N: the device's read frontier for the context; f=- it holds none (f=0 is a frontier of 0)",
	"live / dead: the verdict: the override says unread (live) or not (dead)",
	"a red line is a device whose override is live after the step: it shows the context unread by override; compare the devices' last lines at quiescence",
	"unread=true: what the device shows for the newest message; dead unread=true means no override, but the message is past the frontier",
	"intent {...}: the causal history of the context's marks that the oracle (N3) reads: which device marked what, in which order",
	"dN->dM: the channel of messages from device N to device M; canonical {...} the keys a device publishes (ov_s, ov_c, ov_b: S, C, B)",
}

// walkLegend is the history walk's notation.
var walkLegend = []string{
	"the picture: one row per step, time (created_at) left to right; relay0 and relay1 show the wraps each relay holds, store the wraps the client stored",
	"store row: green a stored wrap; red a hole: a wrap a relay holds, at or above the cursor's oldest, that the store lacks while it holds a newer one (the walk passed over it); dashed green a wrap newer than all stored (the next newest page asks for it); dashed grey one below oldest (the older pass may fetch it)",
	"the bracket over the store row is the cursor's [oldest, newest]; a thick left end: exhausted (nothing older is looked for); a dashed orange line under it a recorded pending region",
	"pages asked: each page REQ of the step's round as a bar over its [since, until] window (open ends reach the axis's edge), with its pass (newest, bridge, repair, older) and limit",
	"t=1 is the prior epoch's wrap on relay0, sealed (grey) until a rekey makes it addressable",
	"budgets: page is the wraps per REQ, catch-up-pages the pages a catch-up's bridge and older pass may ask, load-older-pages a scroll-up's",
}

// budgets is a history witness's universe sizes, shown beside its picture
// (they explain the hole: a burst larger than page × catch-up-pages wraps
// is more than one catch-up's bridge walks).
func budgets(w *witnessfile.Witness) []Field {
	var fs []Field
	for _, p := range w.Point {
		v := strconv.FormatInt(p.Num, 10)
		if p.IsStr {
			v = strconv.Quote(p.Str)
		}
		fs = append(fs, Field{p.Name, v})
	}
	return fs
}

// directedLegend is a directed check's notation: a point, not a trace.
var directedLegend = []string{
	"a directed check runs one scenario at every point of its parameter cube; the point below is one where the rule set fails the check",
	"check, tie, rules: the check and the run; each further row one parameter of the scenario (its name as the check's source names it)",
	"(S,C,B) in the detail: the override register, set counter, clear counter, baseline; {ov_s:c=N ...} the keys published, f the read frontier",
}
