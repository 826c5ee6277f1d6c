package search

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
)

// labelled is grid whose row words are ids into an interning table of
// counter values, assigned on first sight by whichever worker sees a value
// first: the ids of a run depend on scheduling, as a real World's do, and a
// resumed run must reload them.
type labelled struct {
	grid
	mu     sync.Mutex
	vals   []int32
	ids    map[int32]int32
	saved  int
	loaded int // LoadTables calls, to check the engine's order
	checks atomic.Int64
}

func newLabelled(n, limit int) *labelled {
	return &labelled{grid: grid{n: n, limit: limit}, ids: map[int32]int32{}}
}

func (w *labelled) id(v int32) int32 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if id, ok := w.ids[v]; ok {
		return id
	}
	w.ids[v] = int32(len(w.vals))
	w.vals = append(w.vals, v)
	return w.ids[v]
}

func (w *labelled) val(id int32) int32 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.vals[id]
}

func (w *labelled) values(row []int32) []int32 { return []int32{w.val(row[0]), w.val(row[1])} }

func (w *labelled) Initial(c *int) []int32 { return []int32{w.id(0), w.id(0)} }
func (w *labelled) Check(c *int, row []int32, tl *Tally) []Finding {
	w.checks.Add(1)
	return w.grid.Check(c, w.values(row), tl)
}
func (w *labelled) Successor(c *int, cur []int32, t int, next []int32, tl *Tally) (bool, []Finding) {
	ok, fs := w.grid.Successor(c, w.values(cur), t, next, tl)
	if ok {
		next[0], next[1] = w.id(next[0]), w.id(next[1])
	}
	return ok, fs
}

func (w *labelled) AppendTables(e *Enc) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	e.Uvarint(uint64(len(w.vals) - w.saved))
	for _, v := range w.vals[w.saved:] {
		e.Int32(v)
	}
	w.saved = len(w.vals)
	return nil
}

func (w *labelled) LoadTables(d *Dec) error {
	w.loaded++
	for range d.Count(1) {
		v := d.Int32()
		if _, dup := w.ids[v]; dup && d.Err() == nil {
			return fmt.Errorf("value %d twice", v)
		}
		w.ids[v] = int32(len(w.vals))
		w.vals = append(w.vals, v)
	}
	w.saved = len(w.vals)
	return d.Err()
}

func (w *labelled) ValidRow(row []int32) error {
	for _, id := range row {
		if id < 0 || int(id) >= len(w.vals) {
			return fmt.Errorf("id %d not in the table", id)
		}
	}
	return nil
}

// figures is everything a run reports, with rows as values, for comparing
// runs whose ids differ.
func (w *labelled) figures(r *Run) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v distinct %d per depth %v checked %d bound %q\n", r.Status, r.Distinct, r.PerDepth, r.Checked, r.BoundHit)
	return b.String() + tallyFigures(r) + func() string {
		var s strings.Builder
		for i := range r.Store.Len() {
			fmt.Fprintf(&s, "%v<-%d/%d ", w.values(r.Store.Row(i)), r.Store.Parent(int32(i)), r.Store.Trans(int32(i)))
		}
		return s.String()
	}()
}

func tallyFigures(r *Run) string {
	t := r.Tally
	keys := make([]string, 0)
	for k := range t.Counters() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s := fmt.Sprintf("units %v violations %v counters", t.units, t.violations)
	for _, k := range keys {
		s += fmt.Sprintf(" %s=%d", k, t.counters[k])
	}
	hit := func(h *Hit) string {
		if h == nil {
			return "-"
		}
		return fmt.Sprintf("%+v path %v", *h, r.Store.Path(h.Parent))
	}
	s += " best " + hit(t.best)
	for _, h := range t.bestOf {
		s += " | " + hit(h)
	}
	return s + "\n"
}

func labelledCheckpoint(w *labelled, dir string, resume bool, stop func(int) bool) *Checkpoint {
	return &Checkpoint{Dir: dir, Identity: []Field{{"world", "labelled"}}, Tables: w, Resume: resume, Stop: stop}
}

