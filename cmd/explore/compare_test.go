package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
)

// compareRows parses the table of -compare's text output: row label to
// its cells, in column order.
func compareRows(t *testing.T, out string) (heads []string, rows map[string][]string, order []string) {
	t.Helper()
	split := regexp.MustCompile(`\s{2,}`)
	rows = map[string][]string{}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "row  ") {
			continue
		}
		f := split.Split(strings.TrimSpace(l), -1)
		heads = f[1 : len(f)-1]
		for _, r := range lines[i+1:] {
			f := split.Split(strings.TrimSpace(r), -1)
			if len(f) != len(heads)+2 {
				break
			}
			rows[f[0]] = f[1 : len(f)-1]
			order = append(order, f[0])
		}
		return heads, rows, order
	}
	t.Fatalf("no table in:\n%s", out)
	return nil, nil, nil
}

// explore -compare A,B: the search finds A's legacy-rewrite erasure (I7)
// and its client-id tiebreak deciding equal counters (ID), each witness
// replays from its file, and B holds in every row. The table is the golden
// file's, and its rows are pinned in testdata/figures.
func TestCompareAB(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-compare", "A,B", "-depth", "4", "-witness", dir)
	if code != exitViolation {
		t.Fatalf("exit %d, stderr %s:\n%s", code, errOut, out)
	}
	golden(t, "compare-A-B-depth4.txt", normalize(out, dir))
	heads, rows, order := compareRows(t, out)
	if strings.Join(heads, ",") != "A clear,A set,B clear,B set" || len(order) != 21 {
		t.Fatalf("columns %v, rows %v", heads, order)
	}
	for _, label := range order {
		cells := rows[label]
		for _, c := range cells[2:] {
			if c != "holds" {
				t.Errorf("B %s: %s, want holds", label, c)
			}
		}
		wantA := map[string]string{"I7": "violated (4 steps)", "ID": "violated (4 steps)",
			"I1": "holds", "I2": "holds", "I3": "holds", "I4": "holds", "I6": "holds"}[label]
		if wantA == "" {
			wantA = "n/a"
		}
		for _, c := range cells[:2] {
			if c != wantA {
				t.Errorf("A %s: %s, want %s", label, c, wantA)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "compare-*.json"))
	if len(files) != 4 {
		t.Fatalf("%d witness files, want 4 (I7 and ID, both policies)", len(files))
	}
	for _, f := range files {
		if code, rout, _ := runCLI(t, "-replay", f); code != exitViolation || !strings.Contains(rout, "encoding A") ||
			!strings.Contains(rout, "\nreproduced: ") {
			t.Errorf("%s: replay exit %d:\n%s", f, code, rout)
		}
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(dir, "unknown-encoding.json")
	os.WriteFile(unknown, []byte(strings.Replace(string(data), `"encoding": "A"`, `"encoding": "Z"`, 1)), 0o644)
	if code, _, errOut := runCLI(t, "-replay", unknown); code != exitUsage || !strings.Contains(errOut, "unknown encoding") {
		t.Errorf("a witness naming no known encoding: exit %d, %s", code, errOut)
	}
	page := filepath.Join(dir, "a.html")
	if code, _, _ := runCLI(t, "-replay", files[0], "-html", page); code != exitViolation {
		t.Errorf("replay -html exit %d", code)
	} else if data, err := os.ReadFile(page); err != nil || !strings.Contains(string(data), "wire encoding A: ") {
		t.Errorf("the page does not name the encoding (%v)", err)
	}
	note := figfile.For(t, *update)
	note.Line("| row | " + strings.Join(heads, " | ") + " |")
	for _, label := range order {
		note.Line("| " + label + " | " + strings.Join(rows[label], " | ") + " |")
	}
}

// The same machinery compares rule sets under B (an amendment with spec)
// and writes JSON and a self-contained page.
func TestCompareRuleSetsJSONAndHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "compare.html")
	code, out, errOut := runCLI(t, "-compare", "A,b-max-frontier", "-universe", "reference", "-tie", "clear", "-json", "-html", page,
		"-witness", t.TempDir())
	if code != exitViolation {
		t.Fatalf("exit %d, stderr %s:\n%s", code, errOut, out)
	}
	var tb struct {
		Columns []struct{ Candidate, Encoding, Rules, Tie string }
		Rows    []struct {
			Label string
			Cells []struct {
				Verdict string
				Steps   int
				Reason  string
				Sources []struct{ Check string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &tb); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(tb.Columns) != 2 || tb.Columns[1].Encoding != "B" || tb.Columns[1].Rules != "b-max-frontier" {
		t.Fatalf("columns %+v", tb.Columns)
	}
	for _, r := range tb.Rows {
		a, b := r.Cells[0], r.Cells[1]
		if r.Label == "I7" && (a.Verdict != "violated" || a.Steps != 4) {
			t.Errorf("A I7: %+v", a)
		}
		if strings.HasPrefix(r.Label, "N") {
			// -universe reference: no network universe ran for either.
			if a.Verdict != "n/a" || b.Verdict != "n/a" || b.Reason == "" {
				t.Errorf("%s: %+v %+v", r.Label, a, b)
			}
			continue
		}
		if b.Verdict != "holds" || len(b.Sources) == 0 {
			t.Errorf("b-max-frontier %s: %+v", r.Label, b)
		}
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<table>", "violated (4 steps)", "b-max-frontier clear", "witness I7-legacy-rewrite: universe reference"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(string(html), "<script") || strings.Contains(string(html), "http") {
		t.Error("page is not self-contained")
	}
}

func TestCompareUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-compare", "C"},
		{"-compare", "A,A"},
		{"-compare", "A,"},
		{"-compare", "A", "-rules", "spec"},
		{"-compare", "A", "-tie", "x"},
		{"-compare", "A", "-universe", "nowhere"},
	} {
		if code, out, errOut := runCLI(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", args, code, errOut, out)
		}
	}
}
