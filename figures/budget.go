package figures

import (
	"errors"
	"fmt"
	"sync"

	"github.com/nip-rs/harness/model"
)

// A shape is one form of override group the coordinate tables count.
type shape struct {
	name    string
	entries func(ctx string) []model.Entry
}

var (
	shapeNote     = shape{"live groups at the note's counters (1, 0, 10)", func(c string) []model.Entry { return live(c, 1, 0, 10) }}
	shapeMax      = shape{"live groups at the uint32 maximum", func(c string) []model.Entry { return live(c, model.MaxU32, model.MaxU32-1, model.MaxU32) }}
	shapeMaxFront = shape{"live groups at the maximum with their frontier entry", func(c string) []model.Entry {
		return append(shapeMax.entries(c), model.Entry{Key: c, Value: 1700000000})
	}}
	shapeFloorMax   = shape{"floors at the uint32 maximum", func(c string) []model.Entry { return floor(c, model.MaxU32) }}
	shapeFloorDigit = shape{"floors with a one-digit counter", func(c string) []model.Entry { return floor(c, 1) }}
)

// groups is count groups of shape s on distinct ids of kind k.
func groups(k contextKind, count int, s shape) []model.Entry {
	var es []model.Entry
	for i := range count {
		es = append(es, s.entries(k.nth(i))...)
	}
	return es
}

// splitOf is the production split of the groups and other entries under
// DefaultBudget.
func splitOf(es, other []model.Entry) (model.SplitPlan, error) {
	all := append(append([]model.Entry(nil), es...), other...)
	return model.SplitBlob(model.Proposed(), model.Blob{V: 1, ClientID: clientID, Contexts: model.SortEntries(all)}, model.DefaultBudget(), nil)
}

// ceilings memoises ceiling: each is a dozen splits, and the tables ask
// for some twice.
var ceilings struct {
	sync.Mutex
	m map[string]int
}

// ceiling is the largest number of groups of shape s the primary holds.
func ceiling(k contextKind, s shape) int {
	key := k.name + "|" + s.name
	ceilings.Lock()
	v, ok := ceilings.m[key]
	ceilings.Unlock()
	if ok {
		return v
	}
	v = search(k, s)
	ceilings.Lock()
	if ceilings.m == nil {
		ceilings.m = map[string]int{}
	}
	ceilings.m[key] = v
	ceilings.Unlock()
	return v
}

