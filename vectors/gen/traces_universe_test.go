package gen

import (
	"slices"
	"strings"
	"testing"
)

// TestUniverseWalkClasses: the kept walks of each universe reach every
// class that universe can reach: each action kind, and each delivery
// class of the network universes.
func TestUniverseWalkClasses(t *testing.T) {
	want := map[string][]string{
		"reference":     {"action:mark_unread", "action:mark_read", "action:advance", "action:compact", "action:deliver", "tombstone-meets-live"},
		"network-whole": {"action:publish", "action:deliver", "action:duplicate", "action:drop", "delivery:reordered", "delivery:stale", "delivery:duplicate", "legacy-publishes-override", "stale-after-compaction"},
		"network":       {"action:publish", "split-publication", "delivery:split-half-way", "delivery:reordered", "delivery:stale"},
		"hierarchy":     {"action:mark_unread", "action:mark_read", "action:publish", "action:deliver", "delivery:reordered"},
	}
	got := map[string]string{}
	for _, c := range universeTraceCases() {
		for _, u := range universeShapes {
			if strings.HasPrefix(c.ID, "traces/universe-"+u.name+"-") {
				got[u.name] += " " + c.Description
			}
		}
	}
	for u, classes := range want {
		for _, c := range classes {
			if !strings.Contains(got[u], c) {
				t.Errorf("no %s walk reaches %s", u, c)
			}
		}
	}
}

// TestWitnessTraces: every stored explorer witness over the reference,
// network and hierarchy universes becomes a trace; the others (the
// ceiling universe, whose widened starting history the trace format does
// not carry) are the ones skipped.
func TestWitnessTraces(t *testing.T) {
	cs, skipped, err := witnessTraceCases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 4 {
		t.Errorf("%d witness traces", len(cs))
	}
	for _, s := range skipped {
		if !strings.Contains(s, "universe ceiling") {
			t.Errorf("skipped %s", s)
		}
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	for _, id := range []string{"traces/witness-M1.clear.explore", "traces/witness-M6.clear.explore", "traces/witness-M29.clear", "traces/witness-M30.clear"} {
		if !slices.Contains(ids, id) {
			t.Errorf("no trace %s", id)
		}
	}
}
