package main

import (
	"flag"
	"os"

	"github.com/nip-rs/harness/search"
)

// storeOptions choose where the search keeps its stored states
// (exhaustive.Config.WithStore): -store mem, disk or runs, the files in
// -store-dir, runs buffering -store-mem MiB.
type storeOptions struct {
	kind, dir string
	memMiB    int
}

func (s *storeOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&s.kind, "store", "mem", "where stored states live: mem; disk (records in files in -store-dir, for runs larger than memory); or runs (the visited set as sorted files in -store-dir, merged once per depth: for runs larger than memory and its index)")
	fs.StringVar(&s.dir, "store-dir", os.TempDir(), "directory for -store disk or runs (its files are unlinked at once)")
	fs.IntVar(&s.memMiB, "store-mem", search.DefaultRunsMemory>>20, "with -store runs: MiB of memory that buffers successors between sorted files")
}
