package witnesshtml

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/witnessfile"
)

// The pages of three witnesses the project stores (a mutant's explorer
// witness near the counter ceiling, a mutant's full-state load, the walk's
// documented limitation), each checked for what a reader needs at the
// top (the verdict, what was changed), its own legend, and its picture.

// stored reads a stored witness and its text form.
func stored(t *testing.T, base string) (*witnessfile.Witness, string) {
	t.Helper()
	data, err := os.ReadFile(base + ".json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := witnessfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(base + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	return w, string(text)
}

// renderDOM writes the page, runs it in Chromium, and returns the DOM the
// script built; it also takes a screenshot and checks it is a picture.
func renderDOM(t *testing.T, w Witness) string {
	t.Helper()
	bin := chromium(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	if err := WriteFile(path, Page{Title: "witness", Witnesses: []Witness{w}}); err != nil {
		t.Fatal(err)
	}
	dom := string(runChromium(t, bin, "--dump-dom", "file://"+path))
	shot := filepath.Join(dir, "page.png")
	runChromium(t, bin, "--screenshot="+shot, "--window-size=1280,1600", "file://"+path)
	if data, err := os.ReadFile(shot); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Fatalf("screenshot: %v", err)
	}
	return dom
}

// inOrder checks that each string occurs in s, each after the one before.
func inOrder(t *testing.T, s string, want ...string) {
	t.Helper()
	at := 0
	for _, w := range want {
		i := strings.Index(s[at:], w)
		if i < 0 {
			t.Errorf("lacks %q after offset %d", w, at)
			return
		}
		at += i + len(w)
	}
}

func TestExplorerPageExplainsItself(t *testing.T) {
	w, text := stored(t, "../mutants/testdata/M3.clear")
	pw := FromWitness(w, text, nil)
	pw.Changed = []string{"mutant M3 on device d0 only: d0 drops the rule \u201cclear-wins on every installation\u201d"}
	var all []string
	all = append(all, pw.Detail, pw.Title)
	for _, s := range pw.Steps {
		all = append(all, s.Lines...)
	}
	if joined := strings.Join(all, "\n"); strings.Contains(joined, "4294967294") || !strings.Contains(joined, "reg=(2^32−2,2^32−3,10)") {
		t.Errorf("counters near the ceiling not written 2^32−k:\n%s", joined)
	}
	if pw.Verdict != "violation: N1-cross-device-convergence fails" || pw.Documented {
		t.Errorf("verdict %q documented %v", pw.Verdict, pw.Documented)
	}
	if shortrun.On(t, "the page's fields checked, its drawing in the browser left out (the every-kind page draws this kind)") {
		return
	}
	dom := renderDOM(t, pw)
	inOrder(t, dom, `class="violation violated"`, `violation: N1-cross-device-convergence fails`, `what was changed:`, `mutant M3 on device d0 only`,
		`how to read it`, `reg=(S,C,B): the override register`, `a red line is a device whose override is live`, `2^32−k: a counter k below 2^32`,
		`id="w1-step-3"`, `class="live"`, `reg=(2^32−2,2^32−3,10) live`)
	if strings.Contains(dom, "4294967294") {
		t.Error("the page shows 4294967294")
	}
}

func TestLoadPageExplainsItself(t *testing.T) {
	w, text := stored(t, "../mutants/testdata/L1.clear")
	pw := FromWitness(w, text, nil)
	for _, want := range []string{"e=min(cap, n)", "a complete verdict gives no reason", "2^32−k: the time k seconds below 2^32"} {
		if !strings.Contains(strings.Join(pw.Legend, "\n"), want) {
			t.Errorf("legend does not explain %s", want)
		}
	}
	if pw.Axis == nil || pw.Axis[0] > 69 || pw.Axis[1] < 70 || pw.Axis[1]-pw.Axis[0] > 10 {
		t.Fatalf("axis %v: want the events' second 70 and the REQ's until 69, and no bound far past them", pw.Axis)
	}
	// Every row reads without the legend: no raw ten-digit time, no bare
	// "(none)" or "e=2"; the window opened at 2^32−5 is an open end.
	var rows []string
	var beyond []string
	for _, r := range pw.Load {
		rows = append(rows, r.Text)
		if r.Beyond != "" {
			beyond = append(beyond, r.Sub+": "+r.Beyond)
		}
	}
	joined := strings.Join(rows, "\n")
	for _, bad := range []string{"4294967291", "(none)", ", e=2"} {
		if strings.Contains(joined, bad) {
			t.Errorf("a row shows %q:\n%s", bad, joined)
		}
	}
	for _, want := range []string{"→ REQ L1-q1 limit=2 until=2^32−5", "verdict complete (no reason given", "not fewer than e = min(cap, n) = 2"} {
		if !strings.Contains(joined, want) {
			t.Errorf("rows lack %q:\n%s", want, joined)
		}
	}
	if strings.Join(beyond, ";") != "L1-q1: until 2^32−5" {
		t.Errorf("open ends %q, want L1-q1's until 2^32−5", beyond)
	}
	if shortrun.On(t, "the page's fields checked, its drawing in the browser left out (the every-kind page draws this kind)") {
		return
	}
	dom := renderDOM(t, pw)
	// The verdict and the row it points at come before the picture, which
	// comes before the rows.
	inOrder(t, dom, `<title>witness</title>`, `violation: soundness fails`, `false complete after L1-q2: rs1@70/b9f59e missing`,
		`at row 18: verdict complete (no reason given`, `how to read it`, `class="load-axis"`, `rs1 (missing)`, `>L1-fence n=2</text>`, `>L1-q2 n=2</text>`,
		`class="steps load"`, `>1</td>`, `stored rs1@70/b9f59e`, `>18</td>`, `verdict complete (no reason given`)
	if strings.Count(dom, `class="band"`) != 3 || strings.Count(dom, `class="delivered"`) != 4 || strings.Count(dom, `class="missing"`) != 1 {
		t.Errorf("bands %d, delivered %d, missing %d: want 3, 4, 1", strings.Count(dom, `class="band"`), strings.Count(dom, `class="delivered"`), strings.Count(dom, `class="missing"`))
	}
	if !strings.Contains(dom, "→ until 2^32−5 (open end)") {
		t.Error("the picture does not name the open end")
	}
	if strings.Contains(dom, "explore witnesses") || strings.Contains(dom, "reg=(S,C,B)") {
		t.Error("the load page shows another kind's title or legend")
	}
}

func TestHistoryPageExplainsItself(t *testing.T) {
	w, text := stored(t, "../history/testdata/limitation.spec")
	pw := FromWitness(w, text, nil)
	v, err := history.Trace(w, history.Spec())
	if err != nil {
		t.Fatal(err)
	}
	pw.Walk = v
	if !pw.Documented || !strings.HasPrefix(pw.Verdict, "documented limitation: H8-heal fails") {
		t.Errorf("verdict %q documented %v", pw.Verdict, pw.Documented)
	}
	if shortrun.On(t, "the page's fields checked, its drawing in the browser left out (the every-kind page draws this kind)") {
		return
	}
	dom := renderDOM(t, pw)
	inOrder(t, dom, `class="violation documented"`, `documented limitation: H8-heal fails`, `the hole {3} unrepaired`,
		`how to read it`, `relay0 and relay1 show the wraps each relay holds`, `red a hole`,
		`the universe's budgets`, `<th>page</th><td>1</td>`, `<th>catch-up-pages</th><td>1</td>`, `<th>load-older-pages</th><td>2</td>`,
		`class="steps walk"`, `id="w1-step-0"`, `id="w1-step-6"`, `class="hole"`, `page 2: bridge [2, 4] limit 1`,
		`id="w1-step-7"`, `class="cursor"`, `class="exhausted"`, `class="page page-newest"`, `documented limitation H8-heal:`)
	for _, bad := range []string{"reg=(S,C,B)", `class="violation violated"`, "violation: H8-heal", `<details class="budgets"`} {
		if strings.Contains(dom, bad) {
			t.Errorf("the walk page shows %q", bad)
		}
	}
}