// search is ceiling by bisection over the production split.
func search(k contextKind, s shape) int {
	lo, hi := 0, 4096
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if _, err := splitOf(groups(k, mid, s), nil); err == nil {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// Ceilings is how many override groups the primary coordinate holds, per
// shape and context kind: the figures the project pins ("Slots, events and
// identity") are the channel column.
func Ceilings() Table {
	t := Table{
		Title: "Coordinate ceilings",
		Intro: "The largest number of override groups the primary holds under `DefaultBudget` (`SplitBlob` refuses one more with `ErrOverrideBudget`), client_id `" + clientID + "`.",
		Head:  []string{"groups", "channel (UUID)", "message", "thread", "the spec (channel)"},
	}
	spec := map[string]string{
		shapeMax.name:        fmt.Sprintf("~199 (%s / 164)", n(model.PlaintextBudget)),
		shapeFloorMax.name:   fmt.Sprintf("~600 (%s / 54)", n(model.PlaintextBudget)),
		shapeFloorDigit.name: fmt.Sprintf("~730 (%s / 45)", n(model.PlaintextBudget)),
	}
	for _, s := range []shape{shapeNote, shapeMax, shapeMaxFront, shapeFloorMax, shapeFloorDigit} {
		row := []string{s.name}
		for _, k := range kinds() {
			row = append(row, n(ceiling(k, s)))
		}
		sp := spec[s.name]
		if sp == "" {
			sp = "—"
		}
		t.Rows = append(t.Rows, append(row, sp))
	}
	ch := kinds()[0].example
	t.Notes = []string{
		fmt.Sprintf("The channel column's %s, %s, %s and %s are the ceilings the production budget's own test pins (model/testdata/figures; same ids, client_id and budget); the note's trim table stops at %s groups, well below them.",
			n(ceiling(kinds()[0], shapeMax)), n(ceiling(kinds()[0], shapeMaxFront)), n(ceiling(kinds()[0], shapeFloorMax)), n(ceiling(kinds()[0], shapeFloorDigit)), n(trimRows[2].count)),
		fmt.Sprintf("The spec divides the budget by a group's bytes; a coordinate also holds the envelope (%s bytes here) and a comma per entry, so the computed ceilings are a few percent lower.", n(size(nil))),
		fmt.Sprintf("The note's cap of 100 overrides is well inside every column: 100 live channel groups are %s bytes in a blob, 100 thread groups %s.",
			n(size(groups(kinds()[0], 100, shapeNote))-size(nil)), n(size(groups(kinds()[2], 100, shapeNote))-size(nil))),
		fmt.Sprintf("A floor is %s bytes in a blob for a channel (%s alone, the note's ~45).", n(inBlob(floor(ch, 3))), n(alone(floor(ch, 3)))),
	}
	return t
}

// trimRows are the note's legacy trim table: overridden contexts, kind,
// and its live bytes, with-frontiers bytes and verdict.
var trimRows = []struct {
	count int
	kind  int // index into kinds()
	note  string
}{
	{50, 0, "~6.9 KiB / ~16.9 KiB / yes"},
	{100, 0, "~13.8 KiB / ~23.8 KiB / yes"},
	{150, 0, "~20.7 KiB / ~30.7 KiB / marginal"},
	{50, 1, "~11.9 KiB / ~21.9 KiB / yes"},
	{100, 1, "~23.7 KiB / ~33.7 KiB / **no**"},
}

// frontierFill is about 10 KiB of msg: frontier entries (the kind a legacy
// trim may evict), on ids disjoint from the overridden ones.
func frontierFill() []model.Entry {
	var es []model.Entry
	for i := 0; ; i++ {
		next := append(es, model.Entry{Key: fmt.Sprintf("msg:%064x", 1<<40+i), Value: 1700000000})
		if alone(next) > 10*1024 {
			return es
		}
		es = next
	}
}

// Trim is the note's legacy trim table, computed for one blob, for a
// legacy client's trim, and for the production split.
func Trim() Table {
	fill := frontierFill()
	t := Table{
		Title: "Legacy trim and the 32 KiB budget",
		Intro: fmt.Sprintf("Live groups at the note's counters, beside %s bytes of `msg:` frontier entries (%s entries at 1700000000). One blob is what the note measured; a legacy client trims with `LegacyTrim` (only `msg:`/`thread:` entries go); the production split (`SplitBlob`, `DefaultBudget`) keeps every group in the primary and deals frontier-only entries to additional coordinates.",
			n(alone(fill)), n(len(fill))),
		Head: []string{"overridden", "context", "the note: live / with frontiers / fits", "live bytes", "one blob", "legacy trim", "production split"},
	}
	for _, r := range trimRows {
		k := kinds()[r.kind]
		gs := groups(k, r.count, shapeNote)
		whole := size(append(append([]model.Entry(nil), gs...), fill...))
		one := n(whole) + " (fits)"
		if whole > model.PlaintextBudget {
			one = n(whole) + " (over)"
		}
		trimmed, fits := model.LegacyTrim(clientID, append(append([]model.Entry(nil), gs...), fill...), model.PlaintextBudget)
		legacy := "fits"
		if ev := len(gs) + len(fill) - len(trimmed); ev > 0 {
			legacy = fmt.Sprintf("fits after evicting %s entries", n(ev))
		}
		if !fits {
			legacy = "cannot fit"
		}
		t.Rows = append(t.Rows, []string{n(r.count), k.name, r.note, n(size(gs) - size(nil)), one, legacy, splitResult(gs, fill)})
	}
	t.Notes = []string{
		fmt.Sprintf("The note's KiB are thousands of bytes (50 × 138 = 6,900 is its ~6.9 KiB); here every figure is bytes, commas included (%s a channel group, %s a message group in a blob). Its message rows (~11.9, ~23.7) take about 237 bytes a group, a few more than its own 234.",
			n(inBlob(live(kinds()[0].example, 1, 0, 10))), n(inBlob(live(kinds()[1].example, 1, 0, 10)))),
		"The note's verdicts are for one blob with nothing evicted and ignore atomic groups and additional coordinates: its \"no\" row fits both after a legacy trim (frontier entries go, `ov_*` never) and under the production split, which moves frontier-only entries out of the primary and leaves every group there whole.",
	}
	return t
}

// splitResult describes the production split of groups and frontier fill.
func splitResult(gs, fill []model.Entry) string {
	sp, err := splitOf(gs, fill)
	switch {
	case errors.Is(err, model.ErrOverrideBudget):
		return "refused: the groups outgrow the primary"
	case err != nil:
		return "error: " + err.Error()
	}
	return fmt.Sprintf("primary %s bytes, %s, %s evicted", n(model.EncodedSize(sp.Blobs[0])), plural(len(sp.Blobs), "coordinate"), n(len(sp.Evicted)))
}

// keysPerContext is how many keys a replica publishes for a context whose
// register is live, dead and virgin: the note's I8.
func keysPerContext() (liveKeys, deadKeys, virginKeys int) {
	count := func(setup func(r *model.Replica)) int {
		r := model.NewReplica(clientID)
		setup(r)
		return len(r.Candidate().Contexts) - 1 // the frontier entry
	}
	liveKeys = count(func(r *model.Replica) { r.Advance("c", 10); _ = r.MarkUnread("c") })
	deadKeys = count(func(r *model.Replica) { r.Advance("c", 10); _ = r.MarkUnread("c"); _ = r.MarkRead("c", 20) })
	virginKeys = count(func(r *model.Replica) { r.Advance("c", 10) })
	return
}

// Tombstones is the note's GC and tombstone cost, and its bounded key
// growth (I8) from what a replica publishes.
func Tombstones() Table {
	ch := kinds()[0]
	l, d, v := keysPerContext()
	liveHundred := size(groups(ch, 100, shapeNote)) - size(nil)
	floorHundred := size(groups(ch, 100, shape{"", func(c string) []model.Entry { return floor(c, 3) }})) - size(nil)
	return Table{
		Title: "Tombstones and key growth",
		Head:  []string{"figure", "computed", "the note"},
		Rows: [][]string{
			{"keys a replica publishes per context: live / dead / virgin", fmt.Sprintf("%d / %d / %d", l, d, v), "3 / 1 / 0"},
			{"a channel floor, kept for ever", n(alone(floor(ch.example, 3))) + " bytes alone, " + n(inBlob(floor(ch.example, 3))) + " in a blob", "~45 bytes"},
			{"100 channel overrides, live", n(liveHundred) + " bytes", "under ~14 KiB"},
			{"100 channel overrides, all floors", n(floorHundred) + " bytes", "~4.5 KiB (100 × 45)"},
		},
		Notes: []string{"The note's ~4.5 KiB counts 45 bytes a floor without commas; in a blob each floor pays one more."},
	}
}

// plural is "1 coordinate", "2 coordinates".
func plural(v int, word string) string {
	if v == 1 {
		return "1 " + word
	}
	return n(v) + " " + word + "s"
}
