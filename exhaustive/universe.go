package exhaustive

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/nip-rs/harness/model"
)

// Universe is a bounded world to explore: its devices, contexts, frontier
// values and default depth bound. A Universe is data; the rules, tie policy
// included, are chosen per run (Config), and a device may override them.
type Universe struct {
	Name string
	// Doc says in one line what the universe models.
	Doc      string
	Devices  []DeviceSpec
	Contexts []string
	// Values are the frontier values, ascending. Mark-read and advance move
	// a context's frontier to the smallest value strictly above its current
	// one, and are disabled at the largest.
	Values []uint32
	// Depth is the default depth bound (transitions per trace).
	Depth int
	// TerminalOnly runs the state invariants only on states whose minimal
	// depth equals the bound, as the reference model does; otherwise they
	// run on every reachable state.
	TerminalOnly bool
	// Network, when set, makes publication a transition of its own whose
	// messages stay in flight (network.go); nil is the reference model's
	// synchronous snapshot delivery.
	Network *Network
	// NoReinstall disables the reinstall transition: where devices start
	// with a history (Widen), a reinstalled device's fresh counters race
	// with that history by how many actions each side saw, which no intent
	// decides.
	NoReinstall bool
}

// DeviceSpec is one installation of a universe.
type DeviceSpec struct {
	ClientID string
	Legacy   bool
	// LegacyMode is how a legacy device treats override keys it receives.
	LegacyMode model.LegacyMode
	// Rules, when set, gives this device's rules from the run's, in place
	// of the run's rules for this device only (for rules whose breakage
	// shows as disagreement between peers). The device decides ties by the
	// Tie of what it returns: the run's Tie unless it sets its own.
	Rules func(run *model.Rules) *model.Rules
	// Parent resolves the device's thread:/msg: contexts to their parent
	// channel (model.Replica.Parent); nil resolves nothing.
	Parent model.ParentResolver
	// Start, when set, gives the device its state before the first
	// transition (Widen: counters near the ceiling).
	Start func(r *model.Replica)
}

// Reference is the universe of the formal note's bounded model: two
// upgraded devices and one legacy device, contexts c0 and c1, frontier
// values 10 and 20, checks at the depth bound 4.
//
// Its legacy device uses model.LegacyDropOverrides, a named departure from
// production kept only to reproduce that model: it discards ov_* keys on
// receive, where production legacy clients (model.LegacyCarry, the
// replica's default) carry them through.
func Reference() Universe {
	return Universe{
		Name: "reference",
		Doc:  "the formal note's model: 2 upgraded + 1 legacy (drops ov_* keys), c0/c1, values 10/20, checks at the bound",
		Devices: []DeviceSpec{
			{ClientID: "d0"},
			{ClientID: "d1"},
			{ClientID: "d2", Legacy: true, LegacyMode: model.LegacyDropOverrides},
		},
		Contexts:     []string{"c0", "c1"},
		Values:       []uint32{10, 20},
		Depth:        4,
		TerminalOnly: true,
	}
}

// Catalog holds the named universes and rule sets a run or a witness can
// refer to. NewCatalog has the project's own (the universes reference,
// network, network-whole, hierarchy, ceiling and long-id; the rule set spec); a command adds more
// (mutants.Register) before it parses its flags. A Catalog is safe for
// concurrent use.
type Catalog struct {
	mu        sync.Mutex
	universes map[string]func() Universe
	rules     map[string]func() *model.Rules
}

// NewCatalog returns the catalogue of the project's universes and the
// rule sets every tool names: spec (the text) and proposed (the text and
// every proposal, what a production client runs).
func NewCatalog() *Catalog {
	c := &Catalog{universes: map[string]func() Universe{}, rules: map[string]func() *model.Rules{}}
	c.AddUniverse("reference", Reference)
	c.AddUniverse("network", NetworkUniverse)
	c.AddUniverse("network-whole", NetworkWholeUniverse)
	c.AddUniverse("hierarchy", HierarchyUniverse)
	c.AddUniverse("ceiling", CeilingUniverse)
	c.AddUniverse("long-id", LongIDUniverse)
	c.AddRules("spec", model.Spec)
	c.AddRules(model.ProposedName, model.Proposed)
	return c
}

// AddUniverse adds a named universe; it panics on a duplicate name (a
// programming error).
func (c *Catalog) AddUniverse(name string, fn func() Universe) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.universes[name]; dup {
		panic("exhaustive: duplicate universe " + name)
	}
	c.universes[name] = fn
}

// Universe returns the named universe.
func (c *Catalog) Universe(name string) (Universe, error) {
	c.mu.Lock()
	fn, ok := c.universes[name]
	c.mu.Unlock()
	if !ok {
		return Universe{}, fmt.Errorf("unknown universe %q (known: %s)", name, strings.Join(c.UniverseNames(), ", "))
	}
	return fn(), nil
}

// UniverseNames lists the universes in name order.
func (c *Catalog) UniverseNames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return sortedNames(c.universes)
}

// AddRules adds a named rule set; it
// panics on a duplicate name.
func (c *Catalog) AddRules(name string, fn func() *model.Rules) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.rules[name]; dup {
		panic("exhaustive: duplicate rule set " + name)
	}
	c.rules[name] = fn
}

// Rules returns a fresh copy of the named rule set, named name.
func (c *Catalog) Rules(name string) (*model.Rules, error) {
	c.mu.Lock()
	fn, ok := c.rules[name]
	c.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown rule set %q (known: %s)", name, strings.Join(c.RulesNames(), ", "))
	}
	r := fn()
	r.Name = name
	return r, nil
}

// RulesNames lists the rule sets in name order.
func (c *Catalog) RulesNames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return sortedNames(c.rules)
}

func sortedNames[V any](m map[string]V) []string {
	ns := make([]string, 0, len(m))
	for n := range m {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// validate reports a universe that cannot be explored.
func (u *Universe) validate() error {
	switch {
	case len(u.Devices) == 0:
		return fmt.Errorf("universe %q has no devices", u.Name)
	case len(u.Devices) > 16:
		return fmt.Errorf("universe %q has %d devices (at most 16)", u.Name, len(u.Devices))
	case len(u.Contexts) == 0:
		return fmt.Errorf("universe %q has no contexts", u.Name)
	case !slices.IsSorted(u.Values) || len(slices.Compact(slices.Clone(u.Values))) != len(u.Values):
		return fmt.Errorf("universe %q: frontier values must be strictly ascending", u.Name)
	}
	return nil
}

// nextValue is the smallest frontier value strictly above f.
func (u *Universe) nextValue(f uint32) (uint32, bool) {
	for _, v := range u.Values {
		if v > f {
			return v, true
		}
	}
	return 0, false
}
