package exhaustive

import (
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// splitGrouped splits a publication into n slot blobs as the formal note's
// model does: every wire key is grouped under the logical context that
// rules.GroupKey names (override keys by their raw suffix, frontier keys
// unescaped: Override Group Co-Location Rule, unescape-before-group), the
// groups are sorted by logical id and dealt round-robin, and every slot
// copies v and client_id.
//
// This is the only slot split in exhaustive/. It is to be replaced by the
// production split (model.Rules.Slots, model/slots.go) once that exists;
// the production split additionally pins every override-bearing group to
// the primary coordinate, which the directed checks here also accept.
func splitGrouped(rules *model.Rules, b model.Blob, n int) []model.Blob {
	groups := map[string][]model.Entry{}
	for _, e := range b.Contexts {
		_, id := rules.GroupKey(e.Key)
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
