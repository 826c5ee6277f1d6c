// Package floortest runs a package's tests with the collector's floor the
// tools run with (internal/gcfloor): many small explorations beside a
// small live heap. It is its own package so that the tools' binaries do
// not link the testing package.
package floortest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nip-rs/harness/internal/gcfloor"
)

// Main is a TestMain: the floor, then the tests. Checkpoints the tests
// write are sealed with a key of the test run's own (search.KeyEnv),
// never the user's.
func Main(m *testing.M) {
	gcfloor.Set(gcfloor.Default, 100)
	os.Exit(withTestKey(m))
}

func withTestKey(m *testing.M) int {
	if os.Getenv("HARNESS_CHECKPOINT_KEY") == "" {
		dir, err := os.MkdirTemp("", "checkpoint-key")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(dir)
		os.Setenv("HARNESS_CHECKPOINT_KEY", filepath.Join(dir, "key"))
	}
	return m.Run()
}
