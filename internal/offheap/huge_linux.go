package offheap

import "golang.org/x/sys/unix"

// adviseHuge asks for b to be backed by transparent huge pages. It is
// only advice: a kernel that ignores or refuses it changes nothing.
func adviseHuge(b []byte) { _ = unix.Madvise(b, unix.MADV_HUGEPAGE) }
