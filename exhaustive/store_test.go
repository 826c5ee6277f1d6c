package exhaustive

import (
	"path/filepath"
	"testing"
)

// WithStore sets the store a kind names and refuses what it cannot
// honour, leaving the configuration as it was.
func TestWithStore(t *testing.T) {
	dir := t.TempDir()
	base := Config{Depth: 3}
	if c, err := base.WithStore(StoreMem, "", 0); err != nil || c.StoreDir != "" || c.StoreRuns {
		t.Errorf("mem: %+v, %v", c, err)
	}
	if c, err := base.WithStore(StoreDisk, dir, 0); err != nil || c.StoreDir != dir || c.StoreRuns {
		t.Errorf("disk: %+v, %v", c, err)
	}
	if c, err := base.WithStore(StoreRuns, dir, 2); err != nil || c.StoreDir != dir || !c.StoreRuns || c.StoreMemory != 2<<20 {
		t.Errorf("runs: %+v, %v", c, err)
	}
	por := base
	por.POR = true
	for name, try := range map[string]func() (Config, error){
		"kind":         func() (Config, error) { return base.WithStore("tape", dir, 1) },
		"no dir":       func() (Config, error) { return base.WithStore(StoreDisk, filepath.Join(dir, "none"), 1) },
		"no memory":    func() (Config, error) { return base.WithStore(StoreRuns, dir, 0) },
		"runs and por": func() (Config, error) { return por.WithStore(StoreRuns, dir, 1) },
	} {
		if c, err := try(); err == nil {
			t.Errorf("%s: %+v, no error", name, c)
		}
	}
}
