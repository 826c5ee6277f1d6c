package exhaustive

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// replayObserved reads a written observation back as -replay does.
func replayObserved(path string) (*witnessfile.Witness, *witnessfile.Replayed, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	w, err := witnessfile.Parse(data)
	if err != nil {
		return nil, nil, err
	}
	r, err := ReplayObservationFile(NewCatalog(), w)
	return w, r, err
}

// Run's lines, files and exit code: a trace reached is written, replayed
// and printed (0); not reached is an answer too (0); a bound first is
// unknown (3); a write that fails is warned of and the run goes on; a
// file that does not replay and a universe the observation cannot search
// are errors. The header names the resolved depth and the observation.
func TestObserveRun(t *testing.T) {
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	broken := func(string) (*witnessfile.Witness, *witnessfile.Replayed, error) {
		return nil, nil, errors.New("unreadable")
	}
	for _, c := range []struct {
		name, obs string
		universe  Universe
		maxStates int
		dir       string
		replay    func(string) (*witnessfile.Witness, *witnessfile.Replayed, error)
		code      int
		want      []string
		found     int
		warned    bool
		err       bool
	}{
		{name: "reached", obs: "divergence", code: cli.ExitOK, found: 1,
			want: []string{"observe divergence universe network-pair tie clear rules proposed depth 4: reached at depth 1", "witness written to ", "step 1: mark_unread d0 c0"}},
		{name: "not reached", obs: "settled-disagreement", code: cli.ExitOK, want: []string{": not reached within the bounds ("}},
		{name: "bound", obs: "settled-disagreement", maxStates: 50, code: cli.ExitUnknown, want: []string{": unknown (bound: "}},
		{name: "unwritable", obs: "divergence", dir: blocked, code: cli.ExitOK, want: []string{": reached at depth 1"}, warned: true},
		{name: "no replay", obs: "divergence", replay: broken, err: true},
		{name: "no network", obs: "settled-disagreement", universe: Reference(), err: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := LookupObservation(c.obs)
			if err != nil {
				t.Fatal(err)
			}
			u := c.universe
			if u.Name == "" {
				u = NetworkPairUniverse()
			}
			dir := c.dir
			if dir == "" {
				dir = t.TempDir()
			}
			replay := c.replay
			if replay == nil {
				replay = replayObserved
			}
			r := ObserveRun{Observation: o, Universe: u, Tie: "clear", Ties: []model.TiePolicy{model.ClearWins}, Rules: model.Proposed(),
				RulesName: "proposed", Workers: 2, MaxStates: c.maxStates, Symmetry: true, WitnessDir: dir}
			head := "explore -observe=" + c.obs + " -universe=" + u.Name
			if !strings.HasPrefix(r.Head(), head) || !strings.HasSuffix(r.Head(), "\nobservation "+o.Name+": "+o.Doc) {
				t.Errorf("head %q", r.Head())
			}
			var out bytes.Buffer
			warned := false
			found, code, err := r.Run(&out, func(error) { warned = true }, replay)
			if c.err {
				if err == nil {
					t.Fatalf("no error; exit %d\n%s", code, out.String())
				}
				return
			}
			if err != nil || code != c.code || warned != c.warned || len(found) != c.found {
				t.Fatalf("exit %d (want %d), err %v, warned %t, %d found\n%s", code, c.code, err, warned, len(found), out.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			for _, f := range found {
				if !f.Replayed.Reproduced || f.Witness.Kind != "observation" {
					t.Errorf("found %s, reproduced %t", f.Witness.Kind, f.Replayed.Reproduced)
				}
			}
		})
	}
	var list bytes.Buffer
	WriteObservations(&list)
	for _, o := range Observations() {
		if !strings.Contains(list.String(), "\n  "+o.Name+" ") {
			t.Errorf("the list lacks %s:\n%s", o.Name, list.String())
		}
	}
}
