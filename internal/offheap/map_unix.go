//go:build linux || darwin || freebsd || netbsd || openbsd

package offheap

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size the kernel's transparent huge pages come in.
const hugePage = 2 << 20

// mapAnon maps n zeroed bytes of anonymous memory; the kernel supplies
// pages as they are first written, so an unused tail costs nothing. A
// block of a huge page or more starts on a huge-page boundary and is
// advised as huge pages.
func mapAnon(n int) []byte {
	if n < hugePage {
		return mmap(n)
	}
	// Map a huge page more, then unmap the unaligned head and tail (a
	// mapping covers whole pages: m is n rounded up to one).
	page := os.Getpagesize()
	m := (n + page - 1) / page * page
	raw := mmap(m + hugePage)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	pad := int((hugePage - base%hugePage) % hugePage)
	unmap(raw[:pad])
	unmap(raw[pad+m:])
	b := raw[pad : pad+n : pad+n]
	adviseHuge(b)
	return b
}

func mmap(n int) []byte {
	p, err := unix.MmapPtr(-1, 0, nil, uintptr(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		panic("offheap: cannot map memory: " + err.Error())
	}
	return unsafe.Slice((*byte)(p), n)
}

func unmap(b []byte) {
	if len(b) == 0 {
		return
	}
	if err := unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b))); err != nil {
		panic("offheap: cannot unmap memory: " + err.Error())
	}
}

// mapFile maps n zeroed bytes of a new file in dir, shared, so that the
// kernel writes its pages to the file and may drop them from memory. The
// file is unlinked at once: its space lives as long as the mapping, and
// nothing is left behind by a run that ends or dies.
func mapFile(dir string, n int) []byte {
	f, err := os.CreateTemp(dir, "states-*.chunk")
	if err != nil {
		panic("offheap: cannot create a backing file: " + err.Error())
	}
	defer f.Close()
	defer os.Remove(f.Name())
	if err := f.Truncate(int64(n)); err != nil {
		panic("offheap: cannot size a backing file: " + err.Error())
	}
	p, err := unix.MmapPtr(int(f.Fd()), 0, nil, uintptr(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		panic("offheap: cannot map a backing file: " + err.Error())
	}
	return unsafe.Slice((*byte)(p), n)
}
