package relaycheck_test

import (
	"testing"

	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
)

// BenchmarkProbeKhatru: one probe run (default trial cap and stopping rule) against khatru
// over slicestore on loopback (NOTE.md, "Real relays").
func BenchmarkProbeKhatru(b *testing.B) {
	r := startKhatru(b, khatrutest.Options{MaxLimit: 10})
	b.ReportAllocs()
	for range b.N {
		probe(b, r.URL, 0)
	}
}
