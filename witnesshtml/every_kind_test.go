package witnesshtml

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nip-rs/harness/history"
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
	bin := chromium(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	if err := WriteFile(path, Page{Title: "witness", Witnesses: ws}); err != nil {
		t.Fatal(err)
	}
	out, stderr := runChromiumLogged(t, bin, "--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+path)
	dom := string(out)
	if strings.Contains(stderr, "Uncaught") {
		t.Errorf("script error in the console:\n%s", stderr)
	}
	if m := regexp.MustCompile(`data-draw-error="[^"]*"`).FindString(dom); m != "" {
		t.Errorf("a witness could not be drawn: %s", m)
	}
	if want := `data-rendered="` + strconv.Itoa(len(ws)) + `"`; !strings.Contains(dom, want) {
		t.Errorf("the script did not finish (no %s)", want)
	}
	for i := range ws {
		id := `id="witness-` + strconv.Itoa(i+1) + `"`
		at := strings.Index(dom, id)
		if at < 0 || !strings.Contains(dom[at:], "<table") && !strings.Contains(dom[at:], "<ul") {
			t.Errorf("witness %d has an empty section", i+1)
		}
	}
	if t.Failed() {
		t.Logf("DOM:\n%s", dom)
	}
	return dom
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
	walk := func() Witness {
		w, text := stored(t, "../history/testdata/ties.spec")
		pw := FromWitness(w, text, nil)
		v, err := history.Trace(w, history.Spec())
		if err != nil {
			t.Fatal(err)
		}
		pw.Walk = v
		return pw
	}
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
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			w := c.w()
			if w.Kind != c.kind {
				t.Fatalf("kind %q, want %q", w.Kind, c.kind)
			}
			dom := renderChecked(t, w)
			for _, h := range c.harm {
				if !strings.Contains(dom, h) {
					t.Errorf("the page does not show %q", h)
				}
			}
		})
	}
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