// A run stopped after the checkpoint of depth k and resumed in a new World
// reports exactly what an uninterrupted run does, at any worker count, also
// to a larger depth bound than the stopped run's and with TerminalOnly.
func TestCheckpointResumeIsExact(t *testing.T) {
	workerCounts := []int{1, 2}
	if shortrun.On(t, "resumed with two workers only") {
		workerCounts = []int{2}
	}
	for _, terminal := range []bool{false, true} {
		cfg := Config{Depth: 24, TerminalOnly: terminal}
		w := newLabelled(14, 18)
		want, err := Explore[*int](w, cfg)
		if err != nil {
			t.Fatal(err)
		}
		wantFig := w.figures(want)
		for _, workers := range workerCounts {
			for _, k := range []int{0, 5, 24} {
				dir := t.TempDir()
				cfg.Workers = workers
				stopped := newLabelled(14, 18)
				c := cfg
				c.Depth = 30 // resuming with a smaller bound than the stopped run's
				c.Checkpoint = labelledCheckpoint(stopped, dir, false, func(d int) bool { return d == k })
				r, err := Explore[*int](stopped, c)
				if err != nil {
					t.Fatal(err)
				}
				if r.Status == StatusOK || !strings.Contains(r.BoundHit, fmt.Sprintf("checkpoint of depth %d", k)) {
					t.Fatalf("stopped run: %v %q", r.Status, r.BoundHit)
				}
				resumed := newLabelled(14, 18)
				c = cfg
				c.Checkpoint = labelledCheckpoint(resumed, dir, true, nil)
				r, err = Explore[*int](resumed, c)
				if err != nil {
					t.Fatal(err)
				}
				if got := resumed.figures(r); got != wantFig {
					t.Fatalf("terminal %t workers %d resumed at %d:\n%s\nuninterrupted:\n%s", terminal, workers, k, got, wantFig)
				}
				if resumed.loaded != k+1 {
					t.Fatalf("tables of %d levels loaded, want %d", resumed.loaded, k+1)
				}
			}
		}
	}
}

// A checkpointed run reports what a plain run does; a finished run's
// checkpoint resumes to a larger depth bound exactly (with TerminalOnly
// too, where the finished run checked a level the deeper one does not),
// and to its own bound without checking anything again.
func TestCheckpointThenDeeper(t *testing.T) {
	for _, terminal := range []bool{false, true} {
		w := newLabelled(12, 14)
		want, err := Explore[*int](w, Config{Depth: 16, Workers: 2, TerminalOnly: terminal})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		first := newLabelled(12, 14)
		shallow, err := Explore[*int](first, Config{Depth: 9, Workers: 2, TerminalOnly: terminal, Checkpoint: labelledCheckpoint(first, dir, false, nil)})
		if err != nil {
			t.Fatal(err)
		}
		again := newLabelled(12, 14)
		r, err := Explore[*int](again, Config{Depth: 9, TerminalOnly: terminal, Checkpoint: labelledCheckpoint(again, dir, true, nil)})
		if err != nil {
			t.Fatal(err)
		}
		if got, wantFig := again.figures(r), first.figures(shallow); got != wantFig || again.checks.Load() != 0 {
			t.Fatalf("resumed finished run (%d checks run):\n%s\nthe run:\n%s", again.checks.Load(), got, wantFig)
		}
		deeper := newLabelled(12, 14)
		r, err = Explore[*int](deeper, Config{Depth: 16, Workers: 2, TerminalOnly: terminal, Checkpoint: labelledCheckpoint(deeper, dir, true, nil)})
		if err != nil {
			t.Fatal(err)
		}
		if got, wantFig := deeper.figures(r), w.figures(want); got != wantFig {
			t.Fatalf("terminal %t resumed deeper:\n%s\nuninterrupted:\n%s", terminal, got, wantFig)
		}
		// The resumed run went on checkpointing: it resumes again at 16.
		s, err := OpenCheckpoint(dir)
		if err != nil || s.Depth() != 16 || s.m.Final == nil || s.m.Final.Bound != 16 || s.Verify() != nil {
			t.Fatalf("checkpoint after the resumed run: %v", err)
		}
		for _, kind := range []string{"tally", "final"} {
			if _, err := os.Stat(filepath.Join(dir, boundaryFile(15, kind))); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("a superseded boundary file is left: %v", err)
			}
		}
	}
}

