// Package mutants is the mutant catalogue: each mutant is data (an id, the
// normative rule it drops and the spec section that states it, a change to
// model.Rules, the checks expected to catch it) and the runner executes the
// generic suite — every registered explorer universe, every directed and
// conformance cube, the full-state load's property checks — under each one,
// cheapest check first. A mutant is caught only when a check that exists
// for every rule set reports a violation; the production rules run as a
// control and must trip nothing.
//
// The load checks are props.Search runs under the conformant relay, drawn
// from the props package's seeded generator (Options.Seed, LoadCases), so
// the runner and cmd/mutate need no test machinery.
//
// The history mutants change the paged history walk's history.Rules and
// are checked by its universe (history:walk) and the walk's liveness
// check (walk-liveness:walk) alone; the community mutants change
// community.Rules and are checked by the community universes and their
// two liveness checks alone.
//
// The control runs every check first, under the production rules and
// both tie policies; cost orders the suite, cheapest first. Per mutant
// and tie policy the suite runs to the first catching check; under
// clear-wins every expected check then runs and must catch it. With -all
// the catching checks must be exactly the expected ones.
//
// The control runs each check through traced rules (trace.go) that record
// which decisions the check asked and ask every mutant's replacement the
// same questions alongside. A mutant whose replaced decisions the check
// never asked, or always answered as the rules did, would run the check
// exactly as the control did: the runner takes the control's finding for
// it instead of running the check again (reach.go says on what that
// rests). Only outcomes that catch nothing are taken so; every catch is a
// run of its own.
//
// Files: catalogue.go (M1–M33), load.go (L1–L15), community.go (K1–K33)
// and history.go (H1–H22,
// with the walk's check and ReplayHistory) are the catalogue;
// registry.go registers every mutant's rules (and the one-device universe
// variants) with the explorer so witnesses replay; checks.go is the suite
// and the control, simulate.go its simulation checks (seeded walks of every
// universe, exhaustive.Simulate); runner.go runs it, reach.go and trace.go
// decide which of its checks a mutant's run would repeat from the control;
// lazy.go orders the suite without the whole control (-only); golden.go
// compares first witnesses with testdata/; report.go renders the gate's
// table (testdata/figures/TestGate.txt), table.go the command's; checkdoc.go says what each check
// covers; context.go gives up a run when its caller is interrupted. cmd/mutate is the CLI, and gate_test.go the gate of `make test-full` (a few cheap mutants of it under the quick gate).
package mutants
