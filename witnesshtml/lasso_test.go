package witnesshtml

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/mutants"
)

// The walk's and the community's lassos each get a page: the stem and the
// loop drawn by one renderer, and what the user sees go wrong in words.

// lassoOf is the page's view of a lasso file replayed under the rule set
// it names, as explore -replay -html builds it.
func lassoOf(t *testing.T, data []byte) Witness {
	t.Helper()
	f, err := ParseLassoFile(data)
	if err != nil {
		t.Fatal(err)
	}
	text, reproduced, err := catalog.ReplayLasso(data, "")
	if err != nil || !reproduced {
		t.Fatalf("replay: %v, reproduced %v: %s", err, reproduced, text)
	}
	return FromLasso(f, f.Rules, text, true)
}

func lassoFile(t *testing.T, path string) Witness {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return lassoOf(t, data)
}

// liveLasso is the live property's lasso under K33 (a rule change that
// does not re-install the live REQ after a rotation), found by the check
// itself: no such lasso is stored, the live universe's safety check W1
// catches K33 first.
func liveLasso(t *testing.T) Witness {
	t.Helper()
	liveOnce.Do(func() { liveData, liveErr = findLiveLasso() })
	if liveErr != nil {
		t.Fatal(liveErr)
	}
	return lassoOf(t, liveData)
}

// The live lasso is searched for once (a few seconds) for every test
// that draws it.
var (
	liveOnce sync.Once
	liveData []byte
	liveErr  error
)

func findLiveLasso() ([]byte, error) {
	r, ok := mutants.CommunityRuleSet("K33")
	if !ok {
		return nil, fmt.Errorf("no rule set K33")
	}
	res, err := community.CheckLiveness(community.LiveProperty(), r)
	if err != nil {
		return nil, err
	}
	if res.Witness == nil {
		return nil, fmt.Errorf("the live property holds under K33: no lasso to draw")
	}
	return res.Witness.JSON(), nil
}

func TestLassoHarmSaysWhatGoesWrong(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    func() Witness
		harm []string
	}{
		{"walk H21", func() Witness { return lassoFile(t, "../mutants/testdata/H21.clear.json") }, []string{
			"the walk never ends: the device keeps paging through the same history (step 3 repeats for ever) and never shows the history complete, nor says that loading it failed",
			"where it sticks: cursor newest=2 oldest=2 (prior epoch sealed), the same after every pass of the loop, so no page the walk asks brings it closer to the end",
		}},
		{"rekey K32", func() Witness { return lassoFile(t, "../mutants/testdata/K32.clear.json") }, []string{
			"a rotation is never adopted: the device stays on the key of epoch 1 while the community has moved to epoch 2 (step 4 repeats for ever)",
			"messages sealed under the new key are never read: new messages stop appearing in the community, while the device keeps running its rounds as if nothing were missing",
		}},
		{"live K33", func() Witness { return liveLasso(t) }, []string{
			"the live REQ is never re-installed: the subscription stays at [c0/e0 c1/e0] and never asks for [c1/e1] (steps 5 to 6 repeat for ever)",
			"new messages on c1 stop arriving as they are sent: the live subscription no longer asks for the key they are sealed under",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.w()
			if got := strings.Join(w.Harm, "\n"); got != strings.Join(tc.harm, "\n") {
				t.Errorf("harm:\n%s\nwant:\n%s", got, strings.Join(tc.harm, "\n"))
			}
		})
	}
}

// Every community liveness property has its own sentence: a property
// added without one would fall back to the detail alone.
func TestEveryCommunityPropertyHasItsHarm(t *testing.T) {
	known := []string{propRekey, propLive}
	for _, p := range community.Properties() {
		if !slices.Contains(known, p.Name) {
			t.Errorf("community property %q has no harm sentence in lassoHarm", p.Name)
		}
	}
	if len(community.Properties()) != len(known) {
		t.Errorf("%d community properties, %d harm sentences", len(community.Properties()), len(known))
	}
}

// The steps are read part by part, numbered across the lasso, with the
// walk's state after the prefix on the prefix's last step.
func TestLassoStepsAreReadByPart(t *testing.T) {
	w := lassoFile(t, "../mutants/testdata/H22.clear.json")
	if *w.Lasso != (Lasso{Prefix: 3, Approach: 1, Loop: 1, Closes: "the loop returns to its first state", Heads: deviceHeads, Lines: "the state after the step"}) {
		t.Errorf("lasso %+v", *w.Lasso)
	}
	var parts []string
	for i, s := range w.Steps {
		parts = append(parts, s.Part)
		if s.N != i+1 {
			t.Errorf("step %d numbered %d", i+1, s.N)
		}
	}
	if strings.Join(parts, " ") != "prefix prefix prefix approach loop" {
		t.Errorf("parts %v", parts)
	}
	if got := w.Steps[2].Lines; len(got) != 2 || got[0] != "relay0 {1,2,3,4} relay1 {3,4} store {} backdated {3,4}" {
		t.Errorf("the root is not on the prefix's last step: %q", got)
	}
	if w.Steps[4].Action != "catch-up relay0=answers relay1=answers" || len(w.Steps[4].Lines) != 2 {
		t.Errorf("loop step %+v", w.Steps[4])
	}
	c := lassoFile(t, "../mutants/testdata/K32.clear.json")
	if *c.Lasso != (Lasso{Prefix: 3, Approach: 0, Loop: 1, Closes: "the loop returns to its first state, fair", Heads: deviceHeads, Lines: "the state after the step"}) || c.Steps[3].Action != "round(0)" || c.Steps[3].Part != "loop" {
		t.Errorf("community lasso %+v, steps %+v", *c.Lasso, c.Steps)
	}
}