// With POR the sleep sets of the level about to be expanded are carried
// across: the executed transitions are those of an uninterrupted run.
func TestCheckpointKeepsSleepSets(t *testing.T) {
	g := cube{k: 3, n: 6, limit: 2, commute: true}
	want, err := Explore[*int](g, Config{Depth: 15, POR: true})
	if err != nil {
		t.Fatal(err)
	}
	var none noTables
	for _, k := range []int{1, 4} {
		dir := t.TempDir()
		cp := &Checkpoint{Dir: dir, Tables: none, Stop: func(d int) bool { return d == k }}
		if _, err := Explore[*int](g, Config{Depth: 15, POR: true, Workers: 2, Checkpoint: cp}); err != nil {
			t.Fatal(err)
		}
		cp = &Checkpoint{Dir: dir, Tables: none, Resume: true}
		r, err := Explore[*int](g, Config{Depth: 15, POR: true, Workers: 1, Checkpoint: cp})
		if err != nil {
			t.Fatal(err)
		}
		if tallyFigures(r) != tallyFigures(want) || !slices.Equal(r.PerDepth, want.PerDepth) {
			t.Fatalf("resumed at %d:\n%s\nuninterrupted:\n%s", k, tallyFigures(r), tallyFigures(want))
		}
		// Resuming without POR is another run.
		cp = &Checkpoint{Dir: dir, Tables: none, Resume: true}
		if _, err := Explore[*int](g, Config{Depth: 15, Checkpoint: cp}); err == nil || !strings.Contains(err.Error(), "search.por") {
			t.Fatalf("resumed without POR: %v", err)
		}
	}
}

// noTables is the Tables of a World whose rows are plain values.
type noTables struct{}

func (noTables) AppendTables(*Enc) error    { return nil }
func (noTables) LoadTables(d *Dec) error    { return nil }
func (noTables) ValidRow(row []int32) error { return nil }

