// Package amendments holds proposed changes to the spec's rules, one file
// per amendment: a named change to model.Rules with its rationale and the
// spec section it rewrites. Register adds each to a catalogue, so that
// `explore -rules NAME` and `mutate -control NAME` run every check of the
// harness with the amendment as the baseline.
//
// To propose one: copy an amendment file, change Apply, name it, and add
// its constructor to the list in amendments.go. Diff (diff.go) counts the
// rule decisions the amendment makes differently from the spec on the
// inputs a run actually reached, so "the checks never met a state where
// it matters" is visible.
package amendments
