package mbt

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/itf"
)

// clientDir is the worked JavaScript client of the vectors.
func clientDir(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "vectors", "examples", "client")
}

func nodePath(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the JavaScript client cannot be driven")
	}
	return p
}

// The worked client follows the model through 20 simulated walks.
func TestJSClientFollowsSimulation(t *testing.T) {
	node := nodePath(t)
	walks := shortrun.Size(t, 20, 5)
	trs := simTraces(t, walks, 30, 11)
	r, err := DriveAll([]string{node, filepath.Join(clientDir(t), "adapter.mjs")}, trs)
	if err != nil {
		t.Fatal(err)
	}
	if r.Divergence != nil {
		t.Fatalf("%v\nwitness: %d states", r.Divergence, len(r.Divergence.Witness.States))
	}
	if r.Walks != walks {
		t.Fatalf("drove %d walks, want %d", r.Walks, walks)
	}
	t.Logf("%d walks, %d states, all agree", walks, r.States)
}

// A copy of the client with set-wins liveness (an equal set and clear
// count keeps the override) is caught within the same bounded walks, with
// a witness that itself still replays against the model.
func TestJSClientSeededBugDiverges(t *testing.T) {
	node := nodePath(t)
	dir := t.TempDir()
	src := clientDir(t)
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".mjs") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "register.mjs" {
			const clear = `export function live([s, c, b], f, tie = "clear")`
			if !strings.Contains(string(b), clear) {
				t.Fatal("register.mjs no longer has the liveness function this test seeds a bug in")
			}
			b = []byte(strings.Replace(string(b), clear, `export function live([s, c, b], f, tie = "set")`, 1))
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	trs := simTraces(t, shortrun.Size(t, 20, 5), 30, 11)
	r, err := DriveAll([]string{node, filepath.Join(dir, "adapter.mjs")}, trs)
	if err != nil {
		t.Fatal(err)
	}
	d := r.Divergence
	if d == nil {
		t.Fatalf("set-wins went unnoticed through %d walks", r.Walks)
	}
	t.Logf("found: %v", d)
	// The witness is the trace up to the divergent step: it agrees with
	// the model, reads back from its file form, and drives the buggy
	// client to the same divergence.
	b, err := itf.Encode(d.Witness)
	if err != nil {
		t.Fatal(err)
	}
	back, err := itf.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(exhaustive.NewCatalog(), back); err != nil {
		t.Fatalf("the witness does not replay against the model: %v", err)
	}
	again := Drive([]string{node, filepath.Join(dir, "adapter.mjs")}, back)
	if d2, ok := IsDivergence(again); !ok || d2.Step != d.Step || d2.Var != d.Var {
		t.Fatalf("the witness does not reproduce the divergence: %v", again)
	}
}
