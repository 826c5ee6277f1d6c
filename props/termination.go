package props

import (
	"fmt"

	"github.com/nip-rs/harness/model"
)

// CheckTermination names the liveness check of the full-state load:
// every load reaches a verdict.
const CheckTermination = "termination"

// pushRetries is how often the load asks a band again after it delivered
// only events the fence pushed meanwhile (the model's bound on repeated
// bands). The load keeps it private; if the load ever allowed more, the
// termination search over the production rules would report it.
const pushRetries = 3

// boundTerms are what TerminationBound is computed from, taken when
// Finish begins.
type boundTerms struct {
	events  int // E: stored events plus split replacements still to be saved
	splits  int // S: split replacements pending
	pushes  int // U: pushes the load can still receive
	passes  int // P: the passes a load runs (at least one)
	n       int // the load's limit
	backlog int // messages already queued either way when Finish begins
}

func (w *World) terms() boundTerms {
	t := boundTerms{splits: w.relay.Pending(), passes: max(w.cfg.Passes, 1), n: w.cfg.N}
	t.events = len(w.relay.Events()) + t.splits
	// Each settled split saves one version, pushed at most once to each
	// subscription open on the connection: the fence, the load's query
	// and the installation's others.
	t.pushes = t.splits * (2 + w.cfg.Others)
	if w.conn != nil {
		t.pushes += w.conn.Pushes()
		t.backlog = w.conn.Outbound() + w.conn.Inbound()
	}
	return t
}

// TerminationBound is the most messages a running load may exchange
// under Finish's fair schedule before it must have reached a verdict. A
// message is one step of that schedule: one relay message the load
// reads, one client message the relay processes, one flush, one
// registration or one settled split.
//
// The argument, with E, S, U, P, n and the backlog as in boundTerms and
// R = pushRetries:
//
//   - Nothing is written during Finish except the splits it settles, so
//     the relay stores at most E events, and the pushes the load can
//     still receive number at most U.
//   - Within a pass, every band that delivers a stored result sets the
//     cursor T to at most its lowest created_at and the next band asks
//     until T-1, so the cursor passes each second that holds an event at
//     most once; a band whose results are all pushes above its until
//     leaves T where it was, and uses up a push. A pass thus has at most
//     E + U + 1 bands, the last one empty (or T reaches 0).
//   - Each band is asked at most 1 + R times (a band answered only by
//     pushes is repeated at most R times), and each is followed by at most
//     one pinned window at T: at most (E + U + 1)(R + 2) queries a pass.
//   - A load runs at most P passes, then one round trip after the last
//     when P > 1, and the fence's REQ comes before the first pass: at
//     most Q = P(E + U + 1)(R + 2) + 2 queries.
//   - Each query costs at most n + 4 messages: its REQ and its CLOSE
//     processed, at most n stored results (the relay never delivers past
//     the limit, and the load stops at a delivery past it), its
//     end-of-stored-events, and one registration for pushes.
//   - Each push costs two (its flush and its reading), each split one
//     settle, each message queued when Finish begins at most n + 4 (a REQ
//     waiting to be processed costs what a query does), and the load's
//     final CLOSEs two.
//
// So the bound is (Q + backlog)(n + 4) + 2U + S + 2. It is linear in the
// stored events times the passes, and its constants come from the load's
// structure, not from a measurement.
func (w *World) TerminationBound() int { return w.terms().bound() }

// FinishMessages is how many messages the last Finish counted while a
// load was running, and the TerminationBound it was held to.
func (w *World) FinishMessages() (used, bound int) { return w.finishUsed, w.finishBound }

func (t boundTerms) bound() int {
	q := t.passes*(t.events+t.pushes+1)*(pushRetries+2) + 2
	return (q+t.backlog)*(t.n+4) + 2*t.pushes + t.splits + 2
}

func (t boundTerms) String() string {
	return fmt.Sprintf("%d from E=%d S=%d U=%d P=%d n=%d backlog=%d", t.bound(), t.events, t.splits, t.pushes, t.passes, t.n, t.backlog)
}

// TerminationProperty is the termination check: the soundness check's
// scenario (a starting history, a load, up to 40 interleaved steps), then
// Finish's fair schedule, under which the load must reach a verdict within
// TerminationBound messages. Violations of other checks along the way are
// theirs to report: a load that reached any verdict terminated.
func TerminationProperty(rules *model.Rules, profile string) Property {
	return terminationProperty(rules, profile, new(int))
}

// terminationProperty is TerminationProperty counting in running the
// scenarios whose load was still running when Finish began: only those
// say anything about termination.
func terminationProperty(rules *model.Rules, profile string, running *int) Property {
	return func(src Source) (*Witness, []string, error) {
		cfg := DrawConfig(src, profile)
		w, err := NewWorld(cfg, rules)
		if err != nil {
			return nil, nil, err
		}
		defer w.close()
		wit := Witness{Check: CheckTermination, Rules: rules.Name, Config: cfg}
		apply := func(s Step) {
			wit.Steps = append(wit.Steps, s)
			_ = w.Apply(s) // a safety violation is not this check's
		}
		for _, s := range DrawSetup(src) {
			apply(s)
		}
		apply(Step{Op: OpStart})
		for range src.IntRange(0, maxInterleaved, "steps") {
			apply(drawStepFor(src, cfg))
		}
		if w.Running() {
			*running++
		}
		if v := liveness(w.Finish()); v != nil {
			return found(wit, v, w)
		}
		return nil, nil, nil
	}
}

// liveness keeps only the violations that mean a load reached no
// verdict.
func liveness(v *Violation) *Violation {
	if v != nil && (v.Check == CheckTermination || v.Check == "stuck") {
		return v
	}
	return nil
}

// safety drops the violations that mean a load reached no verdict: the
// soundness and quiescent checks judge verdicts, and leave a load that
// never gives one to the termination check (which would otherwise be
// reported three times over).
func safety(v *Violation) *Violation {
	if v != nil && v.Check == CheckTermination {
		return nil
	}
	return v
}

// replayTermination re-runs a termination witness's scenario.
func replayTermination(cfg Config, rules *model.Rules, steps []Step) (*Violation, []string) {
	w, err := NewWorld(cfg, rules)
	if err != nil {
		return &Violation{"config", err.Error()}, nil
	}
	defer w.close()
	for _, s := range steps {
		_ = w.Apply(s)
	}
	return liveness(w.Finish()), w.Log()
}
