package exhaustive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Observations are named questions a spec author asks of a universe: can
// the devices ever be in a state like this? Each is a predicate over one
// global state, searched breadth first by Observe (observations_search.go)
// with the same engine, worlds and rules as the safety checks; the answer
// is "reached" with the shortest trace, or "not reached within the
// bounds" — never "impossible", since the bounds are the universe's.
//
// A predicate must not tell interchangeable devices or contexts apart (it
// quantifies over all of them, as every entry below does): a network
// search stores one state per symmetry orbit, and a predicate that holds
// on one member must hold on every member for the search to be exact.
//
// To add one, append an entry to observations (the one file to edit).

// Observation is one named predicate over a universe's states.
type Observation struct {
	Name string
	// Doc says in one line what is observed.
	Doc string
	// Universes are those it is meaningful on (where the situation it
	// describes can be stated at all).
	Universes []string
	// Holds reports whether the state shows the situation, and in one line
	// where (devices and contexts by name).
	Holds func(s *ObservedState) (detail string, ok bool)
}

// ObservedState is one global state as an observation sees it.
type ObservedState struct {
	Universe *Universe
	// Replicas are the devices, in universe order (never modified).
	Replicas []*model.Replica
	// InFlight holds, per ordered pair of devices with something in
	// flight, the blobs on that channel (network universes; empty under
	// synchronous delivery).
	InFlight []ChannelObserved
}

// observationUniverses are the universes the registry's entries name:
// the reference model, the network universes and the liveness pair.
var (
	allUniverses     = []string{"reference", "network", "network-whole", "network-pair", "hierarchy", "hierarchy-pair"}
	legacyUniverses  = []string{"reference", "network", "network-whole"}
	networkUniverses = []string{"network", "network-whole", "network-pair", "hierarchy", "hierarchy-pair"}
)

var observations = []Observation{
	{
		Name:      "divergence",
		Doc:       "an override is live on one upgraded device while another upgraded device shows the same context not live (the divergence a user sees between two screens)",
		Universes: allUniverses,
		Holds:     divergence,
	},
	{
		Name:      "legacy-holds-override-key",
		Doc:       "a legacy device holds an override key (ov_s:, ov_c:, ov_b:) as if it were a context of its own",
		Universes: legacyUniverses,
		Holds:     legacyHoldsOverrideKey,
	},
	{
		Name:      "settled-disagreement",
		Doc:       "nothing is in flight, every device already holds what every other device would publish, and two upgraded devices still show a context differently",
		Universes: networkUniverses,
		Holds:     settledDisagreement,
	},
}

// Observations lists the registry, in name order.
func Observations() []Observation {
	out := slices.Clone(observations)
	slices.SortFunc(out, func(a, b Observation) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// LookupObservation finds an observation by name; the error lists the
// known names.
func LookupObservation(name string) (Observation, error) {
	for _, o := range observations {
		if o.Name == name {
			return o, nil
		}
	}
	var names []string
	for _, o := range Observations() {
		names = append(names, o.Name)
	}
	return Observation{}, fmt.Errorf("unknown observation %q (known: %s)", name, strings.Join(names, ", "))
}

// upgraded lists the indices of the upgraded devices.
func (s *ObservedState) upgraded() []int {
	var out []int
	for d, r := range s.Replicas {
		if !r.Legacy {
			out = append(out, d)
		}
	}
	return out
}

// overrideContexts are the contexts an override can be set on.
func (s *ObservedState) overrideContexts() []string {
	var out []string
	for _, c := range s.Universe.Contexts {
		if !s.Universe.frontierOnly(c) {
			out = append(out, c)
		}
	}
	return out
}

// firstDisagreement is the first context (universe order) and pair of
// upgraded devices (d live, e not) on which the two show an override
// differently.
func (s *ObservedState) firstDisagreement() (ctx string, d, e int, ok bool) {
	up := s.upgraded()
	for _, c := range s.overrideContexts() {
		for _, d := range up {
			if !s.Replicas[d].Live(c) {
				continue
			}
			for _, e := range up {
				if !s.Replicas[e].Live(c) {
					return c, d, e, true
				}
			}
		}
	}
	return "", 0, 0, false
}

func divergence(s *ObservedState) (string, bool) {
	c, d, e, ok := s.firstDisagreement()
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s is live on d%d (reg %v, frontier %d) and not live on d%d (reg %v, frontier %d)",
		c, d, s.Replicas[d].Reg(c), s.Replicas[d].Effective(c), e, s.Replicas[e].Reg(c), s.Replicas[e].Effective(c)), true
}

func legacyHoldsOverrideKey(s *ObservedState) (string, bool) {
	for d, r := range s.Replicas {
		if !r.Legacy {
			continue
		}
		for _, id := range r.Contexts() {
			if k, _ := specGroupKey(id); k != model.KeyFrontier {
				return fmt.Sprintf("legacy d%d holds %s at %d", d, id, r.Frontier(id)), true
			}
		}
	}
	return "", false
}

func settledDisagreement(s *ObservedState) (string, bool) {
	if len(s.InFlight) > 0 {
		return "", false
	}
	c, d, e, ok := s.firstDisagreement()
	if !ok {
		return "", false
	}
	// Settled: receiving any device's whole candidate changes no other
	// device (a split publication's parts carry the same entries).
	for from, src := range s.Replicas {
		b := src.Candidate()
		for to, dst := range s.Replicas {
			if to == from {
				continue
			}
			r := dst.Clone()
			r.Receive(b)
			if !slices.Equal(r.Candidate().Contexts, dst.Candidate().Contexts) || r.Live(c) != dst.Live(c) {
				return "", false
			}
		}
	}
	return fmt.Sprintf("nothing in flight and nothing left to exchange, yet %s is live on d%d (reg %v) and not on d%d (reg %v)",
		c, d, s.Replicas[d].Reg(c), e, s.Replicas[e].Reg(c)), true
}

// specGroupKey classifies a wire key as the text does: whether a legacy
// device holds an override key is a question about the wire, not about
// any rule set under exploration.
var specGroupKey = model.Spec().GroupKey
