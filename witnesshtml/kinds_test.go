package witnesshtml

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/witnessfile"
)

// loadTrace is a full-state load witness (the load's file form, no kind)
// with the text its replay renders.
func loadTrace(t testing.TB) Witness {
	t.Helper()
	w, err := witnessfile.Parse([]byte(`{"check":"quiescent","rules":"L1","config":{"profile":"conformant","cap":2,"n":2},
		"steps":[{"op":"publish","at":70,"when":"at"},{"op":"publish","i":1,"at":70,"when":"at"}],
		"violation":"soundness: false complete after L1-q2: rs1@70/b9f59e missing"}`))
	if err != nil {
		t.Fatal(err)
	}
	if w.Kind != witnessfile.KindLoad || w.Invariant != "soundness" {
		t.Fatalf("parsed as kind %q invariant %q", w.Kind, w.Invariant)
	}
	text := `witness soundness: load check quiescent, rules L1, profile=conformant cap=2 n=2
  publish rs1 at 70
    stored rs1@70/b9f59e
  publish rs2 at 70
    stored rs2@70/1571f9
  predicted cannot-prove-complete: second 70 holds 2 events, e=2
  start
    → REQ L1-fence limit=2
  finish
    ← EVENT L1-fence rs2@70/1571f9
    ← EOSE L1-fence
    → REQ L1-q2 limit=2 until=69
    ← EOSE L1-q2
    → CLOSE L1-q2
    verdict complete (none): L1-q2 delivered 0 events: enumeration exhausted
violation soundness: false complete after L1-q2: rs1@70/b9f59e <missing> & gone
`
	return FromWitness(w, text, []string{"soundness: false complete after L1-q2: rs1@70/b9f59e missing"})
}

// directedTrace is a directed witness: a check at one parameter point.
func directedTrace(t testing.TB) Witness {
	t.Helper()
	w, err := witnessfile.Parse([]byte(`{"kind":"directed","check":"bounded-growth","tie":"clear","rules":"M1",
		"invariant":"I8-floor-shape","detail":"stored","point":{"ctx":"c0","f":200}}`))
	if err != nil {
		t.Fatal(err)
	}
	text := `witness I8-floor-shape: directed check bounded-growth, tie clear, rules M1
point: ctx="c0" f=200
violation I8-floor-shape: dead (201,200,100) at f=200 publishes {ov_s:c0:201}, want {ov_c:c0:201}
`
	return FromWitness(w, text, nil)
}

func TestLoadWitnessRows(t *testing.T) {
	w := loadTrace(t)
	var lanes []string
	for _, r := range w.Load {
		lanes = append(lanes, r.Lane)
	}
	want := "phase relay phase relay note phase query phase delivery delivery query delivery query verdict"
	if got := strings.Join(lanes, " "); got != want {
		t.Errorf("lanes\n got %s\nwant %s", got, want)
	}
	var marked []int
	for _, r := range w.Load {
		if r.Violation {
			marked = append(marked, r.Index)
		}
	}
	if len(marked) != 1 || w.Load[marked[0]-1].Lane != "verdict" {
		t.Errorf("violation marked at rows %v, want the verdict only", marked)
	}
	// Rows are numbered without gaps: a phase heads rows, it is not one.
	n := 0
	for _, r := range w.Load {
		switch {
		case r.Lane == "phase" && r.N != 0:
			t.Errorf("phase %q numbered %d", r.Text, r.N)
		case r.Lane != "phase":
			n++
			if r.N != n {
				t.Errorf("row %q numbered %d, want %d", r.Text, r.N, n)
			}
		}
	}
	if w.Load[9].Phase != "finish" || w.Load[6].Phase != "start" {
		t.Errorf("phases: row 10 %q, row 7 %q", w.Load[9].Phase, w.Load[6].Phase)
	}
	if w.Detail != "false complete after L1-q2: rs1@70/b9f59e <missing> & gone" || w.Legend[0] != LoadLegend[0] || len(w.Steps) != 0 {
		t.Errorf("detail %q, legend %v, steps %d", w.Detail, w.Legend, len(w.Steps))
	}
	// The stored text form ("check ...", "violation: INV: ...", unindented
	// phases) reads the same.
	stored := FromWitness(&witnessfile.Witness{Kind: witnessfile.KindLoad, Invariant: "soundness"},
		"check soundness, rules L7\nviolation: soundness: false complete\n\nstart\n  → REQ L1-q1 limit=2\nfinish\n  ← EOSE L1-q1\n", nil)
	if stored.Detail != "false complete" || len(stored.Load) != 4 || !stored.Load[3].Violation || stored.Load[1].Lane != "query" {
		t.Errorf("stored form: %+v", stored)
	}
}

