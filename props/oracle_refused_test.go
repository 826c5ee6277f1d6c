package props

import (
	"testing"

	"github.com/nip-rs/harness/model"
)

// TestQuiescentRefusedLoad: a configuration the world accepts but the
// load refuses to start with (more passes than a load runs, as a
// hand-edited witness may carry) gives the quiescent oracle nothing to
// compare and no violation, never a panic.
func TestQuiescentRefusedLoad(t *testing.T) {
	for _, passes := range []int{model.MaxLoadPasses + 1, 1 << 20} {
		w, v := Quiescent(Config{Profile: "conformant", Cap: 2, N: 2, Passes: passes}, model.Proposed(), []Step{{Op: OpPublish, I: 0, When: WhenNow}})
		if w == nil {
			t.Fatalf("passes=%d: no world (%v)", passes, v)
		}
		if v != nil && v.Check != "config" {
			t.Errorf("passes=%d: %v", passes, v)
		}
	}
}
