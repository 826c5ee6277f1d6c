//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package search

// mapBlock falls back to the Go heap where anonymous mappings are not
// available; the store behaves the same, only its memory is counted by the
// garbage collector.
func mapBlock(n int) []byte { return make([]byte, n) }

func unmapBlock([]byte) {}

// mapFile keeps the records in the Go heap where files cannot be mapped.
func mapFile(_ string, n int) []byte { return make([]byte, n) }
