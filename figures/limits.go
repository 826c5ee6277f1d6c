package figures

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nip-rs/harness/model"
)

// secondsPerYear is a Julian year, the note's "at one toggle per second".
const secondsPerYear = 365.25 * 24 * 3600

// longestCommonKey is the longest override key of the shapes Buzz
// generates: ov_b: before thread:<hex64> (every prefix is 5 bytes).
func longestCommonKey() string { return model.PrefixB + kinds()[2].example }

// refusal is what mark-unread on a context id of n bytes does, from the
// replica itself.
func refusal(nb int) string {
	ctx := strings.Repeat("x", nb)
	r := model.NewReplica(clientID)
	r.Advance(ctx, 10)
	switch err := r.MarkUnread(ctx); {
	case err == nil:
		return "accepted"
	case errors.Is(err, model.ErrKeyTooLong):
		return "refused (`ErrKeyTooLong`)"
	default:
		return "error: " + err.Error()
	}
}

// received is what a receiver keeps of a live group of a context id of n
// bytes: the group or nothing.
func received(nb int) string {
	ctx := strings.Repeat("x", nb)
	d := model.Decode(model.Proposed(), model.Raw(live(ctx, 1, 0, 10)))
	if len(d.Overrides) == 1 {
		return "kept"
	}
	return "rejected whole"
}

// Headroom is the note's counter headroom and its >256-byte key hazard.
func Headroom() Table {
	key := longestCommonKey()
	counter := float64(model.MaxU32)
	years := int(counter / secondsPerYear)
	return Table{
		Title: "Counter headroom and the 256-byte key hazard",
		Head:  []string{"figure", "computed", "the note"},
		Rows: [][]string{
			{"uint32 counter maximum", n(model.MaxU32), "4,294,967,295"},
			{"years of one toggle per second", n(years), "~136"},
			{"longest common override key (`ov_b:thread:` + hex64)", n(len(key)) + " bytes", "76 bytes"},
			{"its headroom under the key limit", n(model.MaxKeyBytes-len(key)) + " bytes", "180 bytes"},
			{"longest context id whose override keys fit", n(model.MaxOverrideContextBytes) + " bytes", "the spec: up to 251 safe"},
			{"mark-unread on a 251-byte / 252-byte id", refusal(251) + " / " + refusal(252), "hazard documented, not handled"},
			{"a receiver given the group of a 251-byte / 252-byte id", received(251) + " / " + received(252), "legacy drops the key"},
		},
		Notes: []string{
			"The note leaves the hazard to documentation; here mark-unread refuses an id whose keys cannot fit (model.OverrideKeysFit), because a receiver rejects the whole group and the device alone would show the override.",
		},
	}
}

// keyRows are the note's 10,000-key table: overridden contexts and typical
// frontier keys, and its headroom column.
var keyRows = []struct {
	overridden, frontier int
	note                 string
}{{50, 500, "93.5%"}, {100, 1000, "87%"}, {500, 2000, "65%"}, {3000, 1000, "0% (limit)"}}

// KeyLimit is the note's 10,000-key table, with whether the live groups
// alone fit the primary coordinate under the production split.
func KeyLimit() Table {
	t := Table{
		Title: "The 10,000-entry limit",
		Head:  []string{"overridden contexts", "live override keys", "frontier keys", "total", "headroom", "the note", "live channel groups fit the primary"},
	}
	ch := kinds()[0]
	for _, r := range keyRows {
		total := 3*r.overridden + r.frontier
		head := strconv.FormatFloat(float64(model.MaxEntries-total)*100/float64(model.MaxEntries), 'f', -1, 64) + "%"
		fits := "yes"
		if _, err := splitOf(groups(ch, r.overridden, shapeNote), nil); err != nil {
			fits = "no"
		}
		t.Rows = append(t.Rows, []string{n(r.overridden), n(3 * r.overridden), n(r.frontier), n(total), head, r.note, fits})
	}
	c := ceiling(ch, shapeNote)
	t.Notes = []string{
		fmt.Sprintf("Key counts agree. The budget binds first: the primary holds %s live channel groups (\"Coordinate ceilings\" below), %s keys, where the entry limit would allow %s groups.",
			n(c), n(3*c), n(model.MaxEntries/3)),
	}
	return t
}
