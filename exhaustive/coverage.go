package exhaustive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// Non-vacuity. A check that never meets the situation it guards passes
// vacuously, so a network universe counts, over every transition it
// executes, the executed actions per kind and four named sometimes
// conditions that must be reached; and over every state it checks, the
// contexts the intent oracle judged and did not judge. A run that reaches
// none of its sometimes conditions fails (InvNetVacuous).

// CoverageCount is one coverage line: a name and how often it was met.
type CoverageCount struct {
	Name  string
	Count int64
}

// The sometimes conditions.
const (
	// A message published before its destination compacted a context it
	// carries (changing that register) is delivered after the compaction.
	SometimesStaleAfterCompaction = "stale-after-compaction"
	// A lone tombstone floor reaches a replica whose register for that
	// context is live.
	SometimesTombstoneMeetsLive = "tombstone-meets-live"
	// One coordinate part of a split publication is delivered or dropped
	// while another part of the same publication is still in flight.
	SometimesSplitHalfWay = "split-half-way"
	// The legacy device publishes ov_* keys of a register that is live at
	// its frontier as an upgraded reader decodes them.
	SometimesLegacyRewritesLive = "legacy-rewrites-live"
)

// SometimesConditions lists the sometimes conditions in report order.
var SometimesConditions = []string{SometimesStaleAfterCompaction, SometimesTombstoneMeetsLive, SometimesSplitHalfWay, SometimesLegacyRewritesLive}

