// Package catalog is the one list of every universe the project explores:
// the override layer's (package exhaustive), the paged history walk and
// each of its variants (package history), the community mechanisms
// (package history/community) and candidate A's encoding over the
// reference universe (package candidate).
//
// Each Entry names its layer of the rules (ruleset.Layer) and runs under
// one rule set value (ruleset.Set), taking the layer it needs from it: a
// caller never picks among three kinds of universe, three rule types or
// three result types. An entry explores; it simulates and replays where
// its package can, and says so with ErrUnsupported where it cannot.
//
// Nothing the catalogue imports imports it: the commands sit above it.
//
// Files by concern: entry.go (the type, the catalogue, lookup),
// override.go (exhaustive and candidate entries), walk.go (the walk and
// its variants), walk_bound.go (a walk run under the bound's state limit
// and progress), community.go (the community universes), replay.go (a
// universe's witness replayed under the rule set its file names),
// kinds.go (every other kind of witness dispatched to the package whose
// check wrote it), rules.go (an entry's rule set by name, the walk's
// rule set names, a summary's findings), files.go (the core rule set by
// name, a witness file read and replayed, an override run's inputs),
// diff.go (a difference of two rule sets in an override universe, the
// load's scenarios or the walk, its witness written), diff_report.go (its
// pair and bounding flags read, its report written), replayunder.go (a
// witness file replayed under the rules and tie it names or others).
package catalog
