// Package exhaustive holds the universes and the two worlds the explorer
// runs them in; the search itself is package search, the directed cubes
// package directed.
//
// A Universe is data: its devices (upgraded or legacy), contexts, frontier
// values and depth bound. Explore hands its world to search.Explore, which
// enumerates every global state reachable within the bound, breadth first;
// every transition is executed by model.Replica through a *model.Rules
// (carrying its tie policy), so a mutant Rules value changes both what
// happens and what it is checked against. The reference universe
// reproduces the bounded model of the formal note state for state (see
// NOTE.md, "Exhaustive explorer").
//
// States are exact: each device state is encoded to bytes and interned to a
// dense id (engine.go), and a global state is the row of its devices' ids.
// Because a device's behaviour is a function of its encoded state, each
// distinct device transition runs through the replica once and is then
// looked up.
//
// The world seam (world.go) is the only place the reference world
// (synchronous snapshot delivery) and the network world differ: a universe
// with a Network (network*.go) keeps its publications in flight as messages
// that can be delivered late, duplicated, reordered, dropped or split into
// coordinate parts; every state is checked, through its quiescence, for
// cross-device convergence, delivery-order independence and agreement with
// an intent oracle judged from the action history (oracle_intent.go);
// interchangeable devices and contexts are reduced by symmetry
// (symmetry.go); and coverage counts show each check was exercised
// (coverage.go). Each world's invariants are declared once, in
// invariant_tables.go. A Catalog names the universes and rule sets runs and
// witnesses refer to; the commands build it explicitly.
//
// hierarchy.go is the universe of a channel with thread: and msg: children
// resolved through a model.ParentResolver; wide.go widens a universe's
// values and starts its counters near the ceiling (the ceiling universe),
// or adds a 252-byte context id (the long-id universe);
// network_shape.go checks every publication's override groups are
// canonical (N7), network_published.go that a peer derives each device's
// verdicts from its publication (N8). simulate.go runs seeded random walks through any
// universe with the same checks, far past the exhaustive bounds, and
// shrinks a violation to a witness Replay runs.
//
// network_liveness.go checks an eventually-property of a network universe:
// no fair cycle of system steps (deliveries and triggered re-publications,
// no user action) holds a publication; a violation is a lasso that
// ReplayLiveness (network_liveness_witness.go) checks.
//
// What the commands print of a run is computed here too: a search's
// progress in words (progress.go), a difference search's result in words
// and as JSON (diff_report.go) and the rule set names it takes
// (rulesnamed.go), a run's checkpoint directories per tie policy
// (checkpoint_dirs.go), a simulation part's checks against its run line
// (simpart.go), a simulation's tie documents and witness files
// (simwrite.go), its run line, block of walks, merge and exit code
// (simrun.go), the store a run keeps its states in (store.go), and a
// liveness or agreement run's line and witness file
// (liveness_report.go).
//
// network_liveness_agree.go checks another: an override set on one device
// reaches every upgraded device once the user stops acting, under fair
// delivery, over a graph whose every publication is a triggered one; a
// violation is a path to devices settled apart, or a lasso.
//
// observations.go is the registry of named predicates over one state
// (divergence between two screens, and others) that Observe
// (observations_search.go) searches for: reached with the shortest trace,
// written as a witness of kind observation, or not reached within the
// bounds.
package exhaustive
