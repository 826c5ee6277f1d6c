// Package floortest runs a package's tests with the collector's floor the
// tools run with (internal/gcfloor): many small explorations beside a
// small live heap. It is its own package so that the tools' binaries do
// not link the testing package.
package floortest

import (
	"os"
	"testing"

	"github.com/nip-rs/harness/internal/gcfloor"
)

// Main is a TestMain: the floor, then the tests.
func Main(m *testing.M) {
	gcfloor.Set(gcfloor.Default, 100)
	os.Exit(m.Run())
}
