package witnesshtml

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nip-rs/harness/witnessfile"
)

// Page is what one HTML file shows: a title and its witnesses.
type Page struct {
	Title     string    `json:"title"`
	Witnesses []Witness `json:"witnesses"`
}

// Witness is one witness as the page draws it.
type Witness struct {
	Title     string `json:"title"`
	Kind      string `json:"kind"`
	Invariant string `json:"invariant"`
	Detail    string `json:"detail"`
	// Devices is the number of device lanes (0: a point or scenario
	// without devices; its steps are listed without lanes).
	Devices int      `json:"devices"`
	Initial []string `json:"initial"`
	Steps   []Step   `json:"steps"`
	// Found is what replaying it found, when it was replayed.
	Found []string `json:"found,omitempty"`
	// Legend explains the notation of the lines.
	Legend []string `json:"legend"`
	// Fields is a directed witness's point: its check and run, then each
	// parameter.
	Fields []Field `json:"fields,omitempty"`
	// Load is a load witness's scenario, one row per line; Axis the times
	// its picture spans.
	Load []LoadRow `json:"load,omitempty"`
	Axis *[2]int64 `json:"axis,omitempty"`
	// Verdict is what the command line said of the witness, in its words;
	// Documented marks a rule set's documented limitation (not a new
	// violation).
	Verdict    string `json:"verdict"`
	Documented bool   `json:"documented,omitempty"`
	// Changed says what differs from the production rules in the run that
	// found the witness: a mutant and its rule change, an amendment, or
	// the rule set.
	Changed []string `json:"changed,omitempty"`
	// Walk is a history witness's trace as data (the JSON form of the
	// history package's TraceView: the caller fills it in, so this package
	// does not depend on the walk it draws), drawn as a time axis per
	// step; Budgets its universe's sizes.
	Walk    any     `json:"walk,omitempty"`
	Budgets []Field `json:"budgets,omitempty"`
	// Harm is what a user would see go wrong, in words: what each device
	// shows and where they disagree, read from the witness's last state.
	Harm []string `json:"harm,omitempty"`
	// Lasso is a lasso's shape (a walk or community lasso's, FromLasso; a
	// network liveness or agreement witness's, FromWitness): its steps
	// are the stem and the loop, drawn by the lasso script.
	Lasso *Lasso `json:"lasso,omitempty"`
}

// Step is one action of a witness.
type Step struct {
	N      int    `json:"n"`
	Action string `json:"action"`
	// Kind is "local" (an action on Device), "publish" (Device publishes
	// to every peer), a channel action from From to To ("deliver",
	// "duplicate", "drop"), or "quiescence": the state the checks ran on
	// after the last step.
	Kind   string   `json:"kind"`
	Device int      `json:"device"`
	From   int      `json:"from"`
	To     int      `json:"to"`
	Lines  []string `json:"lines"`
	// Part is a lasso step's part: "prefix", "approach" or "loop".
	Part string `json:"part,omitempty"`
}

// Legend is the notation the explorer's witness lines use.
var Legend = lineLegend

var stepLine = regexp.MustCompile(`^step (\d+): (.*)$`)

