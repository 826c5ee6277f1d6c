package offheap

import (
	"fmt"
	"reflect"
	"sync"
	"unsafe"
)

// MinMapped is the smallest block mapped outside the Go heap; smaller ones
// are ordinary slices, which Free and Release ignore.
const MinMapped = 64 << 10

// Arena tracks the blocks it mapped. Its zero value is ready to use; Dir,
// when set, is where FileBytes backs its blocks by files.
type Arena struct {
	Dir    string
	mu     sync.Mutex
	blocks map[*byte]int // mapped blocks by first byte -> length
}

// Bytes is a zeroed block of n bytes.
func (a *Arena) Bytes(n int) []byte {
	if n < MinMapped {
		return make([]byte, n)
	}
	return a.track(mapAnon(n))
}

// FileBytes is Bytes backed by an unlinked file in a.Dir when one is set,
// so that the kernel may write its pages out instead of keeping them.
func (a *Arena) FileBytes(n int) []byte {
	if a.Dir == "" {
		return a.Bytes(n)
	}
	return a.track(mapFile(a.Dir, n))
}

func (a *Arena) track(b []byte) []byte {
	a.mu.Lock()
	if a.blocks == nil {
		a.blocks = map[*byte]int{}
	}
	a.blocks[unsafe.SliceData(b)] = len(b)
	a.mu.Unlock()
	return b
}

// Free returns block b (from Bytes or FileBytes) at once; a block from the
// Go heap is left to the collector.
func (a *Arena) Free(b []byte) {
	p := unsafe.SliceData(b)
	a.mu.Lock()
	n, ok := a.blocks[p]
	delete(a.blocks, p)
	a.mu.Unlock()
	if ok {
		unmap(unsafe.Slice(p, n))
	}
}

// FreeAll returns every mapped block; the arena stays usable.
func (a *Arena) FreeAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for p, n := range a.blocks {
		unmap(unsafe.Slice(p, n))
	}
	a.blocks = nil
}

// Mapped is the number of blocks mapped and not yet freed.
func (a *Arena) Mapped() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.blocks)
}

// Make is a zeroed slice of n values of T, which must hold no pointers
// (the collector does not see this memory).
func Make[T any](a *Arena, n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if n == 0 || size == 0 {
		return make([]T, n)
	}
	mustBePointerFree(reflect.TypeFor[T]())
	b := a.Bytes(n * size)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// Release frees a slice from Make.
func Release[T any](a *Arena, s []T) {
	if cap(s) == 0 {
		return
	}
	var zero T
	a.Free(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), cap(s)*int(unsafe.Sizeof(zero))))
}

// Grow returns s with room for n more values, moved to a block at least
// twice as large when it has none; the old block is freed. s must have
// come from Make or Grow on a (or be nil), and nothing may still hold the
// old block: a table that grows this way belongs to one owner.
func Grow[T any](a *Arena, s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	t := Make[T](a, max(2*cap(s), len(s)+n, 256))[:len(s)]
	copy(t, s)
	Release(a, s)
	return t
}

var pointerFree sync.Map // reflect.Type -> struct{}

// mustBePointerFree panics when t can hold a pointer: memory the collector
// does not scan must not keep anything alive.
func mustBePointerFree(t reflect.Type) {
	if _, ok := pointerFree.Load(t); ok {
		return
	}
	var walk func(t reflect.Type) bool
	walk = func(t reflect.Type) bool {
		switch t.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
			return true
		case reflect.Array:
			return walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if !walk(t.Field(i).Type) {
					return false
				}
			}
			return true
		}
		return false
	}
	if !walk(t) {
		panic(fmt.Sprintf("offheap: %v can hold a pointer", t))
	}
	pointerFree.Store(t, struct{}{})
}
