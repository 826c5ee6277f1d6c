// Runs the NIP-RS conformance vectors against a client's own code with
// node's built-in test runner and nothing else:
//
//   NIPRS_CLIENT=./my-adapter.mjs node --test vectors/examples/
//   NIPRS_CLIENT=./my-adapter.mjs node vectors/examples/vectors.test.mjs --profile legacy-decoder
//
// The adapter module (yours; none ships here) exports one function per kind
// it implements: codec, register, slots, events, traces, load, history. Each
// takes a vector's `input` object and returns the output object to compare
// with `expected`. A kind without a function is skipped.
//
// --profile NAME (or NIPRS_PROFILE=NAME; default full) says what the client
// implements, from vectors/profiles.json: the runner runs the profile's
// kinds, skips a vector whose `needs` names a capability the profile lacks,
// and compares only the members the profile does not ignore. Profiles
// combine with a comma (legacy-decoder,json-parse). NIPRS_KINDS=load,history
// runs only those kinds. NIPRS_RULES=spec runs only the vectors that hold
// under NIP-RS as written: a vector with a `proposals` member holds only
// under those proposals of ERRATA.md, and is skipped.
//
// Outputs compare as JSON values: object member order does not matter, 0
// and -0 are equal, and the arrays profiles.json lists as unordered compare
// as multisets. At the end the runner prints, per file, how many vectors
// passed, failed and were skipped, with each skip reason counted; it exits
// non-zero when no vector ran at all.
//
// load and history are scripted relays: the function runs the client's
// full-state load (or history round) feeding it input.frames (or each
// page's relay messages) in order and returns what it sent after each and
// its verdict; see each file's how_to_run. Export `byValueIntegers = true` if your parser reads number
// literals by value: codec vectors then compare with by_value_expected
// where a vector has one. Likewise `distinctKeyLimit = true` (the
// 10,000-entry limit counts distinct keys) compares with
// distinct_keys_expected and `utf8DiscardsEvent = true` (a key that is not
// UTF-8 discards the event) with utf8_discard_expected.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const adapterPath = process.env.NIPRS_CLIENT;
const adapter = adapterPath ? await import(pathToFileURL(resolve(adapterPath)).href) : {};
const profiles = JSON.parse(readFileSync(join(here, "..", "profiles.json"), "utf8"));

function profileArg() {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--profile") return argv[i + 1];
    if (argv[i].startsWith("--profile=")) return argv[i].slice("--profile=".length);
  }
  return process.env.NIPRS_PROFILE || profiles.default;
}

// combine merges named profiles: kinds intersect, lacks and ignores add up.
function combine(spec) {
  const names = String(spec).split(",").map((s) => s.trim()).filter(Boolean);
  const known = new Map(profiles.profiles.map((p) => [p.name, p]));
  const unknown = names.filter((n) => !known.has(n));
  if (names.length === 0 || unknown.length > 0) {
    console.error(`unknown profile ${unknown.join(", ") || "(none)"}; profiles: ${[...known.keys()].join(", ")}`);
    process.exit(2);
  }
  const ps = names.map((n) => known.get(n));
  const kinds = ps.reduce((acc, p) => acc.filter((k) => p.kinds.includes(k)), ps[0].kinds);
  const lacks = [...new Set(ps.flatMap((p) => p.lacks || []))];
  const ignore = {};
  for (const p of ps) {
    for (const [k, paths] of Object.entries(p.ignore || {})) ignore[k] = [...(ignore[k] || []), ...paths];
  }
  return { name: names.join(","), kinds, lacks, ignore };
}
const profile = combine(profileArg());

// drop removes the member at path (names and [] segments) from v, in place.
function drop(v, segs) {
  if (v === null || typeof v !== "object") return;
  const [s, ...rest] = segs;
  if (s === "[]") {
    if (Array.isArray(v)) for (const e of v) rest.length ? drop(e, rest) : undefined;
    return;
  }
  if (rest.length === 0) delete v[s];
  else drop(v[s], rest);
}
function mask(v, paths) {
  if (v === null || typeof v !== "object" || !paths || paths.length === 0) return v;
  const copy = structuredClone(v);
  for (const p of paths) drop(copy, p.split("."));
  return copy;
}

