package exhaustive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Network is the in-flight network of a universe. Publishing is a
// transition of its own: the device's canonical publication (through the
// production split when Budget is set) becomes messages in flight to every
// other device, one per coordinate part, each a snapshot that later local
// actions do not change. A message in flight can be delivered (received and
// removed), duplicated (received and kept) or dropped (removed; the sender
// publishes again later), in any order.
type Network struct {
	// Capacity bounds the messages in flight on each ordered channel. A
	// channel is a set: a second copy of a message already in flight is
	// what the duplicate transition models. A publication that would
	// overflow any of the sender's channels is not enabled until something
	// is delivered or dropped there.
	Capacity int
	// Budget, when set, publishes upgraded devices through the production
	// split (Replica.PublishSplit); nil publishes whole candidates. Legacy
	// devices always publish whole.
	Budget *model.Budget
	// FrontierOnly contexts are only ever advanced, never overridden: the
	// frontier-only group that the split deals to an additional coordinate.
	FrontierOnly []string
	// Rounds bounds the quiescence procedure's publish-and-receive rounds;
	// not reaching a fixpoint within it is a violation.
	Rounds int
	// SymDevices and SymContexts are interchangeable devices and contexts;
	// with symmetry reduction on, a state is stored as the least image of
	// its orbit under every permutation of each set.
	SymDevices  []int
	SymContexts []string
	// Rotate enables the client-id rotation transition.
	Rotate bool
}

// NetworkUniverse is the in-flight network with split publications: two
// upgraded devices and one production-faithful legacy device (it carries
// ov_* keys through its rewrite cycle), override contexts c0 and c1, the
// frontier-only spill context, frontier values 10 and 20, at most two
// messages in flight per channel, checks at every state.
func NetworkUniverse() Universe {
	ctxs := []string{"c0", "c1"}
	spill, b := splitBudget(ctxs, "d0")
	return Universe{
		Name: "network",
		Doc:  "in-flight network, split publications: 2 upgraded + 1 legacy (carries ov_*), c0/c1 + spill, values 10/20, 2 messages per channel",
		Devices: []DeviceSpec{
			{ClientID: "d0"},
			{ClientID: "d1"},
			{ClientID: "d2", Legacy: true, LegacyMode: model.LegacyCarry},
		},
		Contexts: append(slices.Clone(ctxs), spill),
		Values:   []uint32{10, 20},
		Depth:    networkDepth,
		Network: &Network{Capacity: 2, Budget: &b, FrontierOnly: []string{spill}, Rounds: 4,
			SymDevices: []int{0, 1}, SymContexts: ctxs, Rotate: true},
	}
}

// NetworkWholeUniverse is the in-flight network with whole publications
// (no split, no spill context), which the search can take deeper.
func NetworkWholeUniverse() Universe {
	ctxs := []string{"c0", "c1"}
	return Universe{
		Name: "network-whole",
		Doc:  "in-flight network, whole publications: 2 upgraded + 1 legacy (carries ov_*), c0/c1, values 10/20, 2 messages per channel",
		Devices: []DeviceSpec{
			{ClientID: "d0"},
			{ClientID: "d1"},
			{ClientID: "d2", Legacy: true, LegacyMode: model.LegacyCarry},
		},
		Contexts: slices.Clone(ctxs),
		Values:   []uint32{10, 20},
		Depth:    networkWholeDepth,
		Network: &Network{Capacity: 2, FrontierOnly: nil, Rounds: 4,
			SymDevices: []int{0, 1}, SymContexts: ctxs, Rotate: true},
	}
}

// The default depth bounds (NOTE.md, "Network universes").
const (
	networkDepth      = 6
	networkWholeDepth = 6
)

// splitBudget names the spill context and sets a plaintext budget under
// which the production split really splits the universe's publications
// while never refusing one: the primary has room for every override context
// live with two-digit counters and its frontier entry (so c0 and c1 never
// compete for room and stay interchangeable), and the spill context's
// frontier entry fits beside nothing more than two frontier entries, so it
// goes to an additional coordinate as soon as an override group is
// published. The spill context's name is long for that reason; it sorts
// after the override contexts, so the next-fit deal meets it last.
func splitBudget(ctxs []string, clientID string) (string, model.Budget) {
	empty := model.Blob{V: 1, ClientID: clientID}
	room := func(es []model.Entry) int {
		return model.EncodedSize(model.Blob{V: 1, ClientID: clientID, Contexts: model.SortEntries(es)}) - model.EncodedSize(empty) + 1
	}
	var full, fronts []model.Entry
	for _, c := range ctxs {
		full = append(full, model.Entry{Key: model.EscapeKey(c), Value: 20},
			model.Entry{Key: model.OverrideKey(model.KeyS, c), Value: 99},
			model.Entry{Key: model.OverrideKey(model.KeyC, c), Value: 99},
			model.Entry{Key: model.OverrideKey(model.KeyB, c), Value: 20})
		fronts = append(fronts, model.Entry{Key: model.EscapeKey(c), Value: 20})
	}
	perBlob := room(full)
	spill := "spill-"
	if n := perBlob - room(fronts) - room([]model.Entry{{Key: spill, Value: 20}}); n > 0 {
		spill += strings.Repeat("x", n)
	}
	return spill, model.Budget{PlaintextBytes: perBlob + model.EncodedSize(empty) - 1, MaxCoordinates: 2}
}

// frontierOnly reports whether ctx is a frontier-only context.
func (u *Universe) frontierOnly(ctx string) bool {
	return u.Network != nil && slices.Contains(u.Network.FrontierOnly, ctx)
}

// reinstallID is the client id a reinstall gives: a network universe keeps
// its length (the split measures blobs, so a longer id would change
// behaviour that the state key no longer records) and alternates its first
// letter between d and r.
func (u *Universe) reinstallID(id string) string {
	if u.Network == nil {
		return id + "_r"
	}
	if strings.HasPrefix(id, "d") {
		return "r" + id[1:]
	}
	return "d" + strings.TrimPrefix(id, "r")
}

// validateNetwork reports a network universe that cannot be explored.
func (u *Universe) validateNetwork() error {
	n := u.Network
	switch {
	case n.Capacity < 1 || n.Capacity > 8:
		return fmt.Errorf("universe %q: channel capacity %d (want 1 to 8)", u.Name, n.Capacity)
	case n.Rounds < 1:
		return fmt.Errorf("universe %q: quiescence needs at least one round", u.Name)
	case len(u.Devices) < 2:
		return fmt.Errorf("universe %q: a network needs two devices", u.Name)
	}
	for _, c := range n.FrontierOnly {
		if !slices.Contains(u.Contexts, c) {
			return fmt.Errorf("universe %q: frontier-only context %q is not a context", u.Name, c)
		}
	}
	ids := map[int]bool{}
	for _, d := range u.Devices {
		ids[len(d.ClientID)] = true
	}
	if len(ids) != 1 {
		return fmt.Errorf("universe %q: client ids must have one length (they are not part of the state)", u.Name)
	}
	for _, d := range n.SymDevices {
		if d < 0 || d >= len(u.Devices) || u.Devices[d].Legacy != u.Devices[n.SymDevices[0]].Legacy ||
			u.Devices[d].Rules != nil {
			return fmt.Errorf("universe %q: device %d is not interchangeable", u.Name, d)
		}
	}
	for _, c := range n.SymContexts {
		if !slices.Contains(u.Contexts, c) || slices.Contains(n.FrontierOnly, c) || len(c) != len(n.SymContexts[0]) {
			return fmt.Errorf("universe %q: context %q is not interchangeable", u.Name, c)
		}
	}
	return nil
}
