package exhaustive

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// resultJSON is everything a result reports but its time.
func resultJSON(t *testing.T, r *Result) string {
	t.Helper()
	c := *r
	c.Elapsed = 0
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An exploration stopped after the checkpoint of depth k and resumed gives
// the result and witnesses of an uninterrupted run: the reference world and
// network worlds (rotations included), with and without POR, at 1 and 2
// workers.
func TestCheckpointResumeMatchesExploration(t *testing.T) {
	cases := []struct {
		u     Universe
		depth int
		por   bool
		tie   model.TiePolicy
	}{
		{Reference(), 4, false, model.ClearWins},
		{NetworkUniverse(), 4, false, model.SetWins},
		{NetworkWholeUniverse(), 4, true, model.ClearWins},
		{HierarchyUniverse(), 3, true, model.SetWins},
	}
	for _, c := range cases {
		cfg := Config{Universe: c.u, Depth: c.depth, Rules: model.Proposed().WithTie(c.tie), POR: c.por, AllWitnesses: true}
		want, err := Explore(cfg)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON := resultJSON(t, want)
		for i, k := range []int{1, c.depth - 1} {
			workers := 1 + i%2
			{
				dir := t.TempDir()
				stop := cfg
				stop.Workers = workers
				stop.Checkpoint = &Checkpoint{Dir: dir, Build: "test", Stop: func(d int) bool { return d == k }}
				if r, err := Explore(stop); err != nil || r.Status != StatusUnknown {
					t.Fatalf("%s stopped at %d: %v", c.u.Name, k, err)
				}
				resume := cfg
				resume.Workers = 3 - workers
				resume.Checkpoint = &Checkpoint{Dir: dir, Build: "test", Resume: true}
				if err := CheckResume(resume); err != nil {
					t.Fatal(err)
				}
				r, err := Explore(resume)
				if err != nil {
					t.Fatal(err)
				}
				r.Workers = want.Workers
				if got := resultJSON(t, r); got != wantJSON {
					t.Fatalf("%s resumed at %d (workers %d):\n%s\nuninterrupted:\n%s", c.u.Name, k, workers, got, wantJSON)
				}
			}
		}
	}
}

// Every device state a network run interns, rotated ones (which keep their
// last publication) included, restores to itself; a checkpoint of another
// rule set, tie or build is refused.
func TestCheckpointRestoresDeviceStates(t *testing.T) {
	u := NetworkUniverse()
	rules := model.Proposed().WithTie(model.ClearWins)
	w, e, err := newWorld(&u, rules, 4, true)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Explore(Config{Universe: u, Depth: 4, Rules: rules, Checkpoint: &Checkpoint{Dir: dir, Build: "test"}}); err != nil {
		t.Fatal(err)
	}
	// Run the same exploration on w to look at its tables.
	if _, err := search.Explore[*cache](w, search.Config{Depth: 4}); err != nil {
		t.Fatal(err)
	}
	// A state that keeps a last publication (as a rotation's does) is
	// restored with it.
	pub := newReplica(u.Devices[0], rules)
	if pub.MarkRead("c0", 10) != nil || pub.MarkUnread("c0") != nil {
		t.Fatal("cannot act on a replica")
	}
	pub.Publish()
	states, devs := []*model.Replica{pub}, []int{0}
	for dev, tb := range e.devs {
		states = append(states, tb.reps...)
		devs = append(devs, slices.Repeat([]int{dev}, len(tb.reps))...)
	}
	for i, r := range states {
		var enc search.Enc
		encodeReplica(&enc, r)
		back, err := decodeReplica(search.NewDec(enc.B), u.Devices[devs[i]], rules)
		if err != nil {
			t.Fatalf("state %d: %v", i, err)
		}
		if string(appendReplicaState(nil, back)) != string(appendReplicaState(nil, r)) || !slices.Equal(back.LastPublished(), r.LastPublished()) {
			t.Fatalf("state %d restores to another state", i)
		}
	}
	if len(pub.LastPublished()) == 0 {
		t.Fatal("the published state has no last publication")
	}
	for _, bad := range []Config{
		{Universe: u, Depth: 4, Rules: model.Proposed().WithTie(model.SetWins)},
		{Universe: u, Depth: 4, Rules: rules, NoSymmetry: true},
		{Universe: NetworkWholeUniverse(), Depth: 4, Rules: rules},
	} {
		bad.Checkpoint = &Checkpoint{Dir: dir, Build: "test", Resume: true}
		if err := CheckResume(bad); err == nil || !strings.Contains(err.Error(), "checkpoint of another run") {
			t.Errorf("%s: %v", bad.Universe.Name, err)
		}
	}
	other := Config{Universe: u, Depth: 4, Rules: rules, Checkpoint: &Checkpoint{Dir: dir, Build: "other", Resume: true}}
	if _, err := Explore(other); err == nil || !strings.Contains(err.Error(), `build "test" there, "other" here`) {
		t.Errorf("another build: %v", err)
	}
}
