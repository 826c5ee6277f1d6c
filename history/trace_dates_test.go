package history

import (
	"os"
	"testing"

	"github.com/nip-rs/harness/witnessfile"
)

// The trace gives every slot's second: with tick 2 the wraps of slots 2
// and 3 share second 2, which a picture by slot would otherwise hide.
func TestTraceGivesEachSlotsSecond(t *testing.T) {
	data, err := os.ReadFile("testdata/ties.spec.json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := witnessfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Trace(w, Spec())
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{0, 1, 2, 2, 3, 3}
	if len(v.Dates) != len(want) {
		t.Fatalf("dates %v, want %v", v.Dates, want)
	}
	for i := range want {
		if v.Dates[i] != want[i] {
			t.Errorf("slot %d at second %d, want %d", i, v.Dates[i], want[i])
		}
	}
}
