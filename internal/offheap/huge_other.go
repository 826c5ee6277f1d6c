//go:build darwin || freebsd || netbsd || openbsd

package offheap

// adviseHuge does nothing where the kernel has no transparent huge pages
// to ask for.
func adviseHuge([]byte) {}
