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
//
// A scenario draws a profile, a cap in [2,5], a limit n in [2,6] and its
// steps. The soundness scenario interleaves the load's messages with
// other installations' writes (new coordinates, same-second replacements
// with a lower or higher id, moves above everything, versions below),
// foreign data, deletions, lapses, closed fences and further loads; a
// running load with nothing left to exchange is a violation too. The
// quiescent prediction, with e = min(cap, n): cannot prove complete iff
// some second holds e or more events, or all of at least two events share
// one second; complete otherwise.
//
// TerminationBound is (Q + backlog)(n + 4) + 2U + S + 2 messages, with
// Q = P(E + U + 1)(R + 2) + 2: E the stored events plus pending splits,
// S the pending splits, U the pushes still receivable, P the passes, R
// the three repeats of a band answered only by pushes, and backlog the
// messages queued when the fair schedule starts. Its comment argues it
// for any relay meeting the requirements; the checks test it on the
// simulated profiles only. The mutant gate runs soundness over every
// profile meeting the five requirements, quiescent over conformant
// (nothing is written, so no push lands on a query) and termination over
// the soundness profiles; only termination reports a load that gives no
// verdict.
package props
