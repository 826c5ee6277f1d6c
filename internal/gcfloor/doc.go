// Package gcfloor keeps the garbage collector's heap goal from falling
// below a floor while the live heap is small.
//
// The collector starts a cycle once the heap has grown by GOGC percent of
// what the last cycle left live. The explorer keeps its large tables
// outside the Go heap (internal/offheap), so a run's live heap can be a
// few megabytes while it allocates short-lived garbage at a high rate:
// at the default the collector then runs hundreds of times a second. A
// floor raises the percent after each cycle just enough that the next
// goal is at least the floor, and never lowers it below the base; once
// the live heap passes half the floor the base percent is what applies.
// Where GOGC is set in the environment nothing is changed: the user's
// setting wins.
package gcfloor
