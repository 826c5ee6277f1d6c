package props

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// Prediction is what the spec's procedure must conclude over a relay
// that meets the five requirements with a constant effective cap, when
// nothing is written during the load.
type Prediction struct {
	Verdict model.Verdict
	Why     string
}

// Predict derives the verdict from the stored history alone, by the
// reasoning of the Full-State Load section rather than by running the
// procedure. With e = min(cap, n) events deliverable per query:
//
//   - the first band delivers min(total, e), so C = e whenever total >= e;
//     a second holding e or more events is the oldest second of the first
//     page that reaches it, and its pinned window delivers e >= C: a
//     plateau, cannot prove complete;
//   - when total < e the first band delivers everything, C = total, and
//     only the oldest second is pinned: it is discharged unless it holds
//     every event and there are at least L = 2 of them (the conservative
//     case the spec names);
//   - otherwise every pinned window delivers fewer than max(C, L), the
//     enumeration descends to an empty continuation: complete.
func Predict(events []*nostr.Event, cap, n int) Prediction {
	e := min(cap, n)
	per := map[nostr.Timestamp]int{}
	for _, ev := range events {
		per[ev.CreatedAt]++
	}
	total := len(events)
	var big nostr.Timestamp
	bigK := 0
	for sec, k := range per {
		if k > bigK || (k == bigK && sec > big) {
			big, bigK = sec, k
		}
	}
	switch {
	case bigK >= e:
		return Prediction{model.CannotProveComplete, fmt.Sprintf("second %d holds %d events, e=%d", big, bigK, e)}
	case len(per) == 1 && total >= model.FloorL:
		return Prediction{model.CannotProveComplete, fmt.Sprintf("all %d events in one second, fewer than e=%d", total, e)}
	}
	return Prediction{model.Complete, fmt.Sprintf("%d events, largest second %d < e=%d", total, bigK, e)}
}

// Quiescent runs the setup steps, then one load with no interference, and
// compares its verdict with Predict over what the relay stored. It also
// checks the soundness of a complete verdict.
func Quiescent(cfg Config, rules *model.Rules, setup []Step) (*World, *Violation) {
	w, err := NewWorld(cfg, rules)
	if err != nil {
		return nil, &Violation{"config", err.Error()}
	}
	defer w.close()
	for _, s := range setup {
		if s.Op != OpPublish && s.Op != OpForeign && s.Op != OpDelete && s.Op != OpTick {
			return w, &Violation{"config", "quiescent setup allows only writes, deletions and ticks: " + s.String()}
		}
		w.Apply(s)
	}
	for w.relay.Pending() > 0 {
		w.relay.Settle()
	}
	p := Predict(w.relay.Events(), cfg.Cap, cfg.N)
	w.logf("predicted %s: %s", p.Verdict, p.Why)
	w.Apply(Step{Op: OpStart})
	if v := safety(w.Finish()); v != nil {
		return w, v
	}
	if w.Running() {
		// No verdict to compare: the termination check reports it.
		w.logf("no verdict to compare with the prediction")
		return w, nil
	}
	if len(w.results) == 0 {
		// The load was refused before it started (a configuration the
		// rules do not load under): nothing to compare.
		w.logf("no load ran to compare with the prediction")
		return w, nil
	}
	res := w.results[len(w.results)-1]
	if res.Verdict != p.Verdict {
		return w, &Violation{"quiescent", fmt.Sprintf("verdict %s (%s), predicted %s (%s)", res.Verdict, res.Detail, p.Verdict, p.Why)}
	}
	return w, nil
}
