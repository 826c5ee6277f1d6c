//go:build linux || darwin || freebsd || netbsd || openbsd

package search

import (
	"os"
	"syscall"
)

// mapBlock maps n zeroed bytes of anonymous memory. The kernel supplies
// pages as they are first written, so an unused tail costs nothing.
func mapBlock(n int) []byte {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		panic("search: cannot map memory for the state store: " + err.Error())
	}
	return b
}

func unmapBlock(b []byte) {
	if err := syscall.Munmap(b); err != nil {
		panic("search: cannot unmap state store memory: " + err.Error())
	}
}

// mapFile maps n zeroed bytes of a new file in dir, shared, so that the
// kernel writes its pages to the file and may drop them from memory. The
// file is unlinked at once: its space lives as long as the mapping, and
// nothing is left behind by a run that ends or dies.
func mapFile(dir string, n int) []byte {
	f, err := os.CreateTemp(dir, "states-*.chunk")
	if err != nil {
		panic("search: cannot create a state store file: " + err.Error())
	}
	defer f.Close()
	defer os.Remove(f.Name())
	if err := f.Truncate(int64(n)); err != nil {
		panic("search: cannot size a state store file: " + err.Error())
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		panic("search: cannot map a state store file: " + err.Error())
	}
	return b
}
