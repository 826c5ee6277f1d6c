package witnesshtml

import (
	"io"
	"testing"
)

// BenchmarkWrite renders a page of one four-step witness.
func BenchmarkWrite(b *testing.B) {
	w := trace(b)
	p := Page{Title: "bench", Witnesses: []Witness{w}}
	for b.Loop() {
		if err := Write(io.Discard, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteLoad renders a page of one fourteen-row load witness and
// one directed witness.
func BenchmarkWriteLoad(b *testing.B) {
	p := Page{Title: "bench", Witnesses: []Witness{loadTrace(b), directedTrace(b)}}
	for b.Loop() {
		if err := Write(io.Discard, p); err != nil {
			b.Fatal(err)
		}
	}
}
