// Package shortrun is how a test honours -short, the quick gate `make
// test` runs: a test whose point is a full-size run (a whole suite, a
// gate's golden file, a relay probe at its stated confidence, every peer)
// skips under -short, naming the target that runs it in full, and a test
// that scales runs a smaller size and says which. `make test-full` runs
// every test at its full size, and CI runs it after `make test`, so
// nothing -short leaves out goes unchecked there.
//
// Every test goes through this package rather than testing.Short itself
// (TestEveryShortPathNamesTheFullRun holds it), so a reader of any
// skipped or shrunk test is told where its full run is.
package shortrun
