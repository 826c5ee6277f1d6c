package exhaustive

import (
	"strings"

	"github.com/nip-rs/harness/model"
)

// The hierarchy universe's contexts: a channel and two children whose
// parent is that channel, resolved through the universe's
// model.ParentResolver as a client resolves them from the event graph
// (Read Context Schemes, Hierarchical Frontier Rule).
var (
	hierChannel = "chan"
	hierThread  = model.ThreadPrefix + strings.Repeat("a", 64)
	hierMsg     = model.MsgPrefix + strings.Repeat("b", 64)
)

// hierarchyParent resolves both children to the channel and nothing else.
func hierarchyParent(raw string) (string, bool) {
	if raw == hierThread || raw == hierMsg {
		return hierChannel, true
	}
	return "", false
}

// HierarchyUniverse is the in-flight network over a channel and its
// children: a thread:<hex64> and a msg:<hex64> context whose parent is the
// channel. The channel is only ever read (advancing it is marking the
// channel read to its newest top-level message, which the values 10 and 20
// stand for); the children are marked read and unread, and their own
// frontiers reach 30, a reply newer than anything on the channel. A child
// marked unread under a channel read past its own value must be based at
// the channel's frontier, and a child whose own value the channel passes is
// dominated: the production split evicts it (its frontier entry and, when
// dead, its register) and the re-publish decision does not write for it
// alone. Two upgraded devices and one production-faithful legacy device,
// two messages per channel, checks at every state.
func HierarchyUniverse() Universe {
	devs := []DeviceSpec{
		{ClientID: "d0", Parent: hierarchyParent},
		{ClientID: "d1", Parent: hierarchyParent},
		{ClientID: "d2", Legacy: true, LegacyMode: model.LegacyCarry, Parent: hierarchyParent},
	}
	return Universe{
		Name:     "hierarchy",
		Doc:      "in-flight network over a channel with a thread: and a msg: child: 2 upgraded + 1 legacy, channel read to 10/20, children to 30, split publications",
		Devices:  devs,
		Contexts: []string{hierChannel, hierMsg, hierThread},
		Values:   []uint32{10, 20, 30},
		Depth:    hierarchyDepth,
		Network: &Network{Capacity: 2, Budget: &model.Budget{PlaintextBytes: 4096, MaxCoordinates: 2},
			FrontierOnly: []string{hierChannel}, Rounds: 4, SymDevices: []int{0, 1}, Rotate: false},
	}
}

// hierarchyDepth is the hierarchy universe's default depth bound (NOTE.md,
// "Hierarchy universe and simulation").
const hierarchyDepth = 4
