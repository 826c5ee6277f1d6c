package mutants

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history/community"
)

// CheckDoc is a check's one line: what it guards (Class: safety or
// conformance to the spec's text) and what it covers, the universes named
// by cat.
func CheckDoc(cat *exhaustive.Catalog, c Check) string {
	return Class(c) + ": " + checkCovers(cat, c)
}

// checkCovers says what a check covers, by its kind.
func checkCovers(cat *exhaustive.Catalog, c Check) string {
	switch c.Kind {
	case KindExplore:
		u, _ := cat.Universe(c.Universe)
		return u.Doc
	case KindDirected:
		return c.Directed.Name
	case KindHistory:
		return "the paged history walk's invariants, its documented limitation excepted (explore -universe walk; history mutants only)"
	case KindSimulate:
		u, _ := cat.Universe(c.Universe)
		return "seeded random walks far past the exhaustive bound: " + u.Doc
	case KindCommunity:
		// The community package's lookup: the catalogue imports this
		// package, so its lookup is out of reach (see runner.community).
		if u, ok := community.UniverseNamed(c.Universe); ok {
			return u.Doc + " (community mutants only)"
		}
	case KindLiveness:
		// Not in the catalogue: the liveness universes are built for the
		// check (exhaustive.LivenessUniverses).
		if u, err := exhaustive.LivenessUniverse(cat, c.Universe); err == nil {
			if c.Prop == exhaustive.InvOverrideReaches {
				return "an override reaches every upgraded device once the user stops acting, under fair delivery: " + u.Doc
			}
			return "no re-publication cycle without a user action, under fair delivery: " + u.Doc
		}
	case KindWalkLiveness:
		return "every walk of the paged history ends once members stop publishing, in the walk's universes (history mutants only)"
	case KindCommunityLiveness:
		if p, ok := community.PropertyNamed(c.Universe); ok {
			return "once the environment stops, under weak fairness: " + p.Doc + " (community mutants only)"
		}
	case KindLoad:
		return "load soundness, " + c.Prop + " check under the conformant relay"
	}
	return "unknown: no description for a check of kind " + c.Kind
}

// ParseOnly reads a comma-separated list of mutant ids ("" for none),
// refusing an id the catalogue does not have.
func ParseOnly(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, id := range strings.Split(s, ",") {
		if _, ok := Lookup(id); !ok {
			return nil, fmt.Errorf("unknown mutant %q (see -list)", id)
		}
		out = append(out, id)
	}
	return out, nil
}