// Each lasso page renders in Chromium with no script error, draws the
// stem and the loop (an arrow per step, the loop's on the ring, a heading
// per part, the loop's rows marked, the row that closes it) and shows the
// harm.
func TestLassoPagesRenderInChromium(t *testing.T) {
	shortrun.Skip(t, "a page per lasso file with its stem, loop and parts checked (the every-kind page draws one of each kind)")
	for _, tc := range []struct {
		name string
		w    func() Witness
	}{
		{"walk H21", func() Witness { return lassoFile(t, "../mutants/testdata/H21.clear.json") }},
		{"walk H22", func() Witness { return lassoFile(t, "../mutants/testdata/H22.set.json") }},
		{"rekey K32", func() Witness { return lassoFile(t, "../mutants/testdata/K32.clear.json") }},
		{"live K33", func() Witness { return liveLasso(t) }},
		{"republish M32", func() Witness { return storedPage(t, "../mutants/testdata/M32.set") }},
		{"agreement M33", func() Witness { return storedPage(t, "../mutants/testdata/M33.set") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.w()
			dom := renderChecked(t, w)
			for _, p := range lassoProblems(dom, w) {
				t.Error(p)
			}
			if t.Failed() {
				t.Logf("DOM:\n%s", dom)
			}
		})
	}
}

// Lassos beside another witness on one page are each drawn in their own
// section.
func TestLassosBesideOtherWitnesses(t *testing.T) {
	dom := renderChecked(t, trace(t), lassoFile(t, "../mutants/testdata/H21.clear.json"), lassoFile(t, "../mutants/testdata/K32.clear.json"))
	for _, want := range []string{`data-lassos-drawn="2"`, `id="w2-approach"`, `id="w2-loop"`, `id="w3-prefix"`, `id="w3-loop"`, `href="#w3-step-4"`} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(dom, `id="w1-loop"`) || strings.Contains(dom, `id="w3-approach"`) {
		t.Error("a part heading in a section without that part")
	}
}

// A lasso whose steps do not match its shape is not drawn wrong: the
// page says it could not draw it.
func TestMisshapenLassoSaysSo(t *testing.T) {
	bin := chromium(t)
	w := lassoFile(t, "../mutants/testdata/K32.clear.json")
	w.Lasso.Loop = 3
	path := t.TempDir() + "/page.html"
	if err := WriteFile(path, Page{Title: "lasso", Witnesses: []Witness{w}}); err != nil {
		t.Fatal(err)
	}
	dom := string(runChromium(t, bin, "--dump-dom", "file://"+path))
	if !strings.Contains(dom, "this lasso could not be drawn: Error: 4 steps for a lasso of 3+0+3") || !strings.Contains(dom, `data-lassos-drawn="0"`) {
		t.Errorf("a misshapen lasso is not reported:\n%s", dom)
	}
}

// A lasso that does not repeat under the rules it was replayed under says
// so, with the reason, and claims no harm.
func TestUnreproducedLassoClaimsNoHarm(t *testing.T) {
	data, err := os.ReadFile("../mutants/testdata/H21.clear.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseLassoFile(data)
	if err != nil {
		t.Fatal(err)
	}
	text, reproduced, err := catalog.ReplayLasso(data, "spec")
	if err != nil || reproduced {
		t.Fatalf("H21's lasso under the text: %v, reproduced %v", err, reproduced)
	}
	w := FromLasso(f, "spec", text, false)
	if w.Lasso != nil || len(w.Harm) != 0 || !strings.HasPrefix(w.Verdict, "not reproduced: ") || !strings.Contains(w.Title, "replayed under rules spec") ||
		w.Detail != "the file says (under rules H21): a loop of 1 rounds returns to cursor newest=2 oldest=2 without sealing it or reporting a failure" {
		t.Errorf("unreproduced lasso: %+v", w)
	}
	if !shortrun.On(t, "the page's fields and script checked, its drawing in the browser left out") {
		if dom := renderChecked(t, w); !strings.Contains(dom, "not reproduced: ") {
			t.Error("the page does not say the lasso was not reproduced")
		}
	}
	var b bytes.Buffer
	if err := Write(&b, Page{Title: "x", Witnesses: []Witness{w}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "data-lassos-drawn") {
		t.Error("a page without a lasso carries the lasso script")
	}
}

// A file that is not a lasso is refused before anything is built.
func TestParseLassoFileRefusesOthers(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"not JSON", `{"kind": "walk-liveness",`, "lasso file: unexpected EOF"},
		{"other kind", `{"kind": "explore", "invariant": "N1", "rules": "spec"}`, `kind "explore"`},
		{"no invariant", `{"kind": "walk-liveness", "rules": "H21"}`, "no invariant"},
		{"no rules", `{"kind": "walk-liveness", "invariant": "` + history.InvWalkEnds + `"}`, "no rule set"},
		{"no property", `{"kind": "community-liveness", "invariant": "eventually-rekey", "rules": "K32"}`, "names no property"},
	} {
		if _, err := ParseLassoFile([]byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}
