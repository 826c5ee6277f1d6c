package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/search"
)

// storeOptions choose where the search keeps its stored states: -store
// mem (the default) or -store disk, whose records are files in -store-dir
// that the kernel writes out and can drop from memory (the index of the
// visited set stays in memory, 4 to 8 bytes a state), or -store runs, which
// keeps the visited set itself in sorted files in -store-dir and detects
// duplicates once per level, holding about -store-mem MiB of buffer.
// Results are the same every way.
type storeOptions struct {
	kind, dir string
	memMiB    int
}

func (s *storeOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&s.kind, "store", "mem", "where stored states live: mem; disk (records in files in -store-dir, for runs larger than memory); or runs (the visited set as sorted files in -store-dir, merged once per depth: for runs larger than memory and its index)")
	fs.StringVar(&s.dir, "store-dir", os.TempDir(), "directory for -store disk or runs (its files are unlinked at once)")
	fs.IntVar(&s.memMiB, "store-mem", search.DefaultRunsMemory>>20, "with -store runs: MiB of memory that buffers successors between sorted files")
}

// apply sets the run's store in cfg, or says why the flags cannot be
// honoured.
func (s storeOptions) apply(cfg exhaustive.Config) (exhaustive.Config, error) {
	switch s.kind {
	case "mem":
		return cfg, nil
	case "disk", "runs":
		if fi, err := os.Stat(s.dir); err != nil || !fi.IsDir() {
			return cfg, fmt.Errorf("-store-dir %q is not a directory", s.dir)
		}
		cfg.StoreDir = s.dir
		if s.kind == "runs" {
			if s.memMiB <= 0 || s.memMiB > 1<<20 {
				return cfg, fmt.Errorf("-store-mem %d: want 1 to %d MiB", s.memMiB, 1<<20)
			}
			if cfg.POR {
				return cfg, fmt.Errorf("-store runs does not support -por")
			}
			cfg.StoreRuns, cfg.StoreMemory = true, int64(s.memMiB)<<20
		}
		return cfg, nil
	}
	return cfg, fmt.Errorf("-store %q: mem, disk or runs", s.kind)
}
