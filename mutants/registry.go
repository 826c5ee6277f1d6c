package mutants

import (
	"slices"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// Register adds every mutant to a catalogue, so that a witness naming one
// replays (cmd/explore -replay) and the gate can explore it: a mutant's
// rules under the mutant's id; a mutant applied to one installation only as
// universes instead, for each universe already in the catalogue a variant
// whose device 0 decides through the mutant's rules while the run, and
// every check, keeps the production rules. The commands call it once on
// their catalogue before parsing flags.
func Register(cat *exhaustive.Catalog) {
	registerReadings(cat)
	bases := cat.UniverseNames()
	for _, m := range All() {
		if !m.OneDevice {
			cat.AddRules(m.ID, m.Rules)
			continue
		}
		for _, base := range bases {
			name := VariantName(base, m.ID)
			cat.AddUniverse(name, func() exhaustive.Universe { return oneDevice(cat, base, name, m) })
		}
	}
}

// VariantName is the universe base with device 0 running mutant id.
func VariantName(base, id string) string { return base + "+" + id }

// isVariant reports whether a universe name is a one-device variant.
func isVariant(name string) bool { return strings.Contains(name, "+") }

// oneDevice is universe base with device 0 deciding through m's rules, under
// the run's tie unless m sets its own (Mutant.RulesUnder).
func oneDevice(cat *exhaustive.Catalog, base, name string, m Mutant) exhaustive.Universe {
	u, err := cat.Universe(base)
	if err != nil {
		panic("mutants: a catalogued universe vanished: " + err.Error()) // a catalogue only grows
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

// Universes lists the catalogue's universes the suite explores: every one
// except the one-device variants.
func Universes(cat *exhaustive.Catalog) []string {
	var out []string
	for _, n := range cat.UniverseNames() {
		if !isVariant(n) {
			out = append(out, n)
		}
	}
	return out
}
