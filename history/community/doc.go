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
//
// # How the universes are checked
//
// The universes run on the explorer's engine, so they share its state
// bound, worker-count independence and smallest, replayable witnesses. A
// property test drives the same steps up to 40 actions under both rule
// sets; chained adoption is checked for up to 24 missed rotations with
// forks (TestMissedRotations); and a universe fails when a rules field is
// never called, so no rule goes unexercised by its universe.
//
// Adoption groups the stored rotations by epoch once, so n adoptions
// cost O(n + |db|) where the document's scan of every stored rotation at
// each adoption is quadratic.
//
// # Liveness
//
// The liveness graph holds the states with something pending; a step
// that leaves nothing pending counts as met and is not followed; the
// premise counted is the triggering transitions (rotations delivered),
// and a check whose premise never occurs fails. In the live universe the
// property has a safety face: from every state with a stale REQ short of
// the depth bound, a wrap on the plane the REQ lacks can still be
// published, and W1 fires on its arrival (TestLiveSafetyFace checks this
// state by state), so no rule change reaches the property alone there.
// live-quiet is the live universe with no wrap sealed after the first
// rotation (a channel that goes silent once a member is removed): no
// safety check fires on K33 there and the live property finds a fair loop
// of rounds with the REQ stale (TestNoReinstallQuietOnlyLiveness). The
// gate does not run live-quiet, as it would catch nothing W1 does not.
//
// Both properties hold under Spec and Heal: every cycle of rounds that
// leaves an adoption pending leaves the rekey pass enabled and untaken,
// so it is unfair, and the live universe re-installs the REQ in the step
// that delivers the rotation. K32 (an adoption re-installs the rekey
// watch) leaves the member deaf to every later rotation: no safety check
// fails, and the rekey property finds a loop of one round with the member
// at epoch 1 and the community at 2. K5 (a removed member not marked
// removed) is caught by the rekey property beside community:epochs. K33
// (a delivered rotation re-installs the live REQ) is caught by the live
// property and by W1 as soon as a wrap arrives on the plane the REQ
// lacks.
//
// # What is not modelled
//
// Decryption and pseudonym derivation (a plane is an epoch number); the
// rotator's rank (a rotation without a blob is authorised by
// construction); more than one channel's cursor in the epochs universe
// (the live universe has two); LIVE_REPLAY and PUMP_WINDOW as bounds
// against real loads; the reference's WINDOW_SIZE and TIMELINE_PAGE (the
// side universe reads two rows); and the UI's rendering of the honest
// states (the model stops at the Panel value).
package community
