package history

import (
	"fmt"
	"testing"
)

func TestTmp2(t *testing.T) {
	st := NewMemoryStore()
	st.Add(Event{"w2", 2})
	st.Add(Event{"w3", 3})
	r, _ := NewRound(DefaultUniverse().Round, Spec(), Cursor{HasNewest: true, NewestMs: 3, HasOldest: true, OldestMs: 3}, CatchUp, 2, st)
	rs := []*Relay{{Events: []Event{{"w2", 2}, {"w3", 3}}}, {Mode: Refuses}}
	c, p := Drive(r, rs, nil)
	fmt.Println(c, p)
}
