package mbt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
)

// WriteWalks writes one trace per walk, numbered from the block's first,
// and says how many with the tie and profile; a bad profile and a file
// where the directory should be are errors. ReplayTrace of a written
// trace agrees (0); the same trace with one observed value flipped
// diverges at a named step (1); a damaged or missing file is an error.
func TestWriteWalksAndReplayTrace(t *testing.T) {
	cat := exhaustive.NewCatalog()
	u, err := cat.Universe("network-whole")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	blocked := filepath.Join(dir, "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, profile, dir string
		want               string
		files              []string
		err                string
	}{
		{name: "full", dir: filepath.Join(dir, "full"), want: "itf: 2 traces (tie clear) in ",
			files: []string{"walk-0003-clear.itf.json", "walk-0004-clear.itf.json"}},
		{name: "legacy", profile: "legacy-decoder", dir: filepath.Join(dir, "legacy"), want: "itf: 2 traces (tie clear, profile legacy-decoder) in ",
			files: []string{"walk-0003-clear.itf.json"}},
		{name: "bad profile", profile: "nonesuch", dir: filepath.Join(dir, "none"), err: "-itf: "},
		{name: "blocked", dir: blocked, err: "file"},
	} {
		var out strings.Builder
		err := WriteWalks(c.dir, TraceWalks{Universe: u, Rules: model.Proposed(), Tie: model.ClearWins, Walks: 2, From: 3, Steps: 12, Seed: 9,
			Profile: c.profile}, &out)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want one with %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || !strings.HasPrefix(out.String(), c.want) {
			t.Fatalf("%s: %v %q", c.name, err, out.String())
		}
		for _, f := range c.files {
			var rep strings.Builder
			p := filepath.Join(c.dir, f)
			if code, err := ReplayTrace(cat, p, &rep); code != cli.ExitOK || err != nil || rep.String() != p+": 13 states agree with the model\n" {
				t.Errorf("%s: replay of %s: exit %d, %v, %q", c.name, f, code, err, rep.String())
			}
		}
	}
	good := filepath.Join(dir, "full", "walk-0003-clear.itf.json")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	flipped := ""
	for _, swap := range [][2]string{{`"live":false`, `"live":true`}, {`"live":true`, `"live":false`}} {
		if i := strings.LastIndex(string(data), swap[0]); i >= 0 {
			flipped = string(data[:i]) + swap[1] + string(data[i+len(swap[0]):])
			break
		}
	}
	if flipped == "" {
		t.Fatal("the walk observed no live value to flip")
	}
	for _, c := range []struct {
		name, data string
		code       int
		want       string
	}{
		{"flipped", flipped, cli.ExitFailed, ": diverges at step "},
		{"damaged", string(data[:len(data)/2]), cli.ExitUsage, ""},
		{"missing", "", cli.ExitUsage, ""},
	} {
		p := filepath.Join(dir, c.name+".itf.json")
		if c.name != "missing" {
			if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var out strings.Builder
		code, err := ReplayTrace(cat, p, &out)
		if code != c.code || (err != nil) != (c.code == cli.ExitUsage) || !strings.Contains(out.String(), c.want) {
			t.Errorf("%s: exit %d, %v, %q", c.name, code, err, out.String())
		}
		if c.want == "" && out.Len() != 0 {
			t.Errorf("%s: an error printed %q", c.name, out.String())
		}
	}
	for p, ok := range map[string]bool{"": true, "legacy-decoder": true, "nonesuch": false} {
		if err := ProfileFlagError(p); (err == nil) != ok || (err != nil && !strings.HasPrefix(err.Error(), "-profile: ")) {
			t.Errorf("ProfileFlagError(%q) = %v", p, err)
		}
	}
}
