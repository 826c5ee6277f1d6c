package mutants

import (
	"strings"

	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
)

// The classes of what a check asserts, which decide the verdict its
// failure counts toward: safety (the protocol loses or invents state),
// spec-text conformance (a rule set does otherwise than today's text
// says), and coverage (the search never met the situation a check is
// about: a finding about the harness, not about the rules). Both commands
// ask this file, so a check is classed once, by what it asserts, never by
// its label or by matching words of its name.
const (
	ClassSafety   = directed.ClassSafety
	ClassSpecText = directed.ClassSpecText
	ClassCoverage = "coverage"
)

// Class is what a check of the suite asserts, or "" for a kind no class
// is known for (a new kind must be classed here; the catalogue's test
// fails until it is).
func Class(c Check) string {
	switch c.Kind {
	case KindDirected:
		if c.Directed == nil {
			return ""
		}
		return c.Directed.Class()
	case KindExplore, KindLoad, KindSimulate, KindHistory, KindCommunity:
		// Each asserts invariants of the merged state; the one coverage
		// invariant among an exploration's is classed by InvariantClass.
		return ClassSafety
	case KindLiveness, KindWalkLiveness, KindCommunityLiveness:
		return ClassLiveness
	}
	return ""
}

// ClassOfName is Class by a check's name ("<kind>:<rest>"); a directed
// check is looked up by its key. "" when the kind or the key is unknown.
func ClassOfName(name string) string {
	kind, rest, ok := strings.Cut(name, ":")
	if !ok {
		return ""
	}
	c := Check{Name: name, Kind: kind}
	if kind == KindDirected {
		d, err := directed.Lookup(rest)
		if err != nil {
			return ""
		}
		c.Directed = d
	}
	return Class(c)
}

// InvariantClass is what an exploration's invariant asserts, by its ID:
// non-vacuity says the search reached the situations its other checks are
// about (coverage); every other invariant is safety. "" for an ID no
// world's table declares.
func InvariantClass(id string) string {
	switch {
	case id == exhaustive.InvNetVacuous:
		return ClassCoverage
	case exhaustive.KnownInvariant(id):
		return ClassSafety
	}
	return ""
}

// IsConformance reports whether a check asserts spec-text conformance
// (directed.Check.SpecText: what today's spec text decides) rather than
// safety.
func IsConformance(c Check) bool { return Class(c) == ClassSpecText }

// IsConformanceName is IsConformance by check name.
func IsConformanceName(name string) bool { return ClassOfName(name) == ClassSpecText }