// dirFiles is every file of dir with its content.
func dirFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// A checkpoint that is damaged, foreign, missing or of another run is
// refused with an error that says which, before anything is written.
func TestCheckpointRefusesBadInput(t *testing.T) {
	good := t.TempDir()
	w := newLabelled(10, 100)
	if _, err := Explore[*int](w, Config{Depth: 6, Checkpoint: labelledCheckpoint(w, good, false, nil)}); err != nil {
		t.Fatal(err)
	}
	copyDir := func() string {
		dir := t.TempDir()
		for name, b := range dirFiles(t, good) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	edit := func(name string, f func([]byte) []byte) func(string) {
		return func(dir string) {
			p := filepath.Join(dir, name)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	flip := func(i int) func([]byte) []byte {
		return func(b []byte) []byte { b[i%len(b)] ^= 0x10; return b }
	}
	cases := []struct {
		name  string
		spoil func(dir string)
		cfg   func(*Config)
		want  string
	}{
		{"truncated states", edit(levelFile(4, "states"), func(b []byte) []byte { return b[:len(b)-3] }), nil, "truncated or changed"},
		{"flipped byte", edit(levelFile(3, "states"), flip(7)), nil, "checksum mismatch"},
		{"flipped table byte", edit(levelFile(2, "tables"), flip(1)), nil, "checksum mismatch"},
		{"flipped tally byte", edit(boundaryFile(6, "tally"), flip(3)), nil, "checksum mismatch"},
		{"missing file", func(dir string) { os.Remove(filepath.Join(dir, levelFile(5, "tables"))) }, nil, "missing"},
		{"foreign manifest", edit(manifestName, func([]byte) []byte { return []byte(`{"format":"something else"}`) }), nil, "not a checkpoint manifest"},
		{"garbage manifest", edit(manifestName, func([]byte) []byte { return []byte("\x00\x01 not json") }), nil, "not a checkpoint manifest"},
		// Whoever rewrites the manifest cannot reseal it without the key:
		// another identity, or a tally zeroed with its checksum recomputed.
		{"another run", edit(manifestName, func(b []byte) []byte {
			return []byte(strings.Replace(string(b), `"labelled"`, `"other"`, 1))
		}), nil, "not sealed by this user's key"},
		{"forged tally, checksum recomputed", func(dir string) {
			name := boundaryFile(6, "tally")
			forged := make([]byte, len(readFile(t, filepath.Join(dir, name))))
			if err := os.WriteFile(filepath.Join(dir, name), forged, 0o644); err != nil {
				t.Fatal(err)
			}
			var m manifest
			if err := json.Unmarshal(readFile(t, filepath.Join(dir, manifestName)), &m); err != nil {
				t.Fatal(err)
			}
			for i, f := range m.Files {
				if f.Name == name {
					sum := sha256.Sum256(forged)
					m.Files[i].SHA256 = hex.EncodeToString(sum[:])
				}
			}
			b, _ := json.MarshalIndent(m, "", "  ")
			if err := os.WriteFile(filepath.Join(dir, manifestName), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, nil, "not sealed by this user's key"},
		{"another engine setting", nil, func(c *Config) { c.TerminalOnly = true }, "search.terminal-only"},
		{"shallower bound", nil, func(c *Config) { c.Depth = 5 }, "beyond the depth bound 5"},
		{"state limit", nil, func(c *Config) { c.MaxStates = 20 }, "more than the state limit 20"},
		{"missing directory", func(dir string) { os.RemoveAll(dir) }, nil, "not a directory"},
		{"empty directory", func(dir string) {
			for name := range dirFiles(t, dir) {
				os.Remove(filepath.Join(dir, name))
			}
		}, nil, "no checkpoint"},
	}
	for _, c := range cases {
		dir := copyDir()
		if c.spoil != nil {
			c.spoil(dir)
		}
		var before map[string]string
		if _, err := os.Stat(dir); err == nil {
			before = dirFiles(t, dir)
		}
		fresh := newLabelled(10, 100)
		cfg := Config{Depth: 8, Checkpoint: labelledCheckpoint(fresh, dir, true, nil)}
		if c.cfg != nil {
			c.cfg(&cfg)
		}
		_, err := Explore[*int](fresh, cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if before != nil && !maps.Equal(before, dirFiles(t, dir)) {
			t.Errorf("%s: the directory changed", c.name)
		}
	}
	// The undamaged copy resumes.
	fresh := newLabelled(10, 100)
	if _, err := Explore[*int](fresh, Config{Depth: 8, Checkpoint: labelledCheckpoint(fresh, copyDir(), true, nil)}); err != nil {
		t.Fatal(err)
	}
}

// A decoder never reads past its input, whatever the bytes claim.
func TestDecBoundsEveryRead(t *testing.T) {
	for _, in := range [][]byte{{5, 'a', 'b'}, {1}, {0x80}, {2, 1}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}} {
		d := NewDec(in)
		s := d.String()
		n := d.Count(1)
		if d.Err() == nil && (len(s) > len(in) || n > len(in)) {
			t.Fatalf("%v: read %q and a count of %d", in, s, n)
		}
	}
	d := NewDec([]byte{2, 'h', 'i'})
	if s := d.String(); s != "hi" || d.Err() != nil || d.Left() != 0 {
		t.Fatalf("%q %v", s, d.Err())
	}
	d = NewDec([]byte{3, 'h', 'i'})
	if _ = d.String(); d.Err() == nil {
		t.Fatal("a string longer than its input was read")
	}
}

// A run killed while writing a checkpoint leaves the previous one whole:
// the next boundary's files, half written, and a manifest not yet renamed
// are not part of it, and the resumed run writes over them.
func TestCheckpointKilledMidWrite(t *testing.T) {
	w := newLabelled(12, 14)
	want, err := Explore[*int](w, Config{Depth: 14})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stopped := newLabelled(12, 14)
	if _, err := Explore[*int](stopped, Config{Depth: 14, Checkpoint: labelledCheckpoint(stopped, dir, false, func(d int) bool { return d == 6 })}); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		levelFile(7, "states"):    "\x07\x02\x09half a level",
		levelFile(7, "tables"):    "",
		boundaryFile(7, "tally"):  "\x00",
		manifestName + ".tmp":     `{"format":"nip-rs search checkpoint 1","depth":7`,
		boundaryFile(6, "sleep"):  "stray",
		boundaryFile(6, "final"):  "stray",
		levelFile(8, "states"):    "from an older attempt",
		boundaryFile(5, "tables"): "unrelated",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	resumed := newLabelled(12, 14)
	r, err := Explore[*int](resumed, Config{Depth: 14, Checkpoint: labelledCheckpoint(resumed, dir, true, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if got, wantFig := resumed.figures(r), w.figures(want); got != wantFig {
		t.Fatalf("resumed after a killed write:\n%s\nuninterrupted:\n%s", got, wantFig)
	}
	if s, err := OpenCheckpoint(dir); err != nil || s.Depth() != 14 || s.Verify() != nil {
		t.Fatalf("the resumed run's checkpoint: %v", err)
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
