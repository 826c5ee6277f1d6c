package exhaustive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// A fresh run makes a directory per tie and refuses one that already
// holds a checkpoint; a resume needs the directory and one tie's
// checkpoint of this very run, says where it starts, and resumes only
// the ties that have one.
func TestCheckpointsPrepare(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cp")
	base := Config{Universe: Reference(), Depth: 2, Rules: model.Proposed()}
	both := []model.TiePolicy{model.ClearWins, model.SetWins}
	fresh := Checkpoints{Dir: dir, Build: "test"}
	if notes, err := fresh.Prepare(base, both); err != nil || notes != nil {
		t.Fatalf("fresh: %q %v", notes, err)
	}
	for _, tie := range both {
		if fi, err := os.Stat(fresh.TieDir(tie)); err != nil || !fi.IsDir() {
			t.Fatalf("%s: %v", fresh.TieDir(tie), err)
		}
	}
	cfg := base
	cfg.Checkpoint = fresh.For(model.ClearWins)
	if cfg.Checkpoint.Resume {
		t.Error("a fresh run's checkpoint resumes")
	}
	if _, err := Explore(cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := fresh.Prepare(base, both); err == nil || !strings.Contains(err.Error(), "already holds a checkpoint") {
		t.Errorf("fresh over a checkpoint: %v", err)
	}
	resume := Checkpoints{Dir: dir, Build: "test", Resume: true}
	notes, err := resume.Prepare(base, both)
	if err != nil || len(notes) != 1 || !strings.HasPrefix(notes[0], "resuming "+resume.TieDir(model.ClearWins)+" from depth 2 (") {
		t.Errorf("resume: %q %v", notes, err)
	}
	if !resume.For(model.ClearWins).Resume || resume.For(model.SetWins).Resume {
		t.Error("resume: only the tie with a checkpoint resumes")
	}
	for name, c := range map[string]struct {
		cp   Checkpoints
		ties []model.TiePolicy
		cfg  Config
		want string
	}{
		"no directory":  {Checkpoints{Dir: filepath.Join(dir, "nowhere"), Build: "test", Resume: true}, both, base, "no such directory"},
		"no checkpoint": {resume, []model.TiePolicy{model.SetWins}, base, "no checkpoint of this run there"},
		"another build": {Checkpoints{Dir: dir, Build: "other", Resume: true}, both, base, "build"},
		"another rule":  {resume, both, Config{Universe: Reference(), Depth: 2, Rules: model.Spec()}, "rules"},
		"no tie":        {fresh, nil, base, "no tie policy"},
	} {
		if _, err := c.cp.Prepare(c.cfg, c.ties); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}
