package exhaustive

import (
	"fmt"
	"os"
)

// Store kinds: where a search keeps its stored states. StoreMem (the
// default) holds them in memory; StoreDisk keeps their records in files
// the kernel writes out and can drop from memory (the index of the
// visited set stays in memory, 4 to 8 bytes a state); StoreRuns keeps the
// visited set itself in sorted files and detects duplicates once per
// level. Results are the same every way.
const (
	StoreMem  = "mem"
	StoreDisk = "disk"
	StoreRuns = "runs"
)

// WithStore is cfg with its states stored the way kind names, in files
// under dir for StoreDisk and StoreRuns, the latter buffering successors
// in memMiB MiB; or the reason the choice cannot be honoured (the errors
// name the explorer's flags).
func (cfg Config) WithStore(kind, dir string, memMiB int) (Config, error) {
	switch kind {
	case StoreMem:
		return cfg, nil
	case StoreDisk, StoreRuns:
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return cfg, fmt.Errorf("-store-dir %q is not a directory", dir)
		}
		cfg.StoreDir = dir
		if kind == StoreRuns {
			if memMiB <= 0 || memMiB > 1<<20 {
				return cfg, fmt.Errorf("-store-mem %d: want 1 to %d MiB", memMiB, 1<<20)
			}
			if cfg.POR {
				return cfg, fmt.Errorf("-store runs does not support -por")
			}
			cfg.StoreRuns, cfg.StoreMemory = true, int64(memMiB)<<20
		}
		return cfg, nil
	}
	return cfg, fmt.Errorf("-store %q: mem, disk or runs", kind)
}
