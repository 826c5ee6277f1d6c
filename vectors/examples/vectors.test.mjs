// Runs the NIP-RS conformance vectors against a client's own code with
// node's built-in test runner and nothing else:
//
//   NIPRS_CLIENT=./my-adapter.mjs node --test vectors/examples/
//
// The adapter module (yours; none ships here) exports one function per kind
// it implements: codec, register, slots, events, traces. Each takes a vector's
// `input` object and returns the output object to compare with `expected`
// (object member order does not matter). A kind without a function is
// skipped. Export `byValueIntegers = true` if your parser reads number
// literals by value: codec vectors then compare with by_value_expected
// where a vector has one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const adapterPath = process.env.NIPRS_CLIENT;
const adapter = adapterPath ? await import(pathToFileURL(resolve(adapterPath)).href) : {};

for (const kind of ["codec", "register", "slots", "events", "traces"]) {
  const file = JSON.parse(readFileSync(join(here, "..", `${kind}.json`), "utf8"));
  const run = adapter[kind];
  for (const v of file.vectors) {
    const want = adapter.byValueIntegers && v.by_value_expected ? v.by_value_expected : v.expected;
    test(`${v.id}: ${v.description}`, { skip: run ? false : `no ${kind} function in NIPRS_CLIENT` }, async () => {
      assert.deepStrictEqual(await run(v.input), want);
    });
  }
}
