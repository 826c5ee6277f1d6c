package search

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain seals the checkpoints the tests write with a key of the run's
// own (KeyEnv), never the user's.
func TestMain(m *testing.M) {
	if os.Getenv(KeyEnv) == "" {
		dir, err := os.MkdirTemp("", "checkpoint-key")
		if err != nil {
			panic(err)
		}
		os.Setenv(KeyEnv, filepath.Join(dir, "key"))
		code := m.Run()
		os.RemoveAll(dir)
		os.Exit(code)
	}
	os.Exit(m.Run())
}
