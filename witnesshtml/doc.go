// Package witnesshtml renders witnesses as one self-contained HTML page:
// the template, its script and its style are embedded (go:embed) and the
// page loads nothing from the network. The witness data is embedded as
// JSON; the page's script builds the view from it: one lane per device,
// each step on its row with publications and deliveries drawn as arrows
// between lanes (SVG), the register and verdict changes of the step, and
// the violated invariant marked, with a link that jumps to it.
//
// A lasso (the walk's or a community property's, FromLasso; the network
// liveness check's re-publish lasso or eventual-agreement witness,
// FromWitness) is drawn by one more script, carried only by a page that
// has one: its stem and its loop as a picture and as marked rows, each
// part headed in its kind's words, and what the user sees go wrong while
// the loop repeats (or, for a loop of no steps, while nothing moves).
package witnesshtml
