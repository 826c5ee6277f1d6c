package search

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/offheap"
)

// wander is a world with many ways back to earlier states and words that
// outgrow 2 and 3 bytes: each transition rewrites one word by a step that
// another transition undoes, so most successors are duplicates, across
// levels and within one.
type wander struct{ mod int32 }

func (wander) Width() int { return 3 }
func (wander) Invariants() []Invariant {
	return []Invariant{
		{ID: "W1-step", Label: "W1", Doc: "no step makes word 0 a multiple of 5", Unit: unitStep},
		{ID: "W2-big", Label: "W2", Doc: "word 2 stays small", Unit: unitState},
	}
}
func (wander) Units() []string      { return []string{"steps", "states"} }
func (wander) NewWorker() *int      { return new(int) }
func (wander) Initial(*int) []int32 { return []int32{1, 2, 3} }
func (wander) Transitions() int     { return 6 }

// scale is how far a word's values spread: word 2 jumps past 2^24.
var scale = [3]int32{1, 1 << 12, 1 << 20}

func (g wander) Successor(_ *int, cur []int32, t int, next []int32, tl *Tally) (bool, []Finding) {
	k := t / 2
	if t%2 == 1 && cur[k]%2 == 0 {
		return false, nil // an odd transition only from odd words
	}
	copy(next, cur)
	step := scale[k] * int32(t%2*2-1) * 3
	next[k] = ((cur[k]+step)%(g.mod*scale[k]) + g.mod*scale[k]) % (g.mod * scale[k])
	tl.Add(unitStep, 1)
	tl.Count(fmt.Sprintf("word %d", k), 1)
	if next[0]%5 == 0 && cur[0]%5 != 0 {
		return true, []Finding{{0, "multiple of 5"}}
	}
	return true, nil
}

func (g wander) Check(_ *int, row []int32, tl *Tally) []Finding {
	tl.Add(unitState, 1)
	if row[2] > 1<<24 && row[1] > 1<<12 {
		return []Finding{{1, "big"}}
	}
	return nil
}

// sameRun fails unless two runs agree on every figure, the tally and every
// stored state's row, parent and transition.
func sameRun(t *testing.T, label string, want, got *Run) {
	t.Helper()
	if got.Status != want.Status || got.Distinct != want.Distinct || !slices.Equal(got.PerDepth, want.PerDepth) ||
		got.Checked != want.Checked || got.BoundHit != want.BoundHit {
		t.Fatalf("%s: %v %d %v %d %q, in memory %v %d %v %d %q", label, got.Status, got.Distinct, got.PerDepth, got.Checked, got.BoundHit,
			want.Status, want.Distinct, want.PerDepth, want.Checked, want.BoundHit)
	}
	if !reflect.DeepEqual(got.Tally, want.Tally) {
		t.Fatalf("%s: tally %+v, in memory %+v", label, got.Tally, want.Tally)
	}
	if got.Store.Len() != want.Store.Len() {
		t.Fatalf("%s: %d stored, in memory %d", label, got.Store.Len(), want.Store.Len())
	}
	for i := range want.Store.Len() {
		if !slices.Equal(got.Store.Row(i), want.Store.Row(i)) || got.Store.Parent(int32(i)) != want.Store.Parent(int32(i)) ||
			(i > 0 && got.Store.Trans(int32(i)) != want.Store.Trans(int32(i))) {
			t.Fatalf("%s: state %d is %v from %d, in memory %v from %d", label, i, got.Store.Row(i), got.Store.Parent(int32(i)),
				want.Store.Row(i), want.Store.Parent(int32(i)))
		}
	}
	if h := want.Tally.Best(); h != nil && !slices.Equal(got.Store.Path(h.Parent), want.Store.Path(h.Parent)) {
		t.Fatalf("%s: witness path %v, in memory %v", label, got.Store.Path(h.Parent), want.Store.Path(h.Parent))
	}
}

func TestRunsStoreMatchesMemory(t *testing.T) {
	w := wander{mod: 40}
	dir := t.TempDir()
	for _, cfg := range []Config{
		{Depth: 12},
		{Depth: 9, TerminalOnly: true},
		{Depth: 12, MaxStates: 900},
		{Depth: 12, MaxStates: 1},
		{Depth: 12, StopAtFirst: true},
	} {
		want, err := Explore[*int](w, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			// 16 records a buffer: every level spills many runs of
			// candidates and of new states.
			for _, budget := range []int64{1, 1 << 16} {
				c := cfg
				c.Workers, c.Runs, c.StoreDir, c.RunsMemory = workers, true, dir, budget
				got, err := Explore[*int](w, c)
				if err != nil {
					t.Fatal(err)
				}
				sameRun(t, fmt.Sprintf("%+v", c), want, got)
				if got.Store.DiskBytes() <= 0 {
					t.Errorf("%+v: no disk use recorded", c)
				}
				// Two files a level (its states, the visited set) and one
				// run a full buffer, of candidates or of new states.
				if budget == 1 && len(got.PerDepth) > 5 && got.Store.ext.files < 3*len(got.PerDepth) {
					t.Errorf("%+v: only %d files for %d levels", c, got.Store.ext.files, len(got.PerDepth))
				}
				got.Store.Free()
			}
		}
		want.Store.Free()
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Fatalf("store directory keeps %v (%v)", ents, err)
	}
}

