package exhaustive

import (
	"os"
	"testing"

	"github.com/nip-rs/harness/internal/gcfloor"
)

// The tests run with the collector's floor the tools run with: many small
// explorations beside a small live heap (internal/gcfloor).
func TestMain(m *testing.M) {
	gcfloor.Set(gcfloor.Default, 100)
	os.Exit(m.Run())
}
