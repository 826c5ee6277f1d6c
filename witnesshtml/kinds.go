package witnesshtml

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/nip-rs/harness/witnessfile"
)

// Field is one named value of a directed witness's point (or of its run:
// check, tie, rules), shown as one row of the point's table.
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// LoadRow is one line of a full-state load scenario. Lane says where it
// happens: "phase" (a scenario step: a publication, start, a round,
// finish), "relay" (the relay stores an event), "query" (the client sends
// REQ or CLOSE to the relay), "delivery" (the relay sends EVENT or EOSE to
// the client), "verdict" (the load's conclusion) or "note" (a prediction).
type LoadRow struct {
	// N numbers the rows that are not phases (a phase heads the rows
	// after it); Index is the row's place among all rows.
	N     int    `json:"n"`
	Index int    `json:"index"`
	Lane  string `json:"lane"`
	Phase string `json:"phase"`
	Text  string `json:"text"`
	// Violation marks the row where the load concluded wrongly.
	Violation bool `json:"violation,omitempty"`
	// What the picture needs: a query's subscription, window and limit
	// (Since, Until nil when the REQ sets none), an event's name and time
	// (stored, or delivered on Sub), and whether the violation names the
	// event as missing.
	Sub     string `json:"sub,omitempty"`
	Since   *int64 `json:"since,omitempty"`
	Until   *int64 `json:"until,omitempty"`
	Limit   int    `json:"limit,omitempty"`
	Event   string `json:"event,omitempty"`
	At      *int64 `json:"at,omitempty"`
	Missing bool   `json:"missing,omitempty"`
	// Beyond says which window bounds lie far outside the events (the
	// picture draws them as open ends and names them in the band's label).
	Beyond string `json:"beyond,omitempty"`
}

// directedView fills the point's table: the check and its run, then each
// parameter in the point's own order.
func directedView(w *witnessfile.Witness, out *Witness) {
	out.Fields = []Field{{"check", w.Check}, {"tie", w.Tie}, {"rules", w.Rules}}
	for _, p := range w.Point {
		v := strconv.FormatInt(p.Num, 10)
		if p.IsStr {
			v = strconv.Quote(p.Str)
		}
		out.Fields = append(out.Fields, Field{p.Name, v})
	}
}

// loadView reads a load witness's text (the replay's form, "witness INV:
// load check ..." then its lines, or the stored form, "check ..." then
// "violation: INV: ...") into rows. The violation is where the load gave
// its verdict: the last verdict row, or the last row when none was given.
func loadView(w *witnessfile.Witness, lines []string, out *Witness) {
	phase := ""
	n := 0
	defer loadAxis(out)
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "replay found:"):
			markLoadViolation(out)
			return
		case strings.HasPrefix(t, "violation"):
			d := strings.TrimPrefix(strings.TrimPrefix(t, "violation"), ":")
			d = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(d), w.Invariant+":"))
			out.Detail = d
			continue
		}
		row := LoadRow{Index: len(out.Load) + 1, Phase: phase, Text: explainLoadLine(t)}
		switch {
		case strings.HasPrefix(t, "→ "):
			row.Lane = "query"
		case strings.HasPrefix(t, "← "):
			row.Lane = "delivery"
		case strings.HasPrefix(t, "stored "):
			row.Lane = "relay"
		case strings.HasPrefix(t, "verdict "):
			row.Lane = "verdict"
		case strings.HasPrefix(t, "predicted "):
			row.Lane = "note"
		default:
			row.Lane, phase = "phase", t
			row.Phase = t
		}
		if row.Lane != "phase" {
			n++
			row.N = n
		}
		out.Load = append(out.Load, row)
	}
	markLoadViolation(out)
}

// LoadLegend is the notation of a load witness's rows.
var LoadLegend = []string{
	"the picture: created_at left to right; the top row is what the relay holds (a dot per event, stacked within a second); below it one band per REQ over its [since, until] window (open ends reach the edge), the events it delivered filled, and a red ring on an event the load never received",
	"→ REQ / CLOSE: the client's query to the relay, by subscription id (limit, since, until as sent)",
	"← EVENT / EOSE: what the relay delivered to the client on that subscription",
	"stored X: the relay accepted event X; rsN@T/h is the read-state event whose d tag ends in N, created_at T, id beginning h; app:... another application's event",
	"predicted V: what the load must conclude for what the relay holds; e=min(cap, n): the most events one REQ returns (the relay's cap, the load's page limit n); a second holding e or more events can never be proven complete",
	"verdict V (R): what the load concluded and why (a complete verdict gives no reason: nothing stopped the load from claiming it); the red row is where that conclusion is wrong",
}

var (
	noReason   = regexp.MustCompile(`^(verdict \S+) \(none\)`)
	eAtMost    = regexp.MustCompile(`holds (\d+) events?, e=(\d+)$`)
	eAtMostAny = regexp.MustCompile(`\be=(\d+)\b`)
)

// explainLoadLine spells out the load text's shorthand where it stands:
// a verdict's "(none)" (no reason) and a prediction's "e=N" (the most
// events one REQ returns, min(cap, n)), so no row needs the legend to be
// read.
func explainLoadLine(t string) string {
	t = noReason.ReplaceAllString(t, "$1 (no reason given: nothing stopped the load from claiming it)")
	if eAtMost.MatchString(t) {
		return eAtMost.ReplaceAllString(t, "holds $1 events, not fewer than e = min(cap, n) = $2, the most one REQ returns, so it can never be proven complete")
	}
	return eAtMostAny.ReplaceAllString(t, "e = min(cap, n) = $1")
}

func markLoadViolation(out *Witness) {
	at := len(out.Load) - 1
	for i := range out.Load {
		if out.Load[i].Lane == "verdict" {
			at = i
		}
	}
	if at >= 0 {
		out.Load[at].Violation = true
	}
}
