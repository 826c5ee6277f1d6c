package runreport

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
)

// Explore from plain arguments: the header first (none with JSON), the
// table and verdict, a violation's witness and page written, the default
// guard's note when it stops a run, a checkpoint written, refused over
// itself, resumed with a note, and a run stopped after one (3); bad
// input is an error before any search.
func TestExplore(t *testing.T) {
	ex := exCatalog(t)
	c := catalog.New(ex)
	base := ExploreArgs{Universe: "reference", Tie: "clear", Rules: "proposed", Depth: 3, Workers: 2, MaxStates: 3_000_000, StoreKind: "mem"}
	ckpt := filepath.Join(t.TempDir(), "ckpt")
	for _, tc := range []struct {
		name  string
		edit  func(a *ExploreArgs, dir string)
		code  int
		want  []string
		notes []string
		files []string
		err   string
	}{
		{name: "holds", edit: func(*ExploreArgs, string) {}, code: cli.ExitOK,
			want: []string{`explore -universe=reference -depth=3 -tie=clear -rules=proposed -workers=2 -directed=false -only="" -max-states=3000000 (version `,
				"\nclear  1 / 16 / 144 / 999    1,160 ", "\nresult: ok, no violation\n"}},
		{name: "violation", edit: func(a *ExploreArgs, dir string) { a.Rules, a.HTML = "M6", filepath.Join(dir, "w.html") }, code: cli.ExitFailed,
			want: []string{"-rules=M6 ", "result: violation: I2-convergence (clear)"}, files: []string{"w.html"}},
		{name: "json", edit: func(a *ExploreArgs, _ string) { a.JSON = true }, code: cli.ExitOK, want: []string{`{"run":"explore -universe=reference -depth=3 `, `"status":"ok"`}},
		{name: "directed", edit: func(a *ExploreArgs, _ string) { a.Directed, a.Only = true, "join-idempotent" }, code: cli.ExitOK,
			want: []string{`-directed=true -only="join-idempotent"`}},
		{name: "guard", edit: func(a *ExploreArgs, _ string) { a.MaxStates, a.GuardNote = 100, true }, code: cli.ExitUnknown,
			notes: []string{"stopped by the default state guard: more than 100 distinct states"}},
		{name: "guard asked for", edit: func(a *ExploreArgs, _ string) { a.MaxStates = 100 }, code: cli.ExitUnknown},
		{name: "checkpoint", edit: func(a *ExploreArgs, _ string) { a.Checkpoint = ckpt }, code: cli.ExitOK, want: []string{"result: ok"}},
		{name: "checkpoint again", edit: func(a *ExploreArgs, _ string) { a.Checkpoint = ckpt }, err: "-checkpoint "},
		{name: "resume deeper", edit: func(a *ExploreArgs, _ string) { a.Resume, a.Depth = ckpt, 4 }, code: cli.ExitOK, notes: []string{ckpt}},
		{name: "stopped", edit: func(a *ExploreArgs, dir string) {
			a.Checkpoint = filepath.Join(dir, "ck")
			a.Stop = func(_ model.TiePolicy, d int) bool { return d == 2 }
		}, code: cli.ExitUnknown},
		{name: "bad only", edit: func(a *ExploreArgs, _ string) { a.Only = "nonesuch" }, err: "-only: "},
		{name: "bad universe", edit: func(a *ExploreArgs, _ string) { a.Universe = "nowhere" }, err: "nowhere"},
		{name: "bad store", edit: func(a *ExploreArgs, _ string) { a.StoreKind = "tape" }, err: "tape"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := base
			dir := t.TempDir()
			a.WitnessDir = dir
			tc.edit(&a, dir)
			var out bytes.Buffer
			var notes []string
			code, err := Explore(c, ex, a, &out, ExploreLog{Note: func(s string) { notes = append(notes, s) }, Progress: func(string) {}})
			if tc.err != "" {
				if err == nil || code != cli.ExitUsage || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("exit %d, err %v; want an error with %q", code, err, tc.err)
				}
				return
			}
			if err != nil || code != tc.code {
				t.Fatalf("exit %d (want %d), err %v\n%s", code, tc.code, err, out.String())
			}
			if a.JSON == strings.HasPrefix(out.String(), "explore ") {
				t.Errorf("json %t, output starts %q", a.JSON, out.String()[:min(20, out.Len())])
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			all := strings.Join(notes, "\n")
			if len(tc.notes) == 0 && a.Resume == "" && all != "" {
				t.Errorf("notes %q", all)
			}
			for _, w := range tc.notes {
				if !strings.Contains(all, w) {
					t.Errorf("notes lack %q: %q", w, all)
				}
			}
			for _, f := range tc.files {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(ckpt, "clear")); err != nil {
		t.Errorf("no checkpoint per tie: %v", err)
	}
	for _, h := range []struct {
		a       ExploreArgs
		network bool
		want    string
	}{
		{ExploreArgs{Universe: "network", Tie: "both", Rules: "spec", Workers: 1, MaxStates: 5, Symmetry: true, POR: true}, true,
			`explore -universe=network -depth=4 -tie=both -rules=spec -workers=1 -directed=false -only="" -max-states=5 -symmetry=true -por=true (version `},
		{ExploreArgs{Universe: "reference", Tie: "set", Rules: "M1", Workers: 3, Directed: true, Only: "a,b", Symmetry: true}, false,
			`explore -universe=reference -depth=4 -tie=set -rules=M1 -workers=3 -directed=true -only="a,b" -max-states=0 (version `},
	} {
		if got := h.a.Header(4, h.network); got != h.want+cli.Version()+")" {
			t.Errorf("header\n %s\nwant\n %s", got, h.want)
		}
	}
	if h := (ExploreArgs{Resume: "r"}).CheckpointFlag() + (ExploreArgs{Checkpoint: "c"}).CheckpointFlag(); h != "-resume-checkpoint" {
		t.Errorf("flags %q", h)
	}
}
