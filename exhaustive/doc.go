// Package exhaustive is the bounded explorer and the directed checks.
//
// A Universe is data: its devices (upgraded or legacy), contexts, frontier
// values and depth bound. Explore enumerates every global state reachable
// within the bound, breadth first, and runs the invariants on it; every
// transition is executed by model.Replica through a *model.Rules, so a
// mutant Rules value changes both what happens and what it is checked
// against. The reference universe reproduces the bounded model of the
// formal note state for state (see NOTE.md, "Exhaustive explorer").
//
// States are exact: each device state is encoded to bytes and interned to a
// dense id, and a global state is the tuple of its devices' ids. Because a
// device's behaviour is a function of its encoded state, each distinct
// device transition runs through the replica once and is then looked up.
// Levels are expanded in parallel and merged in generation order, so the
// counts and the reported witness do not depend on the number of workers.
//
// A universe with a Network (network.go) runs on the same search through
// the world seam (world.go): its publications stay in flight as messages
// that can be delivered late, duplicated, reordered, dropped or split into
// coordinate parts; every state is checked, through its quiescence, for
// cross-device convergence, delivery-order independence and agreement with
// an intent oracle judged from the action history (oracle_intent.go);
// interchangeable devices and contexts are reduced by symmetry
// (symmetry.go); and coverage counts show each check was exercised
// (coverage.go).
//
// The directed checks (Directed) are named invariants over parameter cubes
// that the search cannot reach: deep histories, stale deliveries, split
// publications, legacy rewrites. Each point that fails yields a replayable
// witness.
package exhaustive
