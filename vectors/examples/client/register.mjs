// The override layer of NIP-RS: the register (S, C, B) per context, its
// liveness, the tombstone floor, the actions, and canonical publication of
// one installation's state (Manual-Unread Override Layer; Hierarchical
// Frontier Rule; Reserved Namespace).

import { parseBlob } from "./codec.mjs";

export const UINT32_MAX = 4294967295;
const OV = ["ov_s:", "ov_c:", "ov_b:"];
const enc = new TextEncoder();

export const join = (a, b) => [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.max(a[2], b[2])];

// live is the liveness predicate. Clear-wins (S == C is dead) is the only
// conforming tie policy; "set" is there to compare against.
export function live([s, c, b], f, tie = "clear") {
  return s > 0 && f <= b && (tie === "set" ? s >= c : s > c);
}

// canonical is the publication form of a register at frontier f.
export function canonical(reg, f) {
  const [s, c] = reg;
  if (s === 0 && c === 0) return { reg: [0, 0, 0], shape: "omit" };
  if (live(reg, f)) return { reg: [...reg], shape: "live" };
  return { reg: [0, Math.max(s, c), 0], shape: "floor" };
}

// markUnread refuses at the counter ceiling rather than wrap.
export function markUnread(reg, f) {
  const top = Math.max(reg[0], reg[1]);
  if (top === UINT32_MAX) return { reg: [...reg], error: "counter_ceiling" };
  return { reg: [top + 1, reg[1], f] };
}

// markRead runs after the frontier advanced to f. At the ceiling no
// increment exists: the action stands only if the advance alone ended the
// override, else it is reported failed with the counters unchanged.
export function markRead(reg, f) {
  const top = Math.max(reg[0], reg[1]);
  if (top === UINT32_MAX) {
    return live(reg, f) ? { reg: [...reg], error: "still_active" } : { reg: [...reg] };
  }
  return { reg: [reg[0], top + 1, reg[2]] };
}

// channelRead is the Write Discipline target: the newest top-level message,
// never a reply.
export function channelRead(messages = []) {
  const top = messages.filter((m) => m.top_level).map((m) => m.created_at);
  return top.length ? { ts: Math.max(...top), ok: true } : { ts: 0, ok: false };
}

const escapeKey = (raw) => (raw.startsWith("ov_") || raw.startsWith("esc:") ? "esc:" + raw : raw);
const unescapeKey = (wire) => (wire.startsWith("esc:") ? wire.slice(4) : wire);
const tooLongForOverride = (id) => enc.encode(id).length + 5 > 256;
const CHILD = /^(thread|msg):[0-9a-f]{64}$/;

