package mutants

import (
	"slices"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// Every mutant's rules are registered with the explorer under the mutant's
// id, so that a witness naming them replays (cmd/explore -replay). A mutant
// applied to one installation only is a universe instead: for each
// registered universe, a variant whose device 0 decides through the
// mutant's rules while the run, and every check, keeps the production rules.

var variants = map[string]bool{}

// VariantName is the universe base with device 0 running mutant id.
func VariantName(base, id string) string { return base + "+" + id }

func init() {
	bases := exhaustive.UniverseNames()
	for _, m := range All() {
		if !m.OneDevice {
			exhaustive.RegisterRules(m.ID, m.Rules)
			continue
		}
		for _, base := range bases {
			name := VariantName(base, m.ID)
			exhaustive.RegisterUniverse(name, func() exhaustive.Universe { return oneDevice(base, name, m) })
			variants[name] = true
		}
	}
}

// oneDevice is universe base with device 0 deciding through m's rules, under
// the run's tie unless m sets its own (Mutant.RulesUnder).
func oneDevice(base, name string, m Mutant) exhaustive.Universe {
	u, err := exhaustive.LookupUniverse(base)
	if err != nil {
		panic("mutants: registered universe vanished: " + err.Error()) // the registry only grows
	}
	u.Name = name
	u.Doc = u.Doc + "; device 0 runs " + m.ID
	u.Devices = slices.Clone(u.Devices)
	u.Devices[0].Rules = func(run *model.Rules) *model.Rules { return m.RulesUnder(run.Tie) }
	if u.Network != nil {
		// Device 0 is no longer interchangeable with its peers.
		n := *u.Network
		n.SymDevices = slices.DeleteFunc(slices.Clone(n.SymDevices), func(d int) bool { return d == 0 })
		if len(n.SymDevices) < 2 {
			n.SymDevices = nil
		}
		u.Network = &n
	}
	return u
}

// Universes lists the registered universes the suite explores: every one
// except the one-device variants made here.
func Universes() []string {
	var out []string
	for _, n := range exhaustive.UniverseNames() {
		if !variants[n] {
			out = append(out, n)
		}
	}
	return out
}