func TestRunsStoreBadConfig(t *testing.T) {
	dir := t.TempDir()
	for _, bad := range []Config{
		{Depth: 8, Runs: true, StoreDir: dir, RunsMemory: -1},
		{Depth: 8, Runs: true, StoreDir: filepath.Join(dir, "missing")},
	} {
		if _, err := Explore[*int](wander{mod: 20}, bad); err == nil {
			t.Errorf("runs store in %q with %d bytes accepted", bad.StoreDir, bad.RunsMemory)
		}
	}
}

func TestRunsStoreBadDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(dir, "locked")
	if err := os.Mkdir(locked, 0o500); err != nil {
		t.Fatal(err)
	}
	dirs := []string{file, filepath.Join(dir, "missing"), locked}
	if runtime.GOOS == "linux" {
		dirs = append(dirs, "/proc") // a directory no one may create files in
	}
	for _, d := range dirs {
		_, err := Explore[*int](wander{mod: 20}, Config{Depth: 8, Runs: true, StoreDir: d})
		if d == locked && os.Getuid() == 0 {
			continue // root writes anywhere
		}
		if err == nil || !strings.Contains(err.Error(), "state store") {
			t.Errorf("store dir %s: error %v", d, err)
		}
	}
}

// A run file cut short (a disk that lost its tail) is an error when read,
// not a short level.
func TestRunFileTruncatedIsAnError(t *testing.T) {
	lay := newLayout(3)
	f, err := createRunFile(t.TempDir(), lay, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	for i := range int32(10) {
		f.append([]int32{i, i + 1, i + 2}, i-1, uint16(i))
	}
	if err := f.finish(); err != nil {
		t.Fatal(err)
	}
	if err := f.f.Truncate(int64(5*lay.rec + 3)); err != nil {
		t.Fatal(err)
	}
	r := f.reader(0, 3)
	n := 0
	for r.next() {
		n++
	}
	if n != 5 || r.err == nil || !strings.Contains(r.err.Error(), "state store") {
		t.Fatalf("read %d records of a truncated file, error %v", n, r.err)
	}
	row := make([]int32, 3)
	if _, _, err := f.readAt(7, row); err == nil {
		t.Fatal("a record past the end of a truncated file reads")
	}
	if p, tr, err := f.readAt(4, row); err != nil || !slices.Equal(row, []int32{4, 5, 6}) || p != 3 || tr != 4 {
		t.Fatalf("record 4 reads %v %d %d (%v)", row, p, tr, err)
	}
}

// The buffer's sort orders by key, then row, whatever the keys' spread.
func TestRunBufferSorts(t *testing.T) {
	mem := &offheap.Arena{}
	defer mem.FreeAll()
	b := newRunBuffer(2, 1<<16, mem)
	for _, spread := range []uint64{1, 3, 1 << 20, 1 << 40, ^uint64(0)} {
		for e := range 500 {
			k := uint64(e*7919%500) * (spread / 500)
			if spread < 500 {
				k = uint64(e) % (spread + 1)
			}
			b.set([]int32{int32(e % 3), int32(-e)}, k, int32(e), 0)
		}
		perm := b.sorted()
		if all := slices.Sorted(slices.Values(perm)); len(all) != 500 || all[0] != 0 || all[499] != 499 || len(slices.Compact(all)) != 500 {
			t.Fatalf("spread %d: not a permutation of the entries", spread)
		}
		for i := 1; i < len(perm); i++ {
			x, y := perm[i-1], perm[i]
			if b.keys[x] > b.keys[y] || b.keys[x] == b.keys[y] && slices.Compare(b.row(int(x)), b.row(int(y))) > 0 {
				t.Fatalf("spread %d: entries %d and %d out of order", spread, x, y)
			}
		}
		b.reset()
	}
}

// The runs store refuses partial-order reduction instead of ignoring it.
func TestRunsStoreRefusesPOR(t *testing.T) {
	_, err := Explore[*int](cube{k: 3, n: 4, limit: 2, commute: true}, Config{Depth: 5, POR: true, Runs: true, StoreDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "partial-order") {
		t.Fatalf("error %v", err)
	}
}
