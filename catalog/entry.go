package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// ErrUnsupported is returned by an entry asked for a run its universe
// does not have (a community universe has no seeded simulation).
var ErrUnsupported = errors.New("not supported by this universe")

// Bound bounds one exploration. Depth 0 takes the entry's default;
// MaxStates 0 is no limit. Every entry's search takes the state limit and
// the progress snapshots, the walk's included.
type Bound struct {
	Depth     int
	Workers   int
	MaxStates int
	Progress  func(search.Progress)
}

// SimBound is one seeded simulation: Walks walks of Steps transitions.
type SimBound struct {
	Walks, Steps int
	Seed         uint64
	Workers      int
}

// Summary is what any entry's run reports, in the same terms for every
// layer: the figures, each invariant's violations by ID (the known
// findings of the rule set, which a walk reports and a community universe
// leaves out, in Documented), and the smallest witness as its file and
// its rendering.
type Summary struct {
	Entry    string
	Layer    ruleset.Layer
	Rules    string
	Depth    int
	Status   search.Status
	BoundHit string
	// Distinct is the states stored (explore) or checked (simulate);
	// PerDepth splits an exploration's by minimal depth.
	Distinct   int
	PerDepth   []int
	Violations map[string]int64
	Documented map[string]int64
	// Counters are a universe's own figures by name (the walk's "rounds").
	Counters map[string]int64
	// Invariant names the witness's violation; JSON is its file, Witness
	// the file's value for the kinds package witnessfile carries (not a
	// community universe's), Text its rendering.
	Invariant string
	JSON      []byte
	Witness   *witnessfile.Witness
	Text      string
}

// Entry is one universe of the catalogue.
type Entry struct {
	Name string
	Doc  string
	// Layer is the rules layer the universe runs (model, history,
	// community).
	Layer ruleset.Layer
	// Depth is the default depth bound.
	Depth int
	// Kind is the witness kind its explorations write.
	Kind string

	explore  func(rules ruleset.Set, b Bound) (*Summary, error)
	simulate func(rules ruleset.Set, s SimBound) (*Summary, error)
	replay   func(rules ruleset.Set, w *witnessfile.Witness) (*witnessfile.Replayed, error)
}

