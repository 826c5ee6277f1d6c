package directed

import (
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// splitGrouped splits a publication into n slot blobs. Grouping is the
// production rule: every wire key joins the group rules.Slots.GroupOf names
// for its classification by rules.GroupKey (override keys by their raw
// suffix, frontier keys unescaped: Override Group Co-Location Rule,
// unescape-before-group). Dealing is the formal note's model: groups sorted
// by key go round-robin to the n slots, each slot copying v and client_id.
//
// This is the only slot split of the directed checks. Round-robin dealing places
// override groups in any slot, a superset of the arrangements the
// production assignment (Rules.Slots.Assign, override groups pinned to the
// primary) permits, so a grouping fault shows here even where
// model.SplitBlob would keep the whole group in the primary. Replace the
// dealing by model.SplitBlob when the checks should follow production
// placement exactly.
func splitGrouped(rules *model.Rules, b model.Blob, n int) []model.Blob {
	groups := map[string][]model.Entry{}
	for _, e := range b.Contexts {
		kind, raw := rules.GroupKey(e.Key)
		id := rules.Slots.GroupOf(e.Key, kind, raw)
		groups[id] = append(groups[id], e)
	}
	ids := make([]string, 0, len(groups))
	for id := range groups {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, strings.Compare)
	out := make([]model.Blob, n)
	for i := range out {
		out[i] = model.Blob{V: b.V, ClientID: b.ClientID}
	}
	for i, id := range ids {
		s := &out[i%n]
		s.Contexts = append(s.Contexts, groups[id]...)
	}
	for i := range out {
		out[i].Contexts = model.SortEntries(out[i].Contexts)
	}
	return out
}
