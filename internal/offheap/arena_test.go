package offheap

import (
	"os"
	"runtime"
	"testing"
	"unsafe"
)

// Blocks read back what was written, come zeroed, and are counted until
// freed; large ones start on a huge-page boundary where memory is mapped.
func TestBlocks(t *testing.T) {
	var a Arena
	for _, n := range []int{1, MinMapped - 1, MinMapped, hugePage - 1, hugePage, 3*hugePage + 12345} {
		b := a.Bytes(n)
		if len(b) != n {
			t.Fatalf("block of %d has length %d", n, len(b))
		}
		for i := 0; i < n; i += 4093 {
			if b[i] != 0 {
				t.Fatalf("block of %d not zeroed at %d", n, i)
			}
			b[i] = byte(i)
		}
		b[n-1] = 7
		if b[n-1] != 7 || (n > 4093 && b[4093] != byte(4093%256)) {
			t.Fatalf("block of %d does not hold what was written", n)
		}
		mapped := runtime.GOOS == "linux" && n >= MinMapped
		if mapped && n >= hugePage && uintptr(unsafe.Pointer(&b[0]))%hugePage != 0 {
			t.Errorf("block of %d not aligned to a huge page", n)
		}
	}
	if runtime.GOOS == "linux" && a.Mapped() != 4 {
		t.Fatalf("%d blocks mapped, want 4", a.Mapped())
	}
	a.FreeAll()
	if a.Mapped() != 0 {
		t.Fatalf("%d blocks mapped after FreeAll", a.Mapped())
	}
}

type pair struct {
	K uint64
	V [2]int32
}

func TestMakeAndRelease(t *testing.T) {
	var a Arena
	s := Make[pair](&a, 1<<16)
	if len(s) != 1<<16 || s[1<<16-1] != (pair{}) {
		t.Fatal("Make gives the wrong slice")
	}
	s[100] = pair{5, [2]int32{6, 7}}
	if s[100].V[1] != 7 {
		t.Fatal("a value does not read back")
	}
	before := a.Mapped()
	Release(&a, s)
	if runtime.GOOS == "linux" && (before != 1 || a.Mapped() != 0) {
		t.Fatalf("mapped %d before Release, %d after", before, a.Mapped())
	}
	Release(&a, Make[int32](&a, 10)) // from the Go heap: ignored
	Release[int32](&a, nil)
}

// A type that can hold a pointer is refused: the collector would not see
// what it points to.
func TestPointersRefused(t *testing.T) {
	for name, f := range map[string]func(){
		"pointer":   func() { Make[*int](new(Arena), 10) },
		"string":    func() { Make[string](new(Arena), 10) },
		"slice":     func() { Make[struct{ A []int }](new(Arena), 10) },
		"interface": func() { Make[[2]any](new(Arena), 10) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Make accepted a type holding pointers", name)
				}
			}()
			f()
		}()
	}
}

// File-backed blocks leave nothing in their directory.
func TestFileBytes(t *testing.T) {
	dir := t.TempDir()
	a := Arena{Dir: dir}
	b := a.FileBytes(1 << 20)
	b[12345] = 9
	if b[12345] != 9 {
		t.Fatal("a file-backed block does not hold what was written")
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Fatalf("backing directory holds %d entries (%v)", len(ents), err)
	}
	a.FreeAll()
}
