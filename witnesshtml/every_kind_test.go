package witnesshtml

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/witnessfile"
)

// Every witness kind the project writes gets a page that draws: each is
// rendered in Chromium, which must report no script error, and the page
// must show the witness's harm in words.

// renderChecked renders one page of ws and fails the test on a script
// error (the console's, or one the page caught while drawing a witness),
// on a page whose script did not finish, or on an empty witness section.
func renderChecked(t *testing.T, ws ...Witness) string {
	t.Helper()
	dom, stderr := render(t, ws...)
	for _, p := range pageProblems(dom, stderr, len(ws)) {
		t.Error(p)
	}
	if t.Failed() {
		t.Logf("DOM:\n%s", dom)
	}
	return dom
}

// scripts are the page's script elements: the embedded data holds every
// sentence the page may show, so what the page shows is looked for in the
// DOM without them.
var scripts = regexp.MustCompile(`(?s)<script\b.*?</script>`)

// render writes one page of ws and returns the DOM Chromium built,
// without its script elements, and its console.
func render(t *testing.T, ws ...Witness) (dom, console string) {
	t.Helper()
	bin := chromium(t)
	path := filepath.Join(t.TempDir(), "page.html")
	if err := WriteFile(path, Page{Title: "witness", Witnesses: ws}); err != nil {
		t.Fatal(err)
	}
	out, stderr := runChromiumLogged(t, bin, "--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+path)
	return scripts.ReplaceAllString(string(out), ""), stderr
}

// pageProblems is what is wrong with a page of n witnesses as drawn: a
// script error, a script that did not finish, an empty section.
func pageProblems(dom, console string, n int) []string {
	var out []string
	if strings.Contains(console, "Uncaught") {
		out = append(out, "script error in the console:\n"+console)
	}
	if m := regexp.MustCompile(`data-draw-error="[^"]*"`).FindString(dom); m != "" {
		out = append(out, "a witness could not be drawn: "+m)
	}
	if want := `data-rendered="` + strconv.Itoa(n) + `"`; !strings.Contains(dom, want) {
		out = append(out, "the script did not finish (no "+want+")")
	}
	for i := range n {
		id := `id="witness-` + strconv.Itoa(i+1) + `"`
		at := strings.Index(dom, id)
		if at < 0 || !strings.Contains(dom[at:], "<table") && !strings.Contains(dom[at:], "<ul") {
			out = append(out, fmt.Sprintf("witness %d has an empty section", i+1))
		}
	}
	return out
}

// domText writes text as Chromium's DOM dump does.
var domText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// lassoProblems is what is missing from a page of the one lasso w: the
// lasso script's mark that it drew it, an arrow per stem step, the loop's
// arrows on the ring (or, for a loop of no steps, the ring that says the
// state stays), the loop's rows marked, a heading per part present, the
// row that closes the loop, and the harm.
func lassoProblems(dom string, w Witness) []string {
	var out []string
	l := w.Lasso
	if l == nil {
		return []string{"no lasso to draw"}
	}
	stem := l.Prefix + l.Approach
	if !strings.Contains(dom, `data-lassos-drawn="1"`) {
		out = append(out, "the lasso script did not draw the lasso")
	}
	if n := strings.Count(dom, `class="lasso-edge lasso-stem"`); n != stem {
		out = append(out, fmt.Sprintf("%d stem arrows, want %d", n, stem))
	}
	if n := strings.Count(dom, `class="lasso-edge lasso-loop"`); n != l.Loop {
		out = append(out, fmt.Sprintf("%d loop arrows, want %d", n, l.Loop))
	}
	if n := strings.Count(dom, `class="step lasso-loop"`); n != l.Loop {
		out = append(out, fmt.Sprintf("%d rows marked as the loop, want %d", n, l.Loop))
	}
	// Markup is looked for as it is; text as the DOM writes it.
	markup := []string{`id="w1-loop"`}
	text := []string{l.Heads.Loop, "what a user would see:"}
	text = append(text, w.Harm...)
	if l.Prefix > 0 {
		markup, text = append(markup, `id="w1-prefix"`), append(text, l.Heads.Prefix)
	}
	if l.Approach > 0 {
		markup, text = append(markup, `id="w1-approach"`), append(text, l.Heads.Approach)
	}
	start := "the state after step " + strconv.Itoa(stem)
	if stem == 0 {
		start = "the initial state"
	}
	if l.Loop > 0 {
		text = append(text, "\u21ba back to "+start+": the loop begins again")
	} else {
		markup, text = append(markup, `class="lasso-rest"`), append(text, "\u21ba "+start+" stays as it is for ever: "+l.Rest)
	}
	for _, s := range markup {
		if !strings.Contains(dom, s) {
			out = append(out, fmt.Sprintf("the page lacks %s", s))
		}
	}
	for _, s := range text {
		if !strings.Contains(dom, domText.Replace(s)) {
			out = append(out, fmt.Sprintf("the page lacks %q", s))
		}
	}
	return out
}

// storedPage is a stored witness's page view.
func storedPage(t *testing.T, base string) Witness {
	t.Helper()
	w, text := stored(t, base)
	return FromWitness(w, text, nil)
}

// parsed is a witness of a kind whose file this test writes itself.
func parsed(t *testing.T, file, text string) Witness {
	t.Helper()
	w, err := witnessfile.Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	return FromWitness(w, text, nil)
}

func TestEveryKindRendersAndShowsItsHarm(t *testing.T) {
	walk := func() Witness { return tiesWalkPage(t) }
	cases := []struct {
		kind string
		w    func() Witness
		harm []string
	}{
		{"explore", func() Witness { return storedPage(t, "../mutants/testdata/M3.clear") },
			[]string{"what a user would see:", "d1 shows c0 read while d0 keeps showing it unread"}},
		{"directed", func() Witness { return storedPage(t, "../mutants/testdata/M10.set") }, []string{"violation: "}},
		{"load", func() Witness { return storedPage(t, "../mutants/testdata/L1.clear") }, []string{"rs1 (missing)"}},
		{"history", walk, []string{"the store lacks {3} a relay holds", "wraps 2 and 3 share one second (created_at 2)"}},
		{"community", func() Witness { return storedPage(t, "../mutants/testdata/K1.clear") },
			[]string{"read a wrap sealed under it at t=2, after its rotation", `id="w1-step-4"`, "4. round(0)"}},
		{"diff", func() Witness {
			return parsed(t, `{"kind":"diff","universe":"pair","depth":2,"tie":"clear","rules":"spec","invariant":"differs","detail":"d1 c0 differs","actions":[{"action":"mark_unread","device":0,"ctx":"c0"}]}`,
				"universe pair, spec vs proposed, tie clear\nstep 1: mark_unread d0 c0\n  d1 c0: spec shows unread, proposed shows read\n")
		}, []string{"spec shows unread, proposed shows read"}},
		{"load-diff", func() Witness {
			return parsed(t, `{"kind":"load-diff","tie":"clear","rules":"spec","invariant":"differs","detail":"verdicts differ"}`,
				"load scenario, spec vs L1, cap=2 n=2 (seed 1, case 0)\nstep 1: publish rs1 at 70\nthen:\n  spec concludes complete, L1 incomplete\n")
		}, []string{"spec concludes complete, L1 incomplete"}},
		{"walk-diff", func() Witness {
			return parsed(t, `{"kind":"walk-diff","tie":"","rules":"spec","invariant":"differs","detail":"stores differ"}`,
				"universe walk, variant plain, spec vs healing\nstep 1: publish relay0\n  store: spec {} healing {2}\n")
		}, []string{"store: spec {} healing {2}"}},
		{KindWalkLasso, func() Witness { return lassoFile(t, "../mutants/testdata/H21.clear.json") }, []string{"the walk never ends: the device keeps paging"}},
		{KindCommunityLasso, func() Witness { return lassoFile(t, "../mutants/testdata/K32.clear.json") }, []string{"a rotation is never adopted"}},
		{KindNetworkLasso, func() Witness { return storedPage(t, "../mutants/testdata/M32.clear") },
			[]string{"d0 and d1 keep re-publishing to each other for ever", "traffic and battery use never stop"}},
		// The agreement witness is a file of kind liveness, told apart by
		// its invariant.
		{"agreement", func() Witness { return storedPage(t, "../mutants/testdata/M33.clear") },
			[]string{"the mark unread the user set on d0 at step 1 never reaches d1", "one shows c0 unread, the other read, for ever"}},
		// An observation is a situation reached, not a failure: its page
		// shows its trace and where it was observed, drawn as found (not
		// as a violation), and claims no harm.
		{"observation", func() Witness { return observationPage(t) }, []string{`id="w1-step-3"`, "observed legacy-holds-override-key after 3 actions",
			"observed: legacy-holds-override-key is reached (a situation looked for, not a failure)", "jump to observation 1"}},
	}
	// The kinds drawn by the lasso script: their stem and loop are
	// checked too (lassoProblems).
	lassos := []string{KindWalkLasso, KindCommunityLasso, KindNetworkLasso, "agreement"}
	if shortrun.On(t, "every kind drawn on one page in one browser run, a page per kind with its lasso's shape checked left out") {
		everyKindOnOnePage(t, cases, len(lassos))
		return
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			w := c.w()
			if want := kindOfCase(c.kind); w.Kind != want {
				t.Fatalf("kind %q, want %q", w.Kind, want)
			}
			dom := renderChecked(t, w)
			for _, h := range c.harm {
				if !strings.Contains(dom, h) {
					t.Errorf("the page does not show %q", h)
				}
			}
			if slices.Contains(lassos, c.kind) {
				for _, p := range lassoProblems(dom, w) {
					t.Error(p)
				}
			} else if w.Lasso != nil || strings.Contains(dom, "lasso-picture") {
				t.Error("a witness of no lasso is drawn as one")
			}
			if c.kind == "observation" && (len(w.Harm) > 0 || !w.Observed || strings.Contains(dom, "violation: ") || strings.Contains(dom, "jump to violation")) {
				t.Errorf("an observation claims harm %q or is drawn as a violation (observed %t)", w.Harm, w.Observed)
			}
		})
	}
}