func TestDirectedWitnessPoint(t *testing.T) {
	w := directedTrace(t)
	want := []Field{{"check", "bounded-growth"}, {"tie", "clear"}, {"rules", "M1"}, {"ctx", `"c0"`}, {"f", "200"}}
	if len(w.Fields) != len(want) {
		t.Fatalf("fields %v", w.Fields)
	}
	for i := range want {
		if w.Fields[i] != want[i] {
			t.Errorf("field %d: %v, want %v", i, w.Fields[i], want[i])
		}
	}
	if len(w.Initial) != 0 || len(w.Steps) != 0 || !strings.HasPrefix(w.Detail, "dead (201,200,100)") {
		t.Errorf("initial %v steps %v detail %q", w.Initial, w.Steps, w.Detail)
	}
}

// In a real browser a load witness is drawn on the client and relay lanes,
// a query arrow to the relay and a delivery arrow back, the verdict row
// marked and linked from the violation; a directed witness shows its point
// table and its violation; the jump links reach every violation.
func TestLoadAndDirectedPagesRenderInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "kinds.html")
	var b bytes.Buffer
	if err := Write(&b, Page{Title: "witnesses", Witnesses: []Witness{loadTrace(t), directedTrace(t)}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(runChromium(t, bin, "--dump-dom", "file://"+path))
	for _, want := range []string{
		`data-rendered="2"`,
		`class="steps load"`, `>client</text>`, `>relay</text>`,
		`class="query"`, `class="delivery"`, `class="stored"`, `class="verdict"`,
		`<tr class="phase" id="w1-row-1"><td class="phase" colspan="3">publish rs1 at 70</td></tr>`,
		`<tr class="step violating" id="w1-row-14">`,
		`href="#w1-row-14"`, `at row 10: verdict complete (no reason given`,
		`violation: soundness fails`,
		`false complete after L1-q2: rs1@70/b9f59e &lt;missing&gt; &amp; gone`,
		`href="#w1-violation"`,
		`class="point"`, `<th>ctx</th><td>"c0"</td>`, `<th>check</th><td>bounded-growth</td>`,
		`<ul class="legend"><li>the picture: created_at left to right`, `<li>→ REQ / CLOSE`, `</div><table class="steps load">`,
		`class="load-axis"`, `class="band"`, `>L1-q2 n=2</text>`,
		`<li>a directed check runs one scenario at every point`, `</ul><h3>the point</h3>`,
		`class="violation violated" id="w2-violation"`, `violation: I8-floor-shape fails`, `href="#w2-violation"`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered DOM lacks %s", want)
		}
	}
	// Exactly one row is marked: the verdict.
	if n := strings.Count(dom, `class="step violating"`); n != 1 {
		t.Errorf("%d rows marked violating", n)
	}
	if t.Failed() {
		t.Logf("DOM:\n%s", dom)
	}
	if shortrun.On(t, "the DOM checked, the screenshot (a second browser run) left out") {
		return
	}
	shot := filepath.Join(dir, "kinds.png")
	runChromium(t, bin, "--screenshot="+shot, "--window-size=1200,1400", "file://"+path)
	data, err := os.ReadFile(shot)
	if err != nil || len(data) < 1000 || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Fatalf("screenshot %s: %d bytes, %v", shot, len(data), err)
	}
	t.Logf("screenshot %s (%d bytes)", shot, len(data))
}
