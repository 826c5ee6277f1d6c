package exhaustive

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nip-rs/harness/model"
)

// DiffResult is what a lockstep search of two rule sets found: the
// shortest history after which something a user can see differs, or
// none within the bound.
type DiffResult struct {
	Universe string
	Depth    int
	A, B     string
	// Pairs is the distinct pairs of states (one per rule set) explored.
	Pairs int
	// Actions is the shortest history, nil when no difference was found.
	Actions []Action
	// Differences says what differs after the last action, one line each.
	Differences []string
}

// ErrDiffNetwork is returned for a network universe: its in-flight
// publications are not yet part of the lockstep search.
var ErrDiffNetwork = errors.New("the lockstep search runs the universes with snapshot delivery (reference and its variants); a network universe is not supported yet")

// Diff searches u breadth first, to depth, running every history under
// rule sets a and b side by side, and stops at the first history after
// which a user could tell them apart: a device's read frontier, whether
// it shows a context as marked unread, whether an action was reported as
// failed, or the blob it publishes. Both sides take the same transition
// in the same order, so the first difference found is the shortest, and
// the smallest by transition order among those. States are deduplicated
// by the pair of both sides' full replica states.
func Diff(u Universe, a, b *model.Rules, depth int) (*DiffResult, error) {
	if u.Network != nil {
		return nil, ErrDiffNetwork
	}
	if depth <= 0 {
		depth = u.Depth
	}
	res := &DiffResult{Universe: u.Name, Depth: depth, A: a.Name, B: b.Name}
	type node struct {
		ra, rb []*model.Replica
		path   []Action
	}
	start := node{}
	for _, spec := range u.Devices {
		start.ra = append(start.ra, newReplica(spec, a))
		start.rb = append(start.rb, newReplica(spec, b))
	}
	if d := differences(&u, start.ra, start.rb, nil, nil); len(d) > 0 {
		res.Differences = d
		return res, nil
	}
	seen := map[string]bool{pairKey(start.ra, start.rb): true}
	level := []node{start}
	for d := 0; d < depth && len(level) > 0; d++ {
		var next []node
		for _, n := range level {
			for t := range u.numTransitions() {
				ra, rb := cloneAll(n.ra), cloneAll(n.rb)
				actA, _, okA := u.apply(ra, t)
				actB, _, okB := u.apply(rb, t)
				if !okA && !okB {
					continue
				}
				path := append(append([]Action(nil), n.path...), actA)
				var diffs []string
				if okA != okB {
					diffs = []string{fmt.Sprintf("%s is possible under %s: %t, under %s: %t", actA, a.Name, okA, b.Name, okB)}
				} else {
					diffs = differences(&u, ra, rb, &actA, &actB)
				}
				if len(diffs) > 0 {
					res.Actions, res.Differences = path, diffs
					res.Pairs = len(seen)
					return res, nil
				}
				k := pairKey(ra, rb)
				if seen[k] {
					continue
				}
				seen[k] = true
				next = append(next, node{ra, rb, path})
			}
		}
		level = next
	}
	res.Pairs = len(seen)
	return res, nil
}

func cloneAll(rs []*model.Replica) []*model.Replica {
	out := make([]*model.Replica, len(rs))
	for i, r := range rs {
		out[i] = r.Clone()
	}
	return out
}

// pairKey is both sides' full replica states. %+v prints every field,
// unexported ones included, so two replicas with one key behave alike
// from here on (the rule set pointer is the side's own, the same at every
// node of that side).
func pairKey(ra, rb []*model.Replica) string {
	var b strings.Builder
	for _, r := range ra {
		fmt.Fprintf(&b, "%+v;", *r)
	}
	b.WriteByte('|')
	for _, r := range rb {
		fmt.Fprintf(&b, "%+v;", *r)
	}
	return b.String()
}

// differences lists what a user could tell apart between the two sides,
// in the spec's terms: a failed action, a read frontier, an override
// shown, a published blob.
func differences(u *Universe, ra, rb []*model.Replica, actA, actB *Action) []string {
	var out []string
	if actA != nil && actA.failed != actB.failed {
		out = append(out, fmt.Sprintf("%s reports failure under %s: %t, under %s: %t", actA, ra[actA.Device].Rules.Name, actA.failed, rb[actB.Device].Rules.Name, actB.failed))
	}
	for i := range ra {
		x, y := ra[i], rb[i]
		for _, ctx := range u.Contexts {
			if fx, fy := x.Effective(ctx), y.Effective(ctx); fx != fy {
				out = append(out, fmt.Sprintf("d%d %s: read up to %d under %s, up to %d under %s", i, ctx, fx, x.Rules.Name, fy, y.Rules.Name))
			}
			if lx, ly := x.Live(ctx), y.Live(ctx); lx != ly {
				out = append(out, fmt.Sprintf("d%d %s: shown as marked unread under %s: %t, under %s: %t", i, ctx, x.Rules.Name, lx, y.Rules.Name, ly))
			}
		}
		if px, py := string(model.EncodeBlob(publish(x))), string(model.EncodeBlob(publish(y))); px != py {
			out = append(out, fmt.Sprintf("d%d publishes %s under %s, %s under %s", i, px, x.Rules.Name, py, y.Rules.Name))
		}
	}
	return out
}
