package directed

import (
	"fmt"

	"github.com/nip-rs/harness/model"
)

// Fixtures of the directed checks: replicas built in an exact state, and
// blobs as stale peers or published tombstones carry them.

// fresh is a new upgraded replica deciding through rules (under their tie).
func fresh(rules *model.Rules, id string) *model.Replica {
	r := model.NewReplica(id)
	r.Rules = rules
	return r
}

// markedUnread is a fresh replica that read ctx to 10 and then marked it
// unread (the live register (1, 0, 10)), through the rules under test.
func markedUnread(rules *model.Rules, id, ctx string) *model.Replica {
	r := fresh(rules, id)
	r.Advance(ctx, 10)
	_ = r.MarkUnread(ctx)
	return r
}

// holding is a replica whose context ctx has frontier f and register reg.
func holding(rules *model.Rules, id, ctx string, f uint32, reg model.Reg) *model.Replica {
	r := fresh(rules, id)
	_ = r.Restore(ctx, f, true, reg) // an upgraded replica accepts any register
	return r
}

// tripleBlob carries reg raw as the three sibling keys and nothing else, as
// a stale snapshot taken before canonical publication does.
func tripleBlob(ctx string, reg model.Reg) model.Blob {
	return model.Blob{V: 1, ClientID: "stale", Contexts: model.SortEntries([]model.Entry{
		{Key: model.OverrideKey(model.KeyS, ctx), Value: reg.S},
		{Key: model.OverrideKey(model.KeyC, ctx), Value: reg.C},
		{Key: model.OverrideKey(model.KeyB, ctx), Value: reg.B},
	})}
}

// floorBlob carries a lone tombstone floor ov_c:ctx = k.
func floorBlob(ctx string, k uint32) model.Blob {
	return model.Blob{V: 1, ClientID: "floor", Contexts: []model.Entry{{Key: model.OverrideKey(model.KeyC, ctx), Value: k}}}
}

// snapshot is what a check compares of a replica on one context.
type snapshot struct {
	F    uint32
	HasF bool
	Reg  model.Reg
	Live bool
}

func snap(r *model.Replica, ctx string) snapshot {
	return snapshot{r.Frontier(ctx), r.HasFrontier(ctx), r.Reg(ctx), r.Live(ctx)}
}

func (s snapshot) String() string {
	return fmt.Sprintf("f=%d reg=%v %s", s.F, s.Reg, verdict(s.Live))
}

// receiveAll delivers blobs to a fresh replica in order.
func receiveAll(rules *model.Rules, id string, blobs ...model.Blob) *model.Replica {
	r := fresh(rules, id)
	for _, b := range blobs {
		r.Receive(b)
	}
	return r
}

// enum builds a point coordinate list 0..n-1.
func seq(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// product enumerates the cartesian product of per-parameter value lists,
// the last parameter varying fastest.
func product(dims ...[]int32) []Point {
	out := []Point{{}}
	for _, d := range dims {
		var next []Point
		for _, p := range out {
			for _, v := range d {
				q := append(append(Point{}, p...), v)
				next = append(next, q)
			}
		}
		out = next
	}
	return out
}

func vals(v ...int32) []int32 { return v }

func verdict(live bool) string {
	if live {
		return "live"
	}
	return "dead"
}
