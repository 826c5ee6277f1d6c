package runreport

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/internal/cli"
)

// ReplayFile over stored witnesses and bad input: a safety or liveness
// witness and a walk or community lasso reproduce (1) or not under other
// rules (0), with the run line only for a witness; a page is written when
// asked; a missing or damaged file, -tie on a lasso and an unknown rule
// set are errors that write no page.
func TestReplayFile(t *testing.T) {
	c := catalog.New(exCatalog(t))
	dir := t.TempDir()
	damaged := filepath.Join(dir, "damaged.json")
	if err := os.WriteFile(damaged, []byte(`{"kind":"safety",`), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, proposed, clear, nowhere := "spec", "proposed", "clear", "nowhere"
	for _, tc := range []struct {
		name       string
		file       string
		rules, tie *string
		html       bool
		code       int
		want       []string
		err        string
	}{
		{name: "safety", file: "H1.clear.json", code: cli.ExitFailed,
			want: []string{"explore -replay=", "\nreproduced: H1-terminates fails again\n"}},
		{name: "directed under proposed", file: "M1.clear.json", rules: &proposed, code: cli.ExitOK,
			want: []string{"replayed under rules proposed, tie clear\n", "\nnot reproduced: I8-floor-shape holds along this witness under rules proposed\n"}},
		{name: "agreement page", file: "M33.clear.json", html: true, code: cli.ExitFailed,
			want: []string{"page written to ", "reproduced: override-reaches-every-device fails again\n"}},
		{name: "walk lasso", file: "H21.clear.json", code: cli.ExitFailed,
			want: []string{"\nreproduced: the loop repeats for ever under fair scheduling (walk-liveness)\n"}},
		{name: "walk lasso under spec", file: "H21.clear.json", rules: &spec, html: true, code: cli.ExitOK,
			want: []string{"page written to ", "not reproduced: loop step 2: "}},
		{name: "community lasso", file: "K32.set.json", code: cli.ExitFailed, want: []string{"(community-liveness)\n"}},
		{name: "lasso with a tie", file: "H21.clear.json", tie: &clear, html: true, err: "-tie has no meaning with it"},
		{name: "lasso under no rule set", file: "H21.clear.json", rules: &nowhere, html: true, err: "nowhere"},
		{name: "witness under no rule set", file: "H1.clear.json", rules: &nowhere, html: true, err: "nowhere"},
		{name: "damaged", file: damaged, html: true, err: "damaged.json: "},
		{name: "missing", file: filepath.Join(dir, "none.json"), html: true, err: "none.json: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.file
			if !filepath.IsAbs(file) {
				file = filepath.Join("..", "mutants", "testdata", file)
			}
			page := ""
			if tc.html {
				page = filepath.Join(t.TempDir(), "w.html")
			}
			var out bytes.Buffer
			code, err := ReplayFile(c, ReplayArgs{File: file, Rules: tc.rules, Tie: tc.tie, HTML: page}, &out)
			_, statErr := os.Stat(page)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || code != cli.ExitUsage || (page != "" && statErr == nil) {
					t.Fatalf("exit %d, err %v, page %v; want an error with %q and no page\n%s", code, err, statErr, tc.err, out.String())
				}
				return
			}
			if err != nil || code != tc.code {
				t.Fatalf("exit %d (want %d), err %v\n%s", code, tc.code, err, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if page != "" && statErr != nil {
				t.Errorf("no page: %v", statErr)
			}
		})
	}
}
