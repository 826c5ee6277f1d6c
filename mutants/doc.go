// Package mutants is the mutant catalogue: each mutant is data (an id, the
// normative rule it drops and the spec section that states it, and a change
// to model.Rules) and the runner executes the generic suite — the explorer
// universes, the directed cubes, the codec and load checks — under each one.
// A mutant is caught only when a check that exists for every rule set
// reports a violation; the production rules run as a control and must trip
// nothing.
package mutants
