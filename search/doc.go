// Package search is the explorer's engine: a breadth-first search over any
// World whose global states are fixed-width rows of int32 words.
//
// The engine knows nothing of replicas, relays or the protocol. A World
// names its invariants in one table (Invariant), generates successors and
// runs its checks; the engine stores every distinct row once (the key is
// exact, the hash only locates it), expands each level in parallel and
// merges the pieces in generation order, counts every check by the unit its
// invariant declares, and keeps the smallest violation by (depth, trace,
// invariant precedence), so the counts and the reported hit do not depend on
// the number of workers.
//
// The package also holds the liveness checks' shared search (lasso.go):
// Tarjan's algorithm over a graph its caller numbers, judging each strongly
// connected component under weak fairness, with a lasso for the first
// violation.
//
// # Sleep sets
//
// Partial-order reduction (Config.POR, over a World that implements
// Reducer) skips transitions, never states. A state with sleep set Z
// executes its enabled transitions not in Z in index order; the successor
// by t gets {u in Z or executed before t : u independent of t}. A state
// reached at its minimal depth by several parents keeps the intersection
// of their sets; reached deeper, its own. Intersections commute, so the
// number of workers does not matter.
//
// Why every state is kept: take u at minimal depth k and π, the least (by
// transition indices) of the length-k paths to u, in the class closed
// under swapping adjacent independent transitions. Along π each prefix
// state is stored at its depth, and π's next transition is not asleep
// there: had a parent handed it down, it was executed or put to sleep
// above and is independent of everything since, so moving it earlier
// would give a smaller equivalent path. Intersecting only removes
// transitions from a sleep set, and renaming under symmetry changes
// nothing since transitions and checks are symmetric. Hence a state
// invariant fails on the same states at the same depths with the same
// counts, and a transition invariant skipped at a state was executed at
// an ancestor no deeper on the same words.
package search
