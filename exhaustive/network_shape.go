package exhaustive

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
)

// canonicalShape is the N7 check of one publication (Mandatory Canonical
// Publication): every override group an upgraded device publishes is the
// canonical form of its register at its own effective frontier, decided by
// the harness rather than by the rule set's Canonical: a live register as
// its exact three keys, a dead one as the lone floor ov_c = max(S, C), a
// virgin one not at all. Liveness is the device's own rules' (a broken
// liveness rule is other checks' business), the frontier the hierarchy
// rule's. It returns "" when every group is canonical.
func (w *netWorld) canonicalShape(dev int, r *model.Replica, parts []model.Blob) string {
	if r.Legacy {
		return ""
	}
	for _, ctx := range w.ov {
		reg := r.Reg(ctx)
		f := r.Effective(ctx)
		var want []model.Entry
		switch {
		case reg.Virgin():
		case r.Rules.IsLive(reg, f):
			want = []model.Entry{{Key: model.OverrideKey(model.KeyB, ctx), Value: reg.B},
				{Key: model.OverrideKey(model.KeyC, ctx), Value: reg.C}, {Key: model.OverrideKey(model.KeyS, ctx), Value: reg.S}}
		default:
			want = []model.Entry{{Key: model.OverrideKey(model.KeyC, ctx), Value: reg.Ceiling()}}
		}
		var got []model.Entry
		for _, b := range parts {
			for _, en := range b.Contexts {
				if en.Key == model.OverrideKey(model.KeyS, ctx) || en.Key == model.OverrideKey(model.KeyC, ctx) ||
					en.Key == model.OverrideKey(model.KeyB, ctx) {
					got = append(got, en)
				}
			}
		}
		got = model.SortEntries(got)
		want = model.SortEntries(want)
		if !slices.Equal(got, want) {
			return fmt.Sprintf("d%d publishes %s register %v at effective frontier %d as %v, want %v",
				dev, ctx, reg, f, got, want)
		}
	}
	return ""
}
