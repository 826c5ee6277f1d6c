// A stub client for the profile tests of the node runner: it answers every
// vector with its expected output masked to the profile STUB_PROFILE (the
// members the profile ignores removed), every 0 as -0 and every unordered
// array reversed, so that only a runner comparing as profiles.json says
// passes it. A vector the profile would skip is answered wrongly, so a
// runner that ran it fails. STUB_CORRUPT="<vector id> <path>" replaces the
// member at path (first element for []) of that vector's answer.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.STUB_VECTORS;
const doc = JSON.parse(readFileSync(join(dir, "profiles.json"), "utf8"));
const names = (process.env.STUB_PROFILE || doc.default).split(",");
const chosen = doc.profiles.filter((p) => names.includes(p.name));
const lacks = new Set(chosen.flatMap((p) => p.lacks || []));
const [corruptID, corruptPath] = (process.env.STUB_CORRUPT || " ").split(" ");

function drop(v, segs) {
  if (v === null || typeof v !== "object") return;
  const [s, ...rest] = segs;
  if (s === "[]") {
    if (Array.isArray(v) && rest.length) for (const e of v) drop(e, rest);
  } else if (rest.length === 0) delete v[s];
  else drop(v[s], rest);
}
function setAt(v, segs) {
  const [s, ...rest] = segs;
  const key = s === "[]" ? 0 : s;
  if (rest.length === 0) v[key] = "corrupted";
  else setAt(v[key], rest);
}
function negZero(v) {
  if (v === 0) return -0;
  if (Array.isArray(v)) return v.map(negZero);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, negZero(x)]));
  return v;
}

const answers = {};
for (const kind of ["codec", "register", "slots", "events", "traces", "load", "history"]) {
  const file = JSON.parse(readFileSync(join(dir, `${kind}.json`), "utf8"));
  const runs = chosen.every((p) => p.kinds.includes(kind));
  const ignore = chosen.flatMap((p) => (p.ignore || {})[kind] || []);
  const m = new Map();
  for (const v of file.vectors) {
    if (!runs || (v.needs || []).some((c) => lacks.has(c))) {
      m.set(JSON.stringify(v.input), { answered_by_a_stub_for: "a vector the profile skips" });
      continue;
    }
    const a = structuredClone(v.expected);
    for (const p of ignore) drop(a, p.split("."));
    for (const p of (doc.unordered[kind] || [])) if (Array.isArray(a[p])) a[p].reverse();
    if (v.id === corruptID) setAt(a, corruptPath.split("."));
    m.set(JSON.stringify(v.input), negZero(a));
  }
  answers[kind] = (input) => m.get(JSON.stringify(input)) ?? { answered_by_a_stub_for: "an unknown input" };
}
export const codec = answers.codec;
export const register = answers.register;
export const slots = answers.slots;
export const events = answers.events;
export const traces = answers.traces;
export const load = answers.load;
export const history = answers.history;
