// A client's own log of its full-state loads, in the harness's validation
// log format (NDJSON; `explore -validate LOG` checks it against the model):
// the load's configuration when it starts, every frame it sends and
// receives in the order it handles them, each wait of its gap before a
// pass, and its verdict once it has one.
//
//   node loadlog.mjs LOAD_JSON OUT_DIR
//
// runs every vector of LOAD_JSON (vectors/load.json) through load.mjs as
// if its frames came from a relay, and writes one log per vector to
// OUT_DIR, named after the vector's id.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { argv } from "node:process";
import { FullStateLoad } from "./load.mjs";

// loadLog is the log of one load run by device over the frames of a load
// vector's input, as an array of NDJSON lines.
export function loadLog(input, device = "d0") {
  const lines = [{ step: 0, init: { devices: [device] } }];
  const record = (load) => lines.push({ step: lines.length, device, load });
  const load = new FullStateLoad(input.config);
  let logged = false;
  const sent = (msgs) => {
    for (const m of msgs) record({ sent: m });
    // The verdict is logged as soon as the load has one, after what it
    // sent on reaching it (the CLOSEs).
    if (!logged && load.verdict !== "running") {
      logged = true;
      record({ verdict: load.result() });
    }
  };
  record({ start: input.config });
  sent(load.start());
  for (const f of input.frames) {
    record({ received: f });
    const out = load.feed(f);
    // A load of several passes waits its gap before these messages.
    if (load.waitDue) record({ wait: {} });
    load.waitDue = false;
    sent(out);
  }
  return lines.map((l) => JSON.stringify(l));
}

if (argv[1] && argv[1].endsWith("loadlog.mjs")) {
  const [file, out] = argv.slice(2);
  if (!file || !out) {
    console.error("usage: node loadlog.mjs LOAD_JSON OUT_DIR");
    process.exit(2);
  }
  mkdirSync(out, { recursive: true });
  const { vectors } = JSON.parse(readFileSync(file, "utf8"));
  for (const v of vectors) {
    writeFileSync(join(out, v.id.replaceAll("/", "-") + ".ndjson"), loadLog(v.input).join("\n") + "\n");
  }
  console.log(`${vectors.length} load logs in ${out}`);
}
