// Command explore runs the bounded explorer over a universe and the
// directed checks, or replays a witness.
//
//	explore [-universe reference] [-depth N] [-tie clear|set|both]
//	        [-workers N] [-directed=true] [-only KEY,...] [-rules spec]
//	        [-max-states N] [-json] [-witness DIR] [-progress 1s]
//	        [-html FILE] [-version]
//	explore -replay FILE [-rules NAME] [-tie clear|set] [-html FILE]
//	explore -diff A,B [-universe reference] [-depth N] [-tie clear|set]
//	explore -diff A,B -universe load [-cases N] [-seed S]
//	explore -list
//
// The first line of standard output says everything needed to reproduce the
// run. Progress goes to standard error. A violation prints its witness as
// text and writes it as JSON under -witness; -replay re-runs a witness
// through the same code, prints what it recomputed (flagging a stored
// detail that differs) and, with -rules or -tie, re-runs it under other
// rules. -rules also takes an amendment (package amendments): the report
// then says how many rule inputs it decided otherwise than spec, and keeps
// safety apart from spec-text conformance. -html writes the witnesses as
// one self-contained page (package witnesshtml). -diff A,B finds the
// first point at which a user can tell two rule sets apart: the shortest
// history in a snapshot universe, or with -universe load the first of the
// full-state load's seeded scenarios, shrunk, after which a load ends
// otherwise, or the walk's shortest history (package catalog, Diff).
//
// The universes come from package catalog: -list names every one of every
// layer; -universe walk-VARIANT is -universe walk -variant VARIANT; a
// community universe (epochs, live, ...) or candidate-a is explored on
// the shared engine and reported in the catalogue's terms on the walk's
// path (runreport.EntryRuns); every witness, of a universe or of any
// other check, replays through the catalogue (Catalog.Replay). This
// command holds the flags, the printing and the exit codes; each mode's
// run is the library's that owns it (runreport.Explore and ReplayFile,
// exhaustive.LivenessRun and ObserveRun, comparison.Run, catalog's
// difference, mbt's traces), and a run's status, witnesses and verdict
// are package runreport's.
//
// Exit codes: 0 every check passed; 1 a violation (or, with -replay, the
// witness reproduced); 2 a usage or input error, including a witness file
// that does not parse or does not fit its universe or check; 3 a resource
// bound (-max-states) was hit before the depth bound, so the result is
// unknown.
package main