// everyKindOnOnePage draws the witness of every case on one page, in one
// browser run: the page must have no script error, every section drawn,
// each lasso kind drawn by the lasso script, and each case's harm shown,
// its ids and jump link numbered by its place on the page.
func everyKindOnOnePage(t *testing.T, cases []struct {
	kind string
	w    func() Witness
	harm []string
}, lassos int) {
	var ws []Witness
	for _, c := range cases {
		w := c.w()
		if want := kindOfCase(c.kind); w.Kind != want {
			t.Fatalf("%s: kind %q, want %q", c.kind, w.Kind, want)
		}
		ws = append(ws, w)
	}
	dom := renderChecked(t, ws...)
	if want := `data-lassos-drawn="` + strconv.Itoa(lassos) + `"`; !strings.Contains(dom, want) {
		t.Errorf("the page lacks %s", want)
	}
	for i, c := range cases {
		at := strings.NewReplacer(`id="w1-`, fmt.Sprintf(`id="w%d-`, i+1), "observation 1", fmt.Sprintf("observation %d", i+1))
		for _, h := range c.harm {
			if h = at.Replace(h); !strings.Contains(dom, h) {
				t.Errorf("%s: the page does not show %q", c.kind, h)
			}
		}
	}
}

// kindOfCase is the file kind of an every-kind case: the agreement
// witness is written as a liveness file.
func kindOfCase(name string) string {
	if name == "agreement" {
		return KindNetworkLasso
	}
	return name
}

