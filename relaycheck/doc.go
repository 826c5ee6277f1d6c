// Package relaycheck probes a relay for the behaviour the full-state load
// of NIP-RS rests on (Full-State Load: the five relay requirements, the
// filter semantics the procedure relies on, and three more the load
// needs from real relays: atomic replacement, fresh answers and
// subscription capacity), with a throwaway key and events it asks the
// relay to delete afterwards.
//
// Each check sends a few REQs and publications and compares what came
// back with what NIP-01 and the requirements ask for. A check's verdict is
// conforms (the probe saw the required behaviour), violates (with the
// exact evidence: the REQ sent and the events that came back) or unknown
// (the probe could not observe it: a refused write, a timeout). A
// requirement's verdict is the worst of its checks'. Every check records
// its trials. Four checks are races and so statistical, tried
// sequentially: push delivery right after a subscription's answer (R4),
// push delivery to a subscription answered PushSettle ago (R4 to a
// settled subscription), the delivery barrier (R5) and atomic
// replacement (R6) run until a violation, or until the trials that
// exercised the race bound the violation rate at a stated confidence (0
// violations in n: the rate is at most 1-(1-c)^(1/n)), or until a cap,
// which leaves them unknown. A seen violation is a proof, a conforms a
// bound: on a relay whose race shows near the bound the verdict differs
// between runs, which no finite sample avoids: in ten probes of each
// peer, R4 flipped on rely and the newest khatru, R5 on slicestore, lmdb
// and the newest khatru, and R6 on slicestore, at rates of 0.03% to 0.5%
// per exercised trial (stability_test.go, run by hand). A client loading with two
// passes and a gap of at least PushSettle rests on none of R4 right
// after the answer, R5 and R6 (GateOptions.Passes), so the gate's
// decision for it does not depend on those samples. At the default rate
// (0.5% at 95%, 598 exercised trials) a race check took 1 to 10 s on the
// in-process peers and about 25 s on the JS relay.
// The tie order is decided with enough events at one second that a relay
// ordering ties by anything but id passes with probability below 1e-3;
// the check says the probability. Checks that need events at one second
// are sized to the cap the probe measured.
//
// What each check sends, in outline: two connections (one writes, one
// reads) and events dated a day back. R1-R3 ask three windows that differ
// only in their time bounds, read the newest prefix, ask with a limit of
// 2, size the pinned window to the measured cap, and put enough ties at
// one second to decide the tie order. The races (R4, R5, R6) run
// sequentially: a violation ends the check; otherwise trials run until
// the exercised ones bound the rate or the trial cap leaves it unknown,
// each trial's delay set so its queries land where the write lands.
// push-settled opens four subscriptions, waits PushSettle after their
// answers and awaits one write on all four. R7 sends a filter, an
// acknowledged write, and the same filter again. R8 opens up to 64
// subscriptions on one connection and checks the fence still receives
// once the load's two are open; the capacity goes into the record.
//
// The gate (Gate, GateWith) trusts positive evidence only. Records
// (Store: MemStore, or FileStore, one JSON file shared safely by
// processes) carry the probe's version, date and expiry (30 days by
// default); a record of another probe version or an expired one counts as
// absent. The policy:
//
//   - a valid record with evidence of a violation (a probe's, or a load's
//     own): no load; the verdict is cannot-prove-complete at once
//     (LoadConfig.KnownNonConforming);
//   - a valid probe record in which every load requirement
//     (LoadRequirements; with GateOptions.Passes, those the passes do
//     not defend) conforms, and whose measured subscription
//     capacity holds the caller's other subscriptions on the load's
//     connection plus the load's two: the load may say complete;
//   - anything else (no record, expired, another version, a requirement
//     unknown, too many subscriptions): the client still loads, since it
//     must be able to read its state on any relay, but the load is
//     unproven (LoadConfig.Unproven): it collects everything and ends
//     cannot-prove-complete instead of complete. Under ProbeFirst a relay
//     without a valid record is refused instead.
//
// Conn is the client every check uses: one connection, one read loop, so
// frames are seen in wire order (never go-nostr's Subscription channels or
// QuerySync), over a bounded websocket (wsconn): a relay cannot make it
// hold more than one bounded message per frame read, nor more than a
// query's limit of events, and what it hands out is verified (ids,
// signatures, filters) and escaped (Printable).
package relaycheck
