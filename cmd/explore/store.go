package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nip-rs/harness/exhaustive"
)

// storeOptions choose where the search keeps its stored states: -store
// mem (the default) or -store disk, whose records are files in -store-dir
// that the kernel writes out and can drop from memory (the index of the
// visited set stays in memory, 4 to 8 bytes a state). Results are the same
// either way.
type storeOptions struct {
	kind, dir string
}

func (s *storeOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&s.kind, "store", "mem", "where stored states live: mem, or disk (files in -store-dir, for runs larger than memory)")
	fs.StringVar(&s.dir, "store-dir", os.TempDir(), "directory for -store disk (its files are unlinked at once)")
}

// apply sets the run's store, or says why the flags cannot be honoured.
func (s storeOptions) apply(cfg *exhaustive.Config) error {
	switch s.kind {
	case "mem":
		return nil
	case "disk":
		if fi, err := os.Stat(s.dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("-store-dir %q is not a directory", s.dir)
		}
		cfg.StoreDir = s.dir
		return nil
	}
	return fmt.Errorf("-store %q: mem or disk", s.kind)
}
