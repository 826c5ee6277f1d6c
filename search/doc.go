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
// connected component under weak fairness and each node without edges,
// with a lasso (lasso_loop.go) for the first violation or the one its
// caller prefers.
package search