// observationPage is the stored observation's page, rendered by its
// replay (the file is stored without its text).
func observationPage(t *testing.T) Witness {
	t.Helper()
	data, err := os.ReadFile("../exhaustive/testdata/observe-legacy-holds-override-key.witness.json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := witnessfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := exhaustive.ReplayObservationFile(exhaustive.NewCatalog(), w)
	if err != nil || !res.Reproduced {
		t.Fatalf("replay: %v, %+v", err, res)
	}
	return FromWitness(w, res.Text, res.Found)
}

// A witness with no step lines is written with an empty list of steps,
// never null: the script walks it.
func TestNoStepsIsAnEmptyList(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, Page{Title: "x", Witnesses: []Witness{{Kind: "other", Invariant: "I"}}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `"steps":null`) || !strings.Contains(b.String(), `"steps":[]`) {
		t.Error("steps not written as an empty list")
	}
}

// The community witness's numbered lines are its steps.
func TestCommunityStepsAreRead(t *testing.T) {
	w := storedPage(t, "../mutants/testdata/K1.clear")
	if len(w.Steps) != 4 || w.Steps[3].Action != "round(0)" || len(w.Initial) != 1 ||
		!strings.HasPrefix(w.Detail, "a round that knew epoch 0 retired") || w.Legend[0] != communityLegend[0] {
		t.Errorf("steps %+v initial %v detail %q", w.Steps, w.Initial, w.Detail)
	}
}

// M3's devices both show unread=true at quiescence: the page says where
// they part (at the user's next read), which device keeps what.
func TestExplorerHarmSaysWhereDevicesPart(t *testing.T) {
	w := storedPage(t, "../mutants/testdata/M3.clear")
	want := []string{
		"d0 shows c0 unread, because it was marked unread (an override: it stays unread after the newest message is read)",
		"d1 shows c0 unread only because a message is past its read frontier f=10 (reading that message makes it read)",
		"where they disagree: both show c0 unread now, but once the user reads the newest message d1 shows c0 read while d0 keeps showing it unread: the user's mark is honoured on one device and lost on the other",
	}
	if strings.Join(w.Harm, "\n") != strings.Join(want, "\n") {
		t.Errorf("harm:\n%s\nwant:\n%s", strings.Join(w.Harm, "\n"), strings.Join(want, "\n"))
	}
	// A device showing read beside one showing unread disagrees now.
	h := harmOf([]Step{{Kind: "quiescence", Lines: []string{"d0 at the fixpoint: c0: f=3 dead unread=false", "d1 at the fixpoint: c0: f=- live unread=true"}}})
	if len(h) != 3 || h[2] != "where they disagree: right now d1 shows c0 unread and d0 shows it read" {
		t.Errorf("harm %q", h)
	}
}

// A witness run under encoding A is explained with A's notation, not the
// spec's keys.
func TestEncodingWitnessHasItsOwnLegend(t *testing.T) {
	w := parsed(t, `{"kind":"explore","universe":"pair","depth":1,"tie":"clear","rules":"spec","invariant":"N1","detail":"x","encoding":"A","actions":[{"action":"mark_unread","device":0,"ctx":"c0"}]}`,
		"witness N1: universe pair, depth 1, encoding A, tie clear, rules spec\ninitial:\n  d0: {}\nstep 1: mark_unread d0 c0\n  d0: {c0:SET}\nviolation N1: x\n")
	legend := strings.Join(w.Legend, "\n")
	if strings.Contains(legend, "ov_s, ov_c, ov_b: S, C, B") || strings.Contains(legend, "reg=(S,C,B): the override register") || !strings.Contains(legend, "encoding A:") {
		t.Errorf("encoding A's legend:\n%s", legend)
	}
}

// A 252-byte id is shortened to its ends in the page, the whole id kept
// in the element that opens it, and the lines wrap anywhere.
func TestLongIDIsShortenedAndKept(t *testing.T) {
	id := strings.Repeat("ab", 126)
	w := trace(t)
	w.Steps[0].Lines = []string{"d0 " + id + " f=- reg=(1,0,0) live"}
	dom := renderChecked(t, w)
	if !strings.Contains(dom, `<details class="long-id"><summary>`+id[:16]+"\u2026"+id[len(id)-8:]+` (252 chars)</summary><span class="full-id">`+id+`</span></details>`) {
		t.Errorf("the long id is not shortened with the whole id beside it:\n%s", dom)
	}
	if !strings.Contains(pageStyle, "overflow-wrap: anywhere") {
		t.Error("the style does not wrap long lines")
	}
}

// The every-kind checks of a lasso fail on a broken renderer: the lasso
// script is changed, one rule at a time, and the page drawn with it must
// be found wanting. Each change must apply (a script rewritten so that it
// no longer matches would pass for the wrong reason).
func TestBrokenLassoRendererIsCaught(t *testing.T) {
	chromium(t)
	breaks := []struct {
		name, old, new string
		w              func() Witness
	}{
		{"no part headings", "var td = el(\"td\", \"\", l.heads[part]);", "var td = el(\"td\", \"\", part);",
			func() Witness { return storedPage(t, "../mutants/testdata/M32.clear") }},
		{"no loop on the ring", "g.appendChild(svg(\"path\", {", "if (false) g.appendChild(svg(\"path\", {",
			func() Witness { return storedPage(t, "../mutants/testdata/M32.clear") }},
		{"an empty loop refused", "(l.loop < 1 && !l.rest)", "l.loop < 1",
			func() Witness { return storedPage(t, "../mutants/testdata/M33.clear") }},
		{"an empty loop drawn without its ring", "\"class\": \"lasso-rest\"", "\"class\": \"lasso-none\"",
			func() Witness { return storedPage(t, "../mutants/testdata/M33.clear") }},
	}
	// Each break costs a browser run: the quick gate tries the first.
	breaks = breaks[:shortrun.Size(t, len(breaks), 1)]
	for _, tc := range breaks {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.w()
			saved := lassoScript
			defer func() { lassoScript = saved }()
			lassoScript = strings.Replace(saved, tc.old, tc.new, 1)
			if lassoScript == saved {
				t.Fatalf("the lasso script has no %q to break", tc.old)
			}
			dom, console := render(t, w)
			problems := append(pageProblems(dom, console, 1), lassoProblems(dom, w)...)
			if len(problems) == 0 {
				t.Errorf("a lasso script with %s passes the checks", tc.name)
			}
			t.Logf("found: %q", problems)
		})
	}
}
