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
// network_liveness.go runs the liveness checks of a network universe
// (Liveness, one run path for both properties): the first, no fair cycle
// of system steps (deliveries and triggered re-publications, no user
// action) holds a publication, walks the product graph of
// network_liveness_graph.go with the shared fair-cycle search; a violation
// is a lasso (LivenessWitness) that ReplayLiveness
// (network_liveness_witness.go) checks, and its file
// (network_liveness_file.go) is shared by both properties.
//
// What the commands print of a run is computed here too: a search's
// progress in words (progress.go), a difference search's result in words
// and as JSON (diff_report.go) and the rule set names it takes
// (rulesnamed.go), a run's checkpoint directories per tie policy
// (checkpoint_dirs.go), a simulation part's checks against its run line
// (simpart.go), a simulation's tie documents and witness files
// (simwrite.go), its run line, block of walks, merge and exit code
// (simrun.go), the store a run keeps its states in (store.go), a
// liveness or agreement run's line and witness file
// (liveness_report.go), a -check run's header, per-tie loop and exit code
// (liveness_run.go), and an -observe run's (observe_run.go).
//
// network_liveness_agree.go checks the second: an override set on one
// device reaches every upgraded device once the user stops acting, under
// fair delivery, over a graph whose every publication is a triggered one,
// judged by the same search; a violation is a path to devices settled
// apart, or a lasso. A node apart is accepting, a path that ends apart
// with nothing enabled is a violation of its own, and of the violations
// the one with fewest user actions is kept.
//
// observations.go is the registry of named predicates over one state
// (divergence between two screens, and others) that Observe
// (observations_search.go) searches for: reached with the shortest trace,
// written as a witness of kind observation, or not reached within the
// bounds; its line and witness file are in observations_report.go.
//
// # The reference universe
//
// reference is the formal note's bounded model: d0 and d1 upgraded, d2
// legacy dropping ov_* keys (the reference's simplification, kept as an
// option; production legacy clients carry them, as the network universes
// do); c0 and c1 with frontiers 10 and 20. Transitions: per device and
// context mark-unread, mark-read, compact (iff a register is held) on
// upgraded devices, and advance; reinstall (client id + "_r", state
// wiped); a delivery per ordered pair, a synchronous snapshot of the
// source's canonical publication. A state is, per device, the client id
// and each held context's frontier, entry flag and register (the
// reference's signature, so a reinstall makes a state new); states are
// counted at minimal depth, breadth first.
//
// # Observations
//
// The pinned answers of Observe: divergence is reached at depth 1
// (mark_unread d0 c0) in reference and network-pair;
// legacy-holds-override-key is not reached in reference at depth 4 (its
// legacy device drops ov_* keys) and is reached in network-whole at depth
// 3 (mark-unread, publish, deliver to the legacy device);
// settled-disagreement is not reached in network-pair at depth 4 (605
// states) nor in network and network-whole at depth 6, and is reached at
// depth 5 in network-pair with d0 deciding ties set-wins.
//
// # The network universes
//
// Transitions: per device the local actions and reinstall, publish and
// rotate; per ordered channel and message deliver (receive, remove),
// duplicate (receive, keep) and drop. publish d puts the current
// canonical publication, one message per coordinate part, in flight to
// every other device. A channel holds at most 2 messages and is a set
// (receipt is idempotent); a publication that would overflow a channel,
// or has no entry, is not enabled; any message of a channel may go next.
// A reinstall from the initial state is the initial state.
//
// network's frontier-only context is "spill-" and 66 x's, only advanced.
// Upgraded devices publish through the production split under a 131-byte
// budget with at most two coordinates, computed so that the primary holds
// both override contexts live with two-digit counters and their frontier
// entries (c0 and c1 never compete for room) while the spill entry fits
// beside two frontier entries only, and moves to the additional
// coordinate once an override group is published. A state is the row
// [replica per device | intent knowledge per device | channel per ordered
// pair], each word an interned id of an exact encoding. Client ids appear
// in neither the replicas' keys nor the messages: all have one length
// (reinstall and rotation swap the first letter), so they change no
// behaviour, split sizes included.
//
// # The hierarchy universe
//
// hierarchy's children are thread:aa…a and msg:bb…b, whose parent the
// universe's parent resolver resolves to the channel. The channel is only
// advanced (10, 20); the children are marked read and unread and reach
// 30, a reply newer than the channel.
//
// # Simulation
//
// Simulate runs N seeded random walks of K transitions through any
// universe, checked as the exhaustive run is. The reported violation is
// the lowest-numbered walk's, so output does not depend on workers, and
// it is shrunk (steps deleted, then each step's choice lowered, to a
// fixpoint: seven steps through the second of two legacy publications
// become five through the first, which deletion alone cannot reach) to a
// witness Replay runs.
//
// # The intent oracle
//
// Events are named by device and a per-context sequence number that
// survives reinstall; each records its causal past as a bit mask of
// sequence numbers per device. Vector clocks would not do: a reinstalled
// device's next event has a higher number yet does not know its
// predecessor's. A device knows, per context, the antichain of maximal
// events heard of: an own event replaces it, a message carries the
// sender's antichains (a split part those of the contexts whose group it
// holds), receipt keeps the maximal elements of the union, and reinstall
// forgets. Quiescence depends only on the drained devices and is memoised
// on them.
//
// # Coverage
//
// The sometimes conditions a network run counts: stale-after-compaction
// (a message published before its destination compacted a context it
// carries arrives after the compaction), tombstone-meets-live (a lone
// floor reaches a live register), split-half-way (one part of a split
// publication delivered or dropped while another is still in flight) and
// legacy-rewrites-live (the legacy device publishes ov_* keys an upgraded
// reader decodes as live). A universe lists the ones it can reach, and a
// run that reaches none of them fails N0.
//
// # Wider values
//
// A universe can be widened by frontier values and, with headroom, start
// every upgraded device at the floor C = 2^32-1-headroom on each override
// context. The initial floor is one clear by d0 that every device knows,
// and such a universe has no reinstall: a fresh installation's counters
// would race that history by counts, not intent. A mark-read refused at
// the ceiling whose advance alone ends the override is a natural clear to
// the oracle. The ceiling universe is two upgraded devices, c0, values
// 10/20/30, headroom 2 and one message per channel.
//
// # Symmetry
//
// In the network universes d0/d1 and c0/c1 are interchangeable. With
// symmetry on (the default) a state is stored as the least image of its
// orbit under the 4 renamings, comparing rows by the byte keys their words
// name, never by interned ids, which depend on the order workers interned
// them; so counts and witnesses do not depend on workers. A witness is the
// concrete trace along the stored path. Tests evaluate every check on
// every state at depth 4 and its 3 images, under the production rules and
// three broken rule sets, requiring renamed verdicts, the same violations
// and the same representative, and require the successors of a state and
// of its images to be the same orbits.
//
// # Partial-order reduction
//
// With -por the network universes run with sleep sets (package search
// holds the algorithm and the proof that every state is kept). The
// independence relation it needs is this package's: a transition touches
// only its words. A local action touches its device's replica and
// knowledge (a compaction also the channels into it); publish d touches
// d's replica, knowledge and outgoing channels; rotate d, d's replica; a
// channel action on s→d, that channel and d's replica and knowledge. Its
// enabledness, successor, findings and sometimes conditions are functions
// of the words it reads. Two transitions are independent when neither
// writes a word the other touches; then each stays enabled after the
// other, both orders reach one row, and each finds the same in either
// position. (The stale-delivery count also reads the sender; it is a
// count, not a verdict.) Under symmetry a sleep set is renamed with its
// state; a transition with no counterpart is dropped, which only explores
// more. Each N0 condition, a function of the words a transition reads, is
// met in a reduced run exactly when it is met in the full one. Tests check
// that every pair called independent commutes and finds the same in
// every state of both network universes to depth 3; that with and
// without symmetry, and with 1 and 3 workers, the reduced run keeps every
// state; and that every mutant and amendment gives the same states,
// violations and witness lengths reduced and unreduced (network at depth
// 3); make por-check compares reduced and unreduced
// runs of both network universes at depth 5 under both tie policies (224
// rule sets, 32 violating).
//
// # Liveness runs
//
// The re-publish check on network-whole (proposed, clear-wins, product
// graph bound 2,097,152 states): depth 1 is ok (15 roots, 1,583 states);
// depth 2 is ok only with -max-states 0 (146 roots, 3,341,430 states,
// 56,861,833 edges) and unknown under the bound; depth 3 (1,231 roots)
// is unknown under the bound and passed 3.5 GB of graph without it
// (stopped); depth 6 (545,364 roots) is unknown, with no fair publishing
// cycle met. The bounded runs at depths 2, 3 and 6 stop with identical
// counts (35,586,187 edges, 1,010,947 triggered publications, 2,070,903
// cyclic components, all unfair): the bound is hit inside the system-step
// closure of the first few roots, a near-DAG of distinct (channels,
// intent knowledge, last publications) combinations.
//
// # Store, checkpoints and bounds
//
// The store keeps records outside the Go heap with 8 bytes of index per
// state, and bounds memory; -store runs or -store disk trade time for
// memory beyond it, and -max-states (default 3,000,000) guards against an
// unintended large run (exit 3, unknown). A resumed run is the interrupted
// run exactly: the same indices, parents, witnesses and output, which
// tests compare over the reference and network universes, with and
// without -por, across worker counts, violating mutants and both tie
// policies; a checkpoint that does not fit the run is refused and touches
// nothing. The agreement check on network-pair at 4 user actions took
// 0.37–0.67 s (go test -bench, 3 runs).
package exhaustive