// canon is a value's text with sorted members and -0 as 0, the key a
// multiset comparison sorts by.
function canon(v) {
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  if (v !== null && typeof v === "object") {
    return `{${Object.keys(v).filter((k) => v[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(",")}}`;
  }
  return Object.is(v, -0) ? "0" : JSON.stringify(v);
}

// same compares got with want as JSON values; it returns the path of the
// first difference, or null.
function same(got, want, unordered, path) {
  if (typeof want === "number" || typeof got === "number") return got === want ? null : path || "(root)";
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return path || "(root)";
    if (unordered.includes(path)) {
      const a = got.map(canon).sort(), b = want.map(canon).sort();
      return a.every((x, i) => x === b[i]) ? null : path;
    }
    for (let i = 0; i < want.length; i++) {
      const d = same(got[i], want[i], unordered, `${path}.[]`);
      if (d) return `${path}[${i}]${d.slice(path.length + 3)}`;
    }
    return null;
  }
  if (want !== null && typeof want === "object") {
    if (got === null || typeof got !== "object" || Array.isArray(got)) return path || "(root)";
    const keys = new Set([...Object.keys(want), ...Object.keys(got)].filter((k) => (want[k] ?? got[k]) !== undefined));
    for (const k of [...keys].sort()) {
      const d = same(got[k], want[k], unordered, path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return null;
  }
  return got === want ? null : path || "(root)";
}

const kinds = ["codec", "register", "slots", "events", "traces", "load", "history"];
const only = process.env.NIPRS_KINDS ? process.env.NIPRS_KINDS.split(",") : kinds;
const textOnly = process.env.NIPRS_RULES === "spec";
const tally = new Map();
for (const kind of kinds.filter((k) => only.includes(k))) {
  const file = JSON.parse(readFileSync(join(here, "..", `${kind}.json`), "utf8"));
  const run = adapter[kind];
  const ignore = profile.ignore[kind] || [];
  const unordered = profiles.unordered[kind] || [];
  const t = { passed: 0, failed: 0, skipped: new Map() };
  tally.set(`${kind}.json`, t);
  for (const v of file.vectors) {
    const want = (adapter.byValueIntegers && v.by_value_expected)
      || (adapter.distinctKeyLimit && v.distinct_keys_expected)
      || (adapter.utf8DiscardsEvent && v.utf8_discard_expected)
      || v.expected;
    const lacking = (v.needs || []).filter((c) => profile.lacks.includes(c));
    const skip = !profile.kinds.includes(kind) ? `profile ${profile.name} does not run ${kind} vectors`
      : !run ? `no ${kind} function in NIPRS_CLIENT`
      : lacking.length > 0 ? `needs ${lacking.join(", ")}, which profile ${profile.name} lacks`
      : textOnly && v.proposals ? `holds only under proposals (NIPRS_RULES=spec)` : false;
    if (skip) t.skipped.set(skip, (t.skipped.get(skip) || 0) + 1);
    test(`${v.id}: ${v.description}`, { skip }, async () => {
      const got = mask(await run(v.input), ignore);
      const exp = mask(want, ignore);
      const diff = same(got, exp, unordered, "");
      if (diff === null) {
        t.passed++;
        return;
      }
      t.failed++;
      assert.fail(`differs at ${diff}\n  got:      ${JSON.stringify(got)}\n  expected: ${JSON.stringify(exp)}`);
    });
  }
}

after(() => {
  let ran = 0;
  console.log(`profile ${profile.name}`);
  for (const [name, t] of tally) {
    const skipped = [...t.skipped.values()].reduce((a, b) => a + b, 0);
    ran += t.passed + t.failed;
    console.log(`${name}: ${t.passed} passed, ${t.failed} failed, ${skipped} skipped`);
    for (const [why, n] of [...t.skipped].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) console.log(`  ${n} skipped: ${why}`);
  }
  if (ran === 0) {
    console.log("no vector ran: give NIPRS_CLIENT an adapter with a function for a kind the profile runs");
    process.exitCode = 1;
  }
});