// FromWitness builds the page's view of a witness from its file form and
// its text rendering (the lines of each step), with what a replay found.
func FromWitness(w *witnessfile.Witness, text string, found []string) (out Witness) {
	out = Witness{Kind: w.Kind, Invariant: w.Invariant, Detail: w.Detail, Found: found, Legend: slices.Clone(Legend)}
	out.Verdict, out.Documented = verdictOf(w, text)
	out.Changed = []string{"rules " + w.Rules}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > 0 {
		out.Title = lines[0]
		lines = lines[1:]
	}
	switch w.Kind {
	case witnessfile.KindLoad:
		out.Legend = slices.Clone(LoadLegend)
		loadView(w, lines, &out)
		rewriteCeiling(&out) // after the picture read the raw times
		return out
	case witnessfile.KindDirected:
		out.Legend = slices.Clone(directedLegend)
		directedView(w, &out)
	case witnessfile.KindHistory:
		out.Legend = slices.Clone(walkLegend)
		out.Budgets = budgets(w)
	case KindCommunity:
		out.Legend = slices.Clone(communityLegend)
		communityView(lines, &out)
		rewriteCeiling(&out)
		return out
	case KindNetworkLasso:
		netLassoView(w, lines, &out)
		rewriteCeiling(&out)
		return out
	}
	if w.Encoding != "" {
		out.Legend = encodingLegend(w.Encoding)
	}
	// The harm is read after every line is rewritten (deferred below runs
	// first), so it speaks the page's notation.
	defer func() { out.Harm = harmOf(out.Steps) }()
	// Deferred on the named result: every line below is rewritten once the
	// steps are read.
	defer rewriteCeiling(&out)
	var cur *Step
	inInitial := false
	for _, l := range lines {
		switch m := stepLine.FindStringSubmatch(l); {
		case m != nil:
			n, _ := strconv.Atoi(m[1])
			out.Steps = append(out.Steps, Step{N: n, Action: m[2], Kind: "local", Device: -1, From: -1, To: -1})
			cur, inInitial = &out.Steps[len(out.Steps)-1], false
		case strings.HasPrefix(l, "legend: "):
			// The page has its own legend.
		case strings.HasPrefix(l, "quiescence"):
			// After the last step: the drain and the publication rounds
			// the checks ran on, shown as one more row.
			out.Steps = append(out.Steps, Step{N: len(out.Steps) + 1, Action: "quiescence: drain, then publication rounds", Kind: "quiescence", Device: -1, From: -1, To: -1})
			cur, inInitial = &out.Steps[len(out.Steps)-1], false
		case l == "initial state:":
			inInitial = true
		case strings.HasPrefix(l, "violation "+w.Invariant+": "):
			out.Detail = strings.TrimPrefix(l, "violation "+w.Invariant+": ")
		case strings.HasPrefix(l, "documented limitation "+w.Invariant+": "):
			out.Detail = strings.TrimPrefix(l, "documented limitation "+w.Invariant+": ")
		case w.Kind == witnessfile.KindHistory && strings.HasPrefix(l, "config: "):
			// The budgets table shows it.
		case w.Kind == witnessfile.KindDirected && strings.HasPrefix(l, "point: "):
			// The point's table shows it parameter by parameter.
		case inInitial:
			out.Initial = append(out.Initial, strings.TrimSpace(l))
		case cur != nil:
			cur.Lines = append(cur.Lines, strings.TrimSpace(l))
		default:
			out.Initial = append(out.Initial, strings.TrimSpace(l))
		}
	}
	for i := range out.Steps {
		s := &out.Steps[i]
		if i < len(w.Actions) && s.Kind != "quiescence" {
			a := w.Actions[i]
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
		out.Devices = max(out.Devices, s.Device+1, s.From+1, s.To+1)
	}
	for _, l := range out.Initial {
		if d, ok := deviceOf(l); ok {
			out.Devices = max(out.Devices, d+1)
		}
	}
	return out
}

// deviceOf reads the device of a line "dN ...".
func deviceOf(line string) (int, bool) {
	if len(line) < 2 || line[0] != 'd' {
		return 0, false
	}
	end := 1
	for end < len(line) && line[end] >= '0' && line[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(line[1:end])
	return n, err == nil
}

//go:embed page.html.tmpl
var pageTemplate string

//go:embed page.js
var pageScript string

//go:embed pictures.js
var picturesScript string

//go:embed page.css
var pageStyle string

// The lasso's script and style go only into a page that has a lasso, so
// a page of any other kind keeps the bytes it had before lassos had pages.
var (
	//go:embed lasso.js
	lassoScript string
	//go:embed lasso.css
	lassoStyle string
)

var tmpl = template.Must(template.New("page").Parse(pageTemplate))

// WriteFile writes the page to path, whole or not at all: a failure to
// render leaves no file.
func WriteFile(path string, p Page) error {
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// Write writes p as one HTML document. Every list the script walks is
// written as a list, never null: a witness whose text has no step lines
// still draws (an empty table), it does not stop the script.
func Write(w io.Writer, p Page) error {
	p.Witnesses = slices.Clone(p.Witnesses)
	for i := range p.Witnesses {
		if p.Witnesses[i].Steps == nil {
			p.Witnesses[i].Steps = []Step{}
		}
	}
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("witness page: %w", err)
	}
	script, style := picturesScript+pageScript, pageStyle
	if slices.ContainsFunc(p.Witnesses, func(w Witness) bool { return w.Lasso != nil }) {
		script, style = script+lassoScript, style+lassoStyle
	}
	return tmpl.Execute(w, struct {
		Title  string
		Data   template.JS
		Script template.JS
		Style  template.CSS
	}{p.Title, template.JS(safeJSON(data)), template.JS(script), template.CSS(style)})
}

// safeJSON keeps embedded JSON from closing its script element.
func safeJSON(b []byte) string {
	s := string(b)
	s = strings.ReplaceAll(s, "<", `\u003c`)
	s = strings.ReplaceAll(s, ">", `\u003e`)
	return strings.ReplaceAll(s, "&", `\u0026`)
}
