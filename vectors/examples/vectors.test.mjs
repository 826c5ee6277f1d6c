// Runs the NIP-RS conformance vectors against a client's own code with
// node's built-in test runner and nothing else:
//
//   NIPRS_CLIENT=./my-adapter.mjs node --test vectors/examples/
//
// The adapter module (yours; none ships here) exports one function per kind
// it implements: codec, register, slots, events, traces, load, history. Each
// takes a vector's `input` object and returns the output object to compare
// with `expected` (object member order does not matter). A kind without a
// function is skipped. NIPRS_KINDS=load,history runs only those kinds.
// NIPRS_RULES=spec runs only the vectors that hold under NIP-RS as written:
// a vector with a `proposals` member holds only under those proposals of
// ERRATA.md (what model.Proposed() adds to the text), and is skipped.
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
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const adapterPath = process.env.NIPRS_CLIENT;
const adapter = adapterPath ? await import(pathToFileURL(resolve(adapterPath)).href) : {};

const kinds = ["codec", "register", "slots", "events", "traces", "load", "history"];
const only = process.env.NIPRS_KINDS ? process.env.NIPRS_KINDS.split(",") : kinds;
const textOnly = process.env.NIPRS_RULES === "spec";
for (const kind of kinds.filter((k) => only.includes(k))) {
  const file = JSON.parse(readFileSync(join(here, "..", `${kind}.json`), "utf8"));
  const run = adapter[kind];
  for (const v of file.vectors) {
    const want = (adapter.byValueIntegers && v.by_value_expected)
      || (adapter.distinctKeyLimit && v.distinct_keys_expected)
      || (adapter.utf8DiscardsEvent && v.utf8_discard_expected)
      || v.expected;
    const skip = !run ? `no ${kind} function in NIPRS_CLIENT`
      : textOnly && v.proposals ? `holds only under the proposals ${v.proposals.join(", ")} (NIPRS_RULES=spec)` : false;
    test(`${v.id}: ${v.description}`, { skip }, async () => {
      assert.deepStrictEqual(await run(v.input), want);
    });
  }
}
