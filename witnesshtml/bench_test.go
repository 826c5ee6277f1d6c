package witnesshtml

import (
	"io"
	"os"
	"testing"

	"github.com/nip-rs/harness/catalog"
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

// BenchmarkFromLassoAndWrite reads H22's walk lasso from its replay's
// rendering and writes its page (the replay itself is not timed).
func BenchmarkFromLassoAndWrite(b *testing.B) {
	data, err := os.ReadFile("../mutants/testdata/H22.clear.json")
	if err != nil {
		b.Fatal(err)
	}
	f, err := ParseLassoFile(data)
	if err != nil {
		b.Fatal(err)
	}
	text, ok, err := catalog.ReplayLasso(data, "")
	if err != nil || !ok {
		b.Fatalf("replay: %v %v", err, ok)
	}
	for b.Loop() {
		p := Page{Title: "bench", Witnesses: []Witness{FromLasso(f, f.Rules, text, true)}}
		if err := Write(io.Discard, p); err != nil {
			b.Fatal(err)
		}
	}
}
