// Package community models the rest of community-history-sync.md beside the
// paged walk of package history: held epochs and the read cutoff, the rekey
// watch and adoption, retired epochs in the live subscription, the live
// window, side-event budgets, the round scheduler, NIP-77 catch-up with its
// fallback, the honest empty states, and the notification pump.
//
// Every mechanism is sans-I/O: a value is fed facts (a rotation, a tick of
// an injected clock, a relay's answer, a notification) and returns
// decisions. Every judgement goes through a Rules value of function fields;
// Spec returns the document's rules, Heal the fix for the two holes the
// search finds at a rekey (NOTE.md, "Community sync beyond the walk"), and
// a mutant replaces one field.
//
// Each mechanism has a bounded universe (universe_*.go) explored by the
// project's one engine (package search) through an adapter that interns
// each state as a one-word row (world.go, engine.go); its witnesses
// replay (witness.go); rapid drives the same steps in random walks past
// the bound.
//
// Files by concern: rules.go (the seam and the constants), epochs.go (held
// keys, cutoff, adoption), live.go (the live subscription and retired
// epochs), side.go (the read path's budgets), sched.go (the scheduler),
// nip77.go (negentropy catch-up), honest.go (what an empty panel says),
// pump.go (routing, the page registry, the burst window), reach.go (which
// decisions a universe reaches, and which a variant changed), witness.go
// (witness files, Parse and Replay).
package community