// Installation is one client's state: per raw context id its frontier
// (and whether it has a frontier entry at all) and its register.
export class Installation {
  constructor(clientId, parents = {}) {
    this.clientId = clientId;
    this.parents = parents;
    this.ctx = new Map();
    this.lastPublished = {};
  }
  get(id) {
    if (!this.ctx.has(id)) this.ctx.set(id, { frontier: 0, hasFrontier: false, reg: [0, 0, 0] });
    return this.ctx.get(id);
  }
  frontier(id) {
    return this.ctx.has(id) ? this.ctx.get(id).frontier : 0;
  }
  // effective folds in the parent channel for a well-formed thread: or
  // msg: key whose parent is known; otherwise it is the context's own value.
  effective(id) {
    const own = this.frontier(id);
    const parent = this.parents[id];
    if (parent === undefined || !CHILD.test(id)) return own;
    return Math.max(own, this.frontier(parent));
  }
  advance(id, ts) {
    const c = this.get(id);
    c.frontier = Math.max(c.frontier, ts);
    c.hasFrontier = true;
  }
  markUnread(id) {
    // Override keys longer than 256 bytes would be dropped by every
    // receiver: refuse rather than publish a register nobody can read.
    if (tooLongForOverride(id)) return "key_too_long";
    const c = this.get(id);
    const r = markUnread(c.reg, this.effective(id));
    c.reg = r.reg;
    return r.error;
  }
  markRead(id, ts) {
    this.advance(id, ts);
    const c = this.get(id);
    // A floor under a key no receiver accepts would never reach a peer:
    // such a context keeps its (virgin) register.
    if (tooLongForOverride(id)) return undefined;
    const r = markRead(c.reg, this.effective(id));
    c.reg = r.reg;
    return r.error;
  }
  compact(id) {
    // Compacting a context the installation never saw creates nothing.
    if (!this.ctx.has(id)) return;
    const c = this.get(id);
    c.reg = canonical(c.reg, this.effective(id)).reg;
  }
  // receive validates a peer's entries as a blob would be (groups judged
  // whole) and merges what is kept by max.
  receive(clientId, entries) {
    const plaintext = JSON.stringify({ v: 1, client_id: clientId, contexts: entries });
    const blob = parseBlob(enc.encode(plaintext));
    if (blob.outcome !== "accept") return;
    for (const [key, value] of Object.entries(blob.entries ?? {})) {
      const i = OV.findIndex((p) => key.startsWith(p));
      if (i >= 0) {
        const c = this.get(key.slice(5));
        c.reg[i] = Math.max(c.reg[i], value);
      } else this.advance(unescapeKey(key), value);
    }
  }
  // candidate is the canonical blob's contexts: escaped frontier keys and
  // every register in its publication form at its effective frontier.
  candidate() {
    const out = {};
    for (const [id, c] of this.ctx) {
      if (c.hasFrontier) out[escapeKey(id)] = c.frontier;
      const { reg, shape } = canonical(c.reg, this.effective(id));
      if (shape === "live") {
        out["ov_s:" + id] = reg[0];
        out["ov_c:" + id] = reg[1];
        out["ov_b:" + id] = reg[2];
      } else if (shape === "floor") out["ov_c:" + id] = reg[1];
    }
    return out;
  }
  publish() {
    this.lastPublished = this.candidate();
  }
  // needsRepublish compares canonical to canonical, as Live Subscription
  // and Convergence asks; never having published counts as an empty blob.
  needsRepublish() {
    return !sameEntries(this.candidate(), this.lastPublished);
  }
  // view is what a script step compares: the effective frontier and
  // liveness of every context that is read (effective frontier above 0) or
  // kept unread by a live override, the candidate blob, the re-publish
  // decision, and every stored context's raw frontier and register (the
  // full profile alone compares those: a client storing canonically holds
  // other raw values with the same behaviour).
  view() {
    const contexts = {};
    const registers = {};
    for (const [id, c] of this.ctx) {
      const effective = this.effective(id);
      const isLive = live(c.reg, effective);
      if (effective > 0 || isLive) contexts[id] = { effective, live: isLive };
      registers[id] = { frontier: c.frontier, reg: [...c.reg] };
    }
    return { contexts, candidate: this.candidate(), needs_republish: this.needsRepublish(), registers };
  }
}

function sameEntries(a, b) {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

// A step member the vectors leave out is read as zero (an absent ts).
function runScript(input) {
  const inst = new Installation("me", input.parents ?? {});
  const after = [];
  for (const step of input.steps) {
    let error;
    const ts = step.ts ?? 0;
    switch (step.do) {
      case "advance":
        inst.advance(step.ctx, ts);
        break;
      case "mark_unread":
        error = inst.markUnread(step.ctx);
        break;
      case "mark_read":
        error = inst.markRead(step.ctx, ts);
        break;
      case "compact":
        inst.compact(step.ctx);
        break;
      case "publish":
        inst.publish();
        break;
      case "receive":
        inst.receive(step.client_id, step.entries ?? {});
        break;
      default:
        throw new Error(`unknown step ${JSON.stringify(step.do)}`);
    }
    const v = inst.view();
    after.push(error ? { error, ...v } : v);
  }
  return { after };
}

const withError = (r) => (r.error ? { reg: r.reg, error: r.error } : { reg: r.reg });

// registerVector is the runner's entry for one register vector's input.
export function registerVector(input) {
  switch (input.op) {
    case "join":
      return { reg: join(input.a, input.b) };
    case "live":
      return { live: live(input.reg, input.frontier ?? 0, input.tie) };
    case "canonical":
      return canonical(input.reg, input.frontier ?? 0);
    case "mark_unread":
      return withError(markUnread(input.reg, input.frontier ?? 0));
    case "mark_read":
      return withError(markRead(input.reg, input.frontier ?? 0));
    case "channel_read":
      return channelRead(input.messages);
    case "script":
      return runScript(input);
    default:
      throw new Error(`unknown op ${JSON.stringify(input.op)}`);
  }
}
