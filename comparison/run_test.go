package comparison

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
)

// Run from the options a command line gives: the header and table, each
// violated cell's witness written and named, the page, or the JSON
// document alone; a state bound hit is unknown; a witness that cannot be
// written is warned of; an unknown candidate and a page that cannot be
// written are errors.
func TestRun(t *testing.T) {
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, candidates string
		maxStates        int
		r                Report
		code             int
		want             []string
		warned           bool
		err              string
	}{
		{name: "encodings", candidates: "A,B", r: Report{Tie: "clear", HTML: "page.html"}, code: cli.ExitFailed,
			want: []string{"explore -compare=A,B -universes=reference -depth=2 -tie=clear -workers=2 -max-states=0 (version ",
				"witness written to ", "compare-A-clear-I7-legacy-rewrite.json (replay: explore -replay ", "page written to "}},
		{name: "rule sets", candidates: "spec,proposed", r: Report{Tie: "clear"}, code: cli.ExitOK, want: []string{"explore -compare=spec,proposed "}},
		{name: "json", candidates: "spec,proposed", r: Report{Tie: "clear", JSON: true}, code: cli.ExitOK, want: []string{"{"}},
		{name: "bound", candidates: "spec,proposed", maxStates: 5, r: Report{Tie: "clear"}, code: cli.ExitUnknown},
		{name: "unwritable", candidates: "A,B", r: Report{Tie: "clear", WitnessDir: blocked}, code: cli.ExitFailed, warned: true},
		{name: "no page", candidates: "A,B", r: Report{Tie: "clear", HTML: filepath.Join(blocked, "p.html")}, err: "-html: "},
		{name: "unknown", candidates: "A,nowhere", r: Report{Tie: "clear"}, err: "nowhere"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			o := Options{Catalog: exhaustive.NewCatalog(), Depth: 2, Workers: 2, MaxStates: c.maxStates, Universes: []string{"reference"}}
			if err := o.Parse(c.candidates, c.r.Tie); err != nil {
				if c.err != "" && strings.Contains(err.Error(), c.err) {
					return
				}
				t.Fatal(err)
			}
			r := c.r
			if r.WitnessDir == "" {
				r.WitnessDir = dir
			}
			if r.HTML != "" && !filepath.IsAbs(r.HTML) {
				r.HTML = filepath.Join(dir, r.HTML)
			}
			var out bytes.Buffer
			warned := false
			code, err := Run(o, r, &out, func(error) { warned = true })
			if c.err != "" {
				if err == nil || code != cli.ExitUsage || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("exit %d, err %v; want an error with %q", code, err, c.err)
				}
				return
			}
			if err != nil || code != c.code || warned != c.warned {
				t.Fatalf("exit %d (want %d), err %v, warned %t\n%s", code, c.code, err, warned, out.String())
			}
			if r.JSON == strings.HasPrefix(out.String(), "explore ") {
				t.Errorf("json %t, output starts %q", r.JSON, out.String()[:min(20, out.Len())])
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if r.HTML != "" {
				if _, err := os.Stat(r.HTML); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