// Explore searches the universe under rules to the bound.
func (e Entry) Explore(rules ruleset.Set, b Bound) (*Summary, error) {
	if e.explore == nil {
		return nil, fmt.Errorf("%s: exploration %w", e.Name, ErrUnsupported)
	}
	if err := e.usable(rules); err != nil {
		return nil, err
	}
	if b.Depth < 0 || b.Depth > witnessfile.MaxDepth {
		return nil, fmt.Errorf("%s: depth %d: want 0..%d", e.Name, b.Depth, witnessfile.MaxDepth)
	}
	if b.Depth == 0 {
		b.Depth = e.Depth
	}
	s, err := e.explore(rules, b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	s.Entry, s.Layer, s.Rules, s.Depth = e.Name, e.Layer, rules.Name, b.Depth
	return s, nil
}

// Simulate runs seeded random walks through the universe under rules.
func (e Entry) Simulate(rules ruleset.Set, s SimBound) (*Summary, error) {
	if e.simulate == nil {
		return nil, fmt.Errorf("%s: simulation %w", e.Name, ErrUnsupported)
	}
	if err := e.usable(rules); err != nil {
		return nil, err
	}
	if s.Walks < 1 || s.Steps < 1 || s.Steps > witnessfile.MaxDepth {
		return nil, fmt.Errorf("%s: %d walks of %d steps: want at least one walk of 1..%d steps", e.Name, s.Walks, s.Steps, witnessfile.MaxDepth)
	}
	out, err := e.simulate(rules, s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	out.Entry, out.Layer, out.Rules, out.Depth = e.Name, e.Layer, rules.Name, s.Steps
	return out, nil
}

// Replay re-runs a witness of this universe under rules (in place of the
// rule set the file names). A witness of another universe or kind is a bad
// witness (witnessfile.ErrBad).
func (e Entry) Replay(rules ruleset.Set, w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	if e.replay == nil {
		return nil, fmt.Errorf("%s: replay %w", e.Name, ErrUnsupported)
	}
	if err := e.usable(rules); err != nil {
		return nil, err
	}
	if w == nil || w.Kind != e.Kind {
		return nil, witnessfile.Bad("not a %s witness of universe %s", e.Kind, e.Name)
	}
	return e.replay(rules, w)
}

// usable refuses a rule set without the layer the entry runs.
func (e Entry) usable(rules ruleset.Set) error {
	ok := false
	switch e.Layer {
	case ruleset.LayerModel:
		ok = rules.Model != nil
	case ruleset.LayerHistory:
		ok = rules.History != nil
	case ruleset.LayerCommunity:
		ok = rules.Community != nil
	}
	if !ok {
		return fmt.Errorf("%s: rule set %q has no %s layer", e.Name, rules.Name, e.Layer)
	}
	return nil
}

// Catalog is the list of entries over one override catalogue (the
// universes and rule sets a command registered: mutants' one-device
// universes, amendments), which also resolves the rule sets witness files
// name.
type Catalog struct {
	ex      *exhaustive.Catalog
	entries []Entry
}

// New builds the catalogue over ex: its universes by name, candidate A's,
// the walk and its variants, then the community universes, in the order
// their packages list them.
func New(ex *exhaustive.Catalog) *Catalog {
	c := &Catalog{ex: ex}
	c.entries = append(c.overrideEntries(), walkEntries()...)
	c.entries = append(c.entries, communityEntries()...)
	return c
}

// standard is the catalogue over the project's universes and every
// mutant's, for callers with no catalogue of their own.
var standard = sync.OnceValue(func() *Catalog {
	ex := exhaustive.NewCatalog()
	mutants.Register(ex)
	return New(ex)
})

// Standard is the catalogue of the project's universes and the mutants'.
func Standard() *Catalog { return standard() }

// All is every entry of the standard catalogue.
func All() []Entry { return Standard().All() }

// Lookup is an entry of the standard catalogue by name.
func Lookup(name string) (Entry, error) { return Standard().Lookup(name) }

// LookupVariant is Standard().LookupVariant.
func LookupVariant(universe, variant string) (Entry, error) {
	return Standard().LookupVariant(universe, variant)
}

// Names lists the standard catalogue's entry names.
func Names() []string { return Standard().Names() }

// ForWitness is Standard().ForWitness.
func ForWitness(w *witnessfile.Witness) (Entry, error) { return Standard().ForWitness(w) }

// All is every entry, in the catalogue's order.
func (c *Catalog) All() []Entry { return slices.Clone(c.entries) }

// Lookup is the entry named name. The walk's variants are also reached as
// "walk" with a variant name (LookupVariant).
func (c *Catalog) Lookup(name string) (Entry, error) {
	if i := slices.IndexFunc(c.entries, func(e Entry) bool { return e.Name == name }); i >= 0 {
		return c.entries[i], nil
	}
	return Entry{}, fmt.Errorf("unknown universe %q (known: %s)", name, strings.Join(c.Names(), ", "))
}

// LookupVariant is the entry -universe and -variant name together: a
// variant other than "default" is only the walk's ("walk" with variant
// "ties" is the entry walk-ties).
func (c *Catalog) LookupVariant(universe, variant string) (Entry, error) {
	if variant == "" || variant == "default" {
		return c.Lookup(universe)
	}
	if universe != history.UniverseName {
		return Entry{}, fmt.Errorf("-variant %s: only the %s universe has variants", variant, history.UniverseName)
	}
	return c.Lookup(WalkVariantName(variant))
}

// Names lists every entry's name, in the catalogue's order.
func (c *Catalog) Names() []string {
	var out []string
	for _, e := range c.entries {
		out = append(out, e.Name)
	}
	return out
}

// InLayer lists the entries of one layer, in the catalogue's order.
func (c *Catalog) InLayer(l ruleset.Layer) []Entry {
	var out []Entry
	for _, e := range c.entries {
		if e.Layer == l {
			out = append(out, e)
		}
	}
	return out
}

// ForWitness is the entry whose universe wrote w: by its kind and the
// universe it names (every walk witness replays through the walk's entry,
// its variant being in the file).
func (c *Catalog) ForWitness(w *witnessfile.Witness) (Entry, error) {
	for _, e := range c.entries {
		if e.Kind == w.Kind && e.Name == witnessUniverse(w) {
			return e, nil
		}
	}
	return Entry{}, witnessfile.Bad("no universe of the catalogue writes %s witnesses of universe %q", w.Kind, witnessUniverse(w))
}