// sometimes lists the conditions the universe can reach at all: a split
// half-way needs split publications, a legacy rewrite of a live override a
// legacy device that carries ov_* keys.
func (w *netWorld) sometimes() []string {
	var out []string
	for _, s := range SometimesConditions {
		switch s {
		case SometimesSplitHalfWay:
			if w.net.Budget == nil {
				continue
			}
		case SometimesLegacyRewritesLive:
			if !slices.ContainsFunc(w.u.Devices, func(d DeviceSpec) bool { return d.Legacy && d.LegacyMode == model.LegacyCarry }) {
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// Counter name prefixes in a tally.
const (
	actionCoverage    = "action:"
	sometimesCoverage = "sometimes:"
	oracleCoverage    = "oracle:"
	extraCoverage     = "delivery:"
)

// Delivery coverage lines beside the sometimes conditions.
const (
	deliveryStale     = "stale (the sender has changed since publishing)"
	deliveryReordered = "another message still in flight on the channel"
	deliveryPart      = "a coordinate part of a split publication"
)

// Oracle coverage lines.
const (
	oracleLive     = "judged live"
	oracleDead     = "judged not live"
	oracleUnjudged = "not judged"
)

// coverChannel counts what delivering, duplicating or dropping message m
// meets.
func (w *netWorld) coverChannel(c *cache, cur []int32, x netTrans, m int32, tl *search.Tally) {
	msg := w.t.msgs.get(m)
	msgs := w.t.chans.get(cur[w.chWord(x.from, x.dev)])
	for _, o := range msgs {
		if o == m {
			continue
		}
		om := w.t.msgs.get(o)
		if msg.parts > 1 && om.parts == msg.parts && om.part != msg.part {
			tl.Count(sometimesCoverage+SometimesSplitHalfWay, 1)
		}
	}
	if x.kind == KindDrop {
		return
	}
	if len(msgs) > 1 {
		tl.Count(extraCoverage+deliveryReordered, 1)
	}
	if msg.parts > 1 {
		tl.Count(extraCoverage+deliveryPart, 1)
	}
	if !slices.Contains(w.publish(c, x.from, node{cur[x.from], cur[w.knWord(x.from)]}).msgs, m) {
		tl.Count(extraCoverage+deliveryStale, 1)
	}
	if msg.flags&msg.holds != 0 {
		tl.Count(sometimesCoverage+SometimesStaleAfterCompaction, 1)
	}
	if msg.floors != 0 && !w.u.Devices[x.dev].Legacy {
		live := c.fact(x.dev, cur[x.dev]).live
		for i := range w.ov {
			if msg.floors&(1<<i) != 0 && live[w.uAt[i]] {
				tl.Count(sometimesCoverage+SometimesTombstoneMeetsLive, 1)
				break
			}
		}
	}
}

// coverPublish counts a legacy device's publication of a live group.
func (w *netWorld) coverPublish(c *cache, dev int, rep int32, tl *search.Tally) {
	if !w.u.Devices[dev].Legacy {
		return
	}
	nc := w.nc(c)
	live, ok := nc.legacy[rep]
	if !ok {
		reader := newReplica(DeviceSpec{ClientID: "reader", Parent: w.u.Devices[0].Parent}, w.e.rules)
		reader.Receive(w.replica(dev, rep).Candidate())
		for i, ctx := range w.ov {
			if reader.Live(ctx) {
				live |= 1 << i
			}
		}
		nc.legacy[rep] = live
	}
	if live != 0 {
		tl.Count(sometimesCoverage+SometimesLegacyRewritesLive, 1)
	}
}

// coverage collects the counters with one prefix, in the order of names
// (every name listed, reached or not) followed by any other counter.
func coverage(t *search.Tally, prefix string, names []string) []CoverageCount {
	var out []CoverageCount
	for _, n := range names {
		out = append(out, CoverageCount{n, t.Counter(prefix + n)})
	}
	var extra []string
	for k := range t.Counters() {
		if n, ok := strings.CutPrefix(k, prefix); ok && !slices.Contains(names, n) {
			extra = append(extra, n)
		}
	}
	slices.Sort(extra)
	for _, n := range extra {
		out = append(out, CoverageCount{n, t.Counter(prefix + n)})
	}
	return out
}

// networkKinds are the network universes' action kinds in report order.
var networkKinds = []Kind{KindMarkUnread, KindMarkRead, KindCompact, KindAdvance, KindReinstall, KindPublish, KindRotate,
	KindDeliver, KindDuplicate, KindDrop}

func (w *netWorld) finish(run *search.Run, res *Result) {
	res.Symmetry = w.sym != nil
	var kinds []string
	for _, k := range networkKinds {
		kinds = append(kinds, k.String())
	}
	res.Actions = coverage(run.Tally, actionCoverage, kinds)
	conds := w.sometimes()
	res.Sometimes = coverage(run.Tally, sometimesCoverage, conds)
	res.Deliveries = coverage(run.Tally, extraCoverage, []string{deliveryStale, deliveryReordered, deliveryPart})
	res.Oracle = coverage(run.Tally, oracleCoverage, []string{oracleLive, oracleDead, oracleUnjudged})
	reached := 0
	for _, s := range res.Sometimes {
		if s.Count > 0 {
			reached++
		}
	}
	run.Tally.Add(unitConditions, int64(len(conds)))
	if reached == 0 {
		run.Tally.Violate(search.Index(networkTable, InvNetVacuous))
	}
}

// Unreached lists the sometimes conditions a run did not reach.
func (r *Result) Unreached() []string {
	var out []string
	for _, s := range r.Sometimes {
		if s.Count == 0 {
			out = append(out, s.Name)
		}
	}
	return out
}

// CoverageLines renders the coverage of a network run, one line per group.
func (r *Result) CoverageLines() []string {
	if r.Actions == nil {
		return nil
	}
	line := func(title string, cs []CoverageCount, unit string) string {
		var parts []string
		for _, c := range cs {
			parts = append(parts, fmt.Sprintf("%s %s", c.Name, num.Commas(int(c.Count))))
		}
		return fmt.Sprintf("%s (%s): %s", title, unit, strings.Join(parts, ", "))
	}
	sym := "off"
	if r.Symmetry {
		sym = "on"
	}
	out := []string{
		line("actions", r.Actions, "executed transitions"),
		line("sometimes", r.Sometimes, "transitions reaching it"),
		line("deliveries", r.Deliveries, "deliveries and duplicates"),
		line("oracle", r.Oracle, "contexts at quiescence, over every state"),
		"symmetry reduction: " + sym,
	}
	if u := r.Unreached(); len(u) > 0 {
		out = append(out, "NOT REACHED: "+strings.Join(u, ", "))
	}
	return out
}
