//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package offheap

// mapAnon falls back to the Go heap where anonymous mappings are not
// available: the tables behave the same, only the collector counts them.
func mapAnon(n int) []byte { return make([]byte, n) }

func unmap([]byte) {}

// mapFile keeps the block in the Go heap where files cannot be mapped.
func mapFile(_ string, n int) []byte { return make([]byte, n) }
