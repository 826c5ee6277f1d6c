package exhaustive

import (
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Widen returns u with extra more frontier values above its largest, each
// a step of 10 past the previous, and, when headroom is positive, every
// upgraded device starting with the tombstone floor C = 2^32-1-headroom on
// each override context: the counters of a long history, headroom actions
// below the uint32 ceiling, where mark-unread is refused and mark-read
// succeeds only if the override ends inactive (Actions). The register
// algebra's corners that cubes reach by construction are then reached by
// search. The name says what was widened.
func Widen(u Universe, extra int, headroom uint32) Universe {
	u.Values = slices.Clone(u.Values)
	last := uint32(0)
	if n := len(u.Values); n > 0 {
		last = u.Values[n-1]
	}
	for range extra {
		last += 10
		u.Values = append(u.Values, last)
	}
	if headroom > 0 {
		u.Devices = slices.Clone(u.Devices)
		floor := model.Reg{C: model.MaxU32 - headroom}
		for i := range u.Devices {
			if u.Devices[i].Legacy {
				continue
			}
			ctxs := slices.DeleteFunc(slices.Clone(u.Contexts), u.frontierOnly)
			u.Devices[i].Start = func(r *model.Replica) {
				for _, c := range ctxs {
					_ = r.Restore(c, 0, false, floor) // an upgraded replica restores any register
				}
			}
		}
	}
	return u
}

// CeilingUniverse is the in-flight network two actions below the counter
// ceiling: two upgraded devices holding the floor C = 2^32-3 on c0, whole
// publications, frontier values 10, 20 and 30, one message per channel.
func CeilingUniverse() Universe {
	u := Universe{
		Name:     "ceiling",
		Doc:      "in-flight network at the counter ceiling: 2 upgraded devices starting at floor 2^32-3 on c0, values 10/20/30, whole publications",
		Devices:  []DeviceSpec{{ClientID: "d0"}, {ClientID: "d1"}},
		Contexts: []string{"c0"},
		Values:   []uint32{10, 20},
		Depth:    ceilingDepth,
		// A reinstall would restart one device's counters far below the
		// other's history.
		NoReinstall: true,
		// The initial floor is d0's clear (startKnow), so the devices are
		// not interchangeable.
		Network: &Network{Capacity: 1, Rounds: 4},
	}
	return Widen(u, 1, 2)
}

// ceilingDepth is the ceiling universe's default depth bound (NOTE.md,
// "Pinned figures", pins its state count at it).
const ceilingDepth = 5

// startKnow is device d's initial intent knowledge. Where devices start
// with a history (Widen's floor), that history is one clear by d0 on every
// override context, known to every device: the floor is what it left, and
// an action after a reinstall is then concurrent with it, not unexplained.
func (w *netWorld) startKnow(d int) int32 {
	seq, ac := make([]uint8, len(w.ov)), w.emptyACs()
	if slices.ContainsFunc(w.u.Devices, func(s DeviceSpec) bool { return s.Start != nil }) {
		for i := range w.ov {
			ac[i] = w.t.internAC(antichain{{dev: 0, seq: 1, kind: intentClear, past: antichain(nil).clock(w.n)}})
			if d == 0 {
				seq[i] = 1
			}
		}
	}
	return w.t.internKnow(know{seq: seq, ac: ac})
}

// WithLongContext returns u with one more override context after its own:
// an id of model.MaxOverrideContextBytes+1 (252) bytes, the shortest whose
// ov_* keys exceed the 256-byte key limit while its frontier key still
// fits. Mark-unread there is refused (Rules.OverrideKeysFit); without the
// refusal the device would show an override that every peer rejects with
// the group, which N8 sees at once.
func WithLongContext(u Universe) Universe {
	u.Contexts = append(slices.Clone(u.Contexts), LongContext)
	return u
}

// LongContext is WithLongContext's context id: "long-" and x to 252 bytes.
var LongContext = "long-" + strings.Repeat("x", model.MaxOverrideContextBytes+1-len("long-"))

// LongIDUniverse is the in-flight network over a normal context and the
// 252-byte one: two interchangeable upgraded devices, c0 and LongContext,
// frontier values 10 and 20, whole publications, one message per channel.
func LongIDUniverse() Universe {
	u := Universe{
		Name:     "long-id",
		Doc:      "in-flight network with a 252-byte context id beside c0: 2 upgraded devices, values 10/20, whole publications, 1 message per channel",
		Devices:  []DeviceSpec{{ClientID: "d0"}, {ClientID: "d1"}},
		Contexts: []string{"c0"},
		Values:   []uint32{10, 20},
		Depth:    longIDDepth,
		Network:  &Network{Capacity: 1, Rounds: 4, SymDevices: []int{0, 1}},
	}
	return WithLongContext(u)
}

// longIDDepth is the long-id universe's default depth bound (NOTE.md,
// "Long context ids").
const longIDDepth = 5
