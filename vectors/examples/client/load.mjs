// The full-state load of the override layer, sans I/O: it is given the
// relay's frames one at a time and answers with the messages it sends
// (REQ, CLOSE), until it reaches a verdict (Full-State Load).
//
// Beside the text it runs the proposals the vectors are generated under,
// each named where it acts: distinct-load-filters (the first band carries
// an explicit until), in-flight-push-not-result, limit-judged-on-results,
// results-newest-first, fence-within-capacity, unproven-relay-not-complete,
// and a configured number of passes.

const KIND = 30078;
const L = 2; // the floor the NIP fixes
const UINT32_MAX = 4294967295;
const OVERFLOW = 64; // deliveries past n before an EOSE the load will hold
const SLOT = /^read-state:[0-9a-f]{32}$/;

export class FullStateLoad {
  constructor(config) {
    this.cfg = config;
    this.n = config.limit;
    this.prefix = config.sub_prefix;
    this.passes = config.passes ?? 1;
    this.pass = 1;
    this.seq = 0;
    this.C = 0;
    this.coords = new Map(); // d tag -> {created_at, id}
    this.resultIds = new Set(); // ids some query counted as a result
    this.fence = `${this.prefix}-fence`;
    this.fenceUp = false;
    this.fenceCount = 0;
    this.query = undefined; // the query in flight
    this.verdict = "running";
    this.reason = "none";
  }

  base() {
    return { kinds: [KIND], authors: [this.cfg.pubkey] };
  }

  start() {
    if (this.cfg.known_non_conforming) return this.finishQuiet("cannot-prove-complete", "non-conforming");
    // fence-within-capacity: the fence and one query must fit beside the
    // client's other subscriptions, or the relay may evict one silently.
    if (this.cfg.relay_max_subs && (this.cfg.other_subs ?? 0) + 2 > this.cfg.relay_max_subs)
      return this.finishQuiet("cannot-prove-complete", "subscriptions");
    return [["REQ", this.fence, { ...this.base(), limit: this.n }]];
  }

  finishQuiet(verdict, reason) {
    this.verdict = verdict;
    this.reason = reason;
    return [];
  }

  // finish renders the verdict: the query still open is CLOSEd, then the
  // fence, even one the relay CLOSED.
  finish(verdict, reason) {
    const out = [];
    if (this.query && !this.query.closedByRelay) out.push(["CLOSE", this.query.sub]);
    out.push(["CLOSE", this.fence]);
    this.query = undefined;
    this.verdict = verdict;
    this.reason = reason;
    return out;
  }

  done() {
    return this.verdict !== "running";
  }

  ask(kind, filter) {
    this.seq++;
    this.query = { sub: `${this.prefix}-q${this.seq}`, kind, filter, results: [], deliveries: 0, pushed: new Set() };
    return ["REQ", this.query.sub, { ...this.base(), ...filter, limit: this.n }];
  }

  // band asks the next descending band; the first band of a pass carries
  // first_until (distinct-load-filters), the text's has no until at all.
  band(until) {
    return this.ask("band", until === undefined ? {} : { until });
  }

  firstBand() {
    return this.band(this.cfg.first_until);
  }

  feed(frame) {
    if (this.done()) return [];
    const [type, sub] = frame;
    switch (type) {
      case "LOST":
        // Nothing can be sent on a dropped connection.
        return this.fenceUp
          ? this.finishQuiet("cannot-prove-complete", "fence-lapsed")
          : this.finishQuiet("failed", "relay-failure");
      case "CLOSED":
        if (sub === this.fence) {
          return this.fenceUp ? this.finish("cannot-prove-complete", "fence-lapsed") : this.finish("failed", "relay-failure");
        }
        if (this.query && sub === this.query.sub) {
          this.query.closedByRelay = true;
          return this.finish("failed", "relay-failure");
        }
        return [];
      case "EOSE":
        if (sub === this.fence) {
          if (this.fenceUp) return [];
          this.fenceUp = true;
          // With passes, the client waits its gap here: a relay that
          // registers a subscription for pushes only after answering it
          // has registered the fence before the first query.
          if (this.passes > 1) this.waitDue = true;
          return [this.firstBand()];
        }
        if (this.query && sub === this.query.sub) return this.endQuery();
        return [];
      case "EVENT":
        if (sub === this.fence) return this.fenceEvent(frame[2]);
        if (this.query && sub === this.query.sub) return this.queryEvent(frame[2]);
        return [];
      default:
        return [];
    }
  }

  fenceEvent(ev) {
    if (!matches(ev, this.cfg.pubkey, {})) return this.finish("cannot-prove-complete", "non-conforming");
    this.collect(ev);
    if (!this.fenceUp) {
      // Before its EOSE the fence may carry pushes beside its stored
      // events; only a flood past any reading of the limit stops the load.
      if (++this.fenceCount > this.n + OVERFLOW) return this.finish("cannot-prove-complete", "fence-overflow");
      return [];
    }
    // in-flight-push-not-result: an event a query counted as a result and
    // the fence pushes afterwards may have been a push on that query too.
    if (this.resultIds.has(ev.id)) return this.finish("cannot-prove-complete", "query-push");
    if (this.query) this.query.pushed.add(ev.id);
    return [];
  }

