//go:build linux || darwin || freebsd || netbsd || openbsd

package search

import "syscall"

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
