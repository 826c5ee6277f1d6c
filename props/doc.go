// Package props holds the property checks of the full-state load: state
// machines that interleave a load's steps with other installations
// publishing and replacing read-state coordinates, foreign kind 30078
// application data, deletions, connection lapses and relays at their cap,
// over the simulated relays of relaysim.
//
// Three generic checks exist for every rule set and every relay profile:
//
//   - soundness: a complete verdict means every read-state coordinate the
//     relay held when the final query read its storage was collected at
//     that version or a newer one (never a false complete);
//   - quiescent: over a relay nothing writes to during the load, the
//     verdict is exactly what the spec's procedure predicts from the
//     stored history (complete unless some second is a plateau the relay
//     cannot deliver at once), and the complete verdicts are sound;
//   - termination: after the soundness scenario, with the relay scheduled
//     fairly (World.Finish), the load reaches a verdict within
//     TerminationBound messages, a function of the stored events, the
//     pending splits and pushes, the passes and the limit. The first two
//     judge verdicts and leave a load that gives none to this one; a
//     termination search in which no load was still running when Finish
//     began fails as vacuous.
//
// A scenario is data (Config and a list of Steps), so every violation the
// search finds is a replayable witness. The generators (DrawConfig,
// DrawSetup, DrawStep, the Property of each check) take their choices
// from a Source. Search, which the mutant runner and the witness tables
// use, draws them from Seeded, a deterministic generator of this package
// seeded by value, and shrinks what it finds with Minimize; the property
// tests adapt rapid to Source and run the same generators under it. The
// library depends on neither testing nor rapid; the tests that assert
// what the checks find live in the _test.go files.
//
// A World can be watched: Observe gives it an Observer told of each load's
// start, of every relay message fed to a load with what the load sent
// back, and of each verdict with its soundness violation. The load vectors
// record their scripted relays that way, so the frames a vector holds are
// the ones the property checks feed, from the same simulator.
// HoldUnproven makes the loads hold the relay unproven, for the vectors of
// an unproven relay; the checks never set it.
package props