  queryEvent(ev) {
    const q = this.query;
    if (++q.deliveries > this.n + OVERFLOW) return this.finish("cannot-prove-complete", "fence-overflow");
    // An event outside the filter is evidence at once; the count and the
    // order of results can only be judged at the EOSE.
    if (!matches(ev, this.cfg.pubkey, q.filter)) return this.finish("cannot-prove-complete", "non-conforming");
    this.collect(ev);
    // in-flight-push-not-result: what the fence pushed while a band was
    // in flight may reach it as a push, not as a stored result, and must
    // not move the cursor. A pinned window counts it all the same: a
    // larger count only makes step 5 more cautious.
    if (q.kind === "band" && q.pushed.has(ev.id)) return [];
    q.results.push(ev);
    return [];
  }

  endQuery() {
    const q = this.query;
    const out = [["CLOSE", q.sub]];
    this.query = undefined;
    // in-flight-push-not-result holds whichever came first: a band result
    // the fence pushed later in the same flight is no result either.
    if (q.kind === "band") q.results = q.results.filter((e) => !q.pushed.has(e.id));
    const then = (msgs) => out.concat(msgs);
    // limit-judged-on-results; results-newest-first.
    if (q.results.length > this.n || !newestFirst(q.results)) return then(this.finish("cannot-prove-complete", "non-conforming"));
    for (const ev of q.results) this.resultIds.add(ev.id);
    const count = q.results.length;
    if (q.kind === "band") {
      if (count === 0) {
        // A band whose every delivery was an in-flight push proves
        // nothing: ask again, one second lower so no filter repeats.
        if (q.deliveries > 0) return then([this.band((q.filter.until ?? UINT32_MAX) - 1)]);
        return then(this.enumerationEnded());
      }
      const T = Math.min(...q.results.map((e) => e.created_at));
      this.C = Math.max(this.C, count);
      this.T = T;
      return then([this.ask("pinned", { since: T, until: T })]);
    }
    if (q.kind === "pinned") {
      // Step 5: the second is exhausted only below max(C, L), C taken over
      // the queries before this one.
      if (count >= Math.max(this.C, L)) {
        this.plateau = this.T;
        return then(this.finish("cannot-prove-complete", "plateau"));
      }
      this.C = Math.max(this.C, count);
      return then([this.band(this.T - 1)]);
    }
    // The last round trip after several passes: pushes queued before it
    // have arrived by its EOSE.
    return then(this.complete());
  }

  enumerationEnded() {
    if (this.pass < this.passes) {
      this.pass++;
      this.waitDue = true; // the gap before each later pass
      return [this.firstBand()];
    }
    if (this.passes > 1) {
      this.waitDue = true; // the gap before the last round trip
      return [this.ask("final", { since: UINT32_MAX, until: UINT32_MAX })];
    }
    return this.complete();
  }

  complete() {
    // unproven-relay-not-complete: without a record of the relay meeting
    // the relay requirements the enumeration's end proves nothing more.
    if (this.cfg.unproven) return this.finish("cannot-prove-complete", "unproven");
    return this.finish("complete", "none");
  }

  // collect keeps, per read-state d tag, the greatest created_at and on a
  // tie the lowest id (step 2); other events are ignored here.
  collect(ev) {
    const d = ev.tags.filter((t) => t[0] === "d");
    if (d.length !== 1 || !SLOT.test(d[0][1])) return;
    const prev = this.coords.get(d[0][1]);
    if (!prev || ev.created_at > prev.created_at || (ev.created_at === prev.created_at && ev.id < prev.id))
      this.coords.set(d[0][1], { created_at: ev.created_at, id: ev.id });
  }

  result() {
    const coordinates = {};
    for (const [d, v] of [...this.coords].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) coordinates[d] = v.id;
    const out = { verdict: this.verdict, reason: this.reason, coordinates };
    if (this.plateau !== undefined) out.plateau_second = this.plateau;
    return out;
  }
}

function matches(ev, pubkey, filter) {
  if (!wellFormed(ev) || ev.pubkey !== pubkey || ev.kind !== KIND) return false;
  if (filter.until !== undefined && ev.created_at > filter.until) return false;
  return filter.since === undefined || ev.created_at >= filter.since;
}

function wellFormed(ev) {
  return (
    ev !== null &&
    typeof ev === "object" &&
    typeof ev.id === "string" &&
    typeof ev.pubkey === "string" &&
    Number.isInteger(ev.created_at) &&
    Number.isInteger(ev.kind) &&
    Array.isArray(ev.tags) &&
    ev.tags.every((t) => Array.isArray(t) && t.every((x) => typeof x === "string"))
  );
}

// newestFirst: results in non-increasing created_at. The order of ties
// is not judged: an order of equal seconds is no evidence the client can
// act on (the load never relies on it).
function newestFirst(evs) {
  for (let i = 1; i < evs.length; i++) if (evs[i].created_at > evs[i - 1].created_at) return false;
  return true;
}

// loadVector is the runner's entry for one load vector's input.
export function loadVector(input) {
  const load = new FullStateLoad(input.config);
  const start = load.start();
  const waits = [];
  const replies = input.frames.map((f, i) => {
    const out = load.feed(f);
    if (load.waitDue) waits.push(i);
    load.waitDue = false;
    return out;
  });
  const out = { start, replies, ...load.result() };
  if (waits.length > 0) out.waits = waits;
  return out;
}
