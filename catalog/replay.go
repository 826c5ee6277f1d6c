package catalog

import (
	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/candidate"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/history/community"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/witnessfile"
)

// Writes reports whether kind is a witness kind a universe of the
// catalogue writes (and ReplayNamed replays).
func (c *Catalog) Writes(kind string) bool {
	for _, e := range c.entries {
		if e.Kind == kind {
			return true
		}
	}
	return false
}

// ReplayNamed replays a universe's witness under the rule set the file
// names, resolved as each layer names its rule sets: an override witness
// through the override catalogue (candidate A's when it names an
// encoding), a walk or community witness through its package's rule sets
// and mutants, or the layer of an amendment (whose change may be to any
// layer). A kind no universe writes is a bad witness.
func (c *Catalog) ReplayNamed(w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	switch w.Kind {
	case witnessfile.KindExplore:
		if w.Encoding != "" {
			return candidate.Replay(c.ex, w)
		}
		return exhaustive.Replay(c.ex, w)
	case history.KindHistory:
		if s, ok := AmendmentSet(w.Rules); ok {
			return history.ReplayWith(w, s.History)
		}
		return mutants.ReplayHistory(w)
	case community.KindCommunity:
		if s, ok := AmendmentSet(w.Rules); ok {
			return mutants.ReplayCommunityWith(w, s.Community)
		}
		return mutants.ReplayCommunity(w)
	}
	return nil, witnessfile.Bad("kind %q is written by no universe of the catalogue", w.Kind)
}

// AmendmentSet is the whole rule set of the amendment named name: a
// witness of the walk or the community universes written by an
// amendment's run names the amendment, whose change may be to any layer.
func AmendmentSet(name string) (ruleset.Set, bool) {
	a, ok := amendments.Lookup(name)
	if !ok {
		return ruleset.Set{}, false
	}
	return a.Set(model.ClearWins), true
}

// WitnessText renders a witness: its text as the run that found it wrote
// it, or, for one read back from a file, the text its replay under the
// rule set it names gives.
func (c *Catalog) WitnessText(w *witnessfile.Witness) (string, error) {
	if w.Text != "" {
		return w.Text, nil
	}
	r, err := c.Replay(w)
	if err != nil {
		return "", err
	}
	return r.Text, nil
}
