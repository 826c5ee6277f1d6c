package search

import (
	"sync"
	"unsafe"
)

// offheap hands out blocks of memory that hold no pointers, mapped outside
// the Go heap where the platform allows it (offheap_mmap.go), and releases
// them all once their owner is gone. A block is never handed out twice:
// free returns it to the system.
type offheap struct {
	mu     sync.Mutex
	blocks map[*byte]int // mapped blocks by first byte -> length
	// dir, when set, is where record chunks are backed by files
	// (allocFile), so the kernel can write them out and drop them from
	// memory; the index stays in anonymous memory.
	dir string
}

func (m *offheap) alloc(n int) []byte { return m.track(mapBlock(n)) }

// allocFile is alloc backed by a file in m.dir when one is set.
func (m *offheap) allocFile(n int) []byte {
	if m.dir == "" {
		return m.alloc(n)
	}
	return m.track(mapFile(m.dir, n))
}

func (m *offheap) track(b []byte) []byte {
	m.mu.Lock()
	if m.blocks == nil {
		m.blocks = map[*byte]int{}
	}
	m.blocks[unsafe.SliceData(b)] = len(b)
	m.mu.Unlock()
	return b
}

func (m *offheap) free(b []byte) {
	m.mu.Lock()
	delete(m.blocks, unsafe.SliceData(b))
	m.mu.Unlock()
	unmapBlock(b)
}

// allocInt32 is a zeroed block of n int32s.
func (m *offheap) allocInt32(n int) []int32 {
	b := m.alloc(4 * n)
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// allocUint64 is a zeroed block of n uint64s.
func (m *offheap) allocUint64(n int) []uint64 {
	b := m.alloc(8 * n)
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

func (m *offheap) freeUint64(x []uint64) {
	m.free(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), 8*len(x)))
}

func (m *offheap) freeInt32(x []int32) {
	m.free(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), 4*len(x)))
}

func (m *offheap) freeAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for p, n := range m.blocks {
		unmapBlock(unsafe.Slice(p, n))
	}
	m.blocks = nil
}
