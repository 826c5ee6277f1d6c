// The model-based trace adapter: one JSON line in per step on stdin, the
// observable state of every hosted device out as one JSON line on stdout
// (the protocol is described in the harness's package mbt and in the
// README's vectors section). Each hosted device is one Installation of
// register.mjs; a delivery is a received blob.

import { createInterface } from "node:readline";
import { Installation } from "./register.mjs";

// Under a profile without the override layer (NIPRS_PROFILE naming
// legacy-decoder, as the node runner's variable does) the adapter is a
// legacy decoder: the harness then hands it the universe's legacy devices
// and masks what it compares to frontiers alone.
const legacy = (process.env.NIPRS_PROFILE ?? "").split(",").includes("legacy-decoder");

// LegacyInstallation keeps one frontier per context, merged by max; it
// has no override layer, so override keys (ov_s:, ov_c:, ov_b:) are not
// its contexts and mark-unread does not exist for it.
class LegacyInstallation {
  constructor() {
    this.frontiers = new Map();
  }
  advance(ctx, value) {
    this.frontiers.set(ctx, Math.max(this.frontiers.get(ctx) ?? 0, value));
  }
  receive(_clientId, contexts) {
    for (const [k, v] of Object.entries(contexts)) if (!/^ov_[scb]:/.test(k)) this.advance(k, v);
  }
  markRead(ctx, value) {
    this.advance(ctx, value);
  }
  markUnread() {}
  compact() {}
  view() {
    const contexts = {};
    for (const [k, f] of [...this.frontiers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (f > 0) contexts[k] = { effective: f };
    return { contexts };
  }
}

const newInstallation = (name) => (legacy ? new LegacyInstallation() : new Installation(name));

let devices = new Map();

function view() {
  const out = {};
  for (const [name, inst] of devices) out[name] = inst.view().contexts;
  return out;
}

function step(msg) {
  if (msg.init) {
    devices = new Map(msg.init.devices.map((d) => [d, newInstallation(d)]));
    return;
  }
  const inst = devices.get(msg.device);
  if (!inst) throw new Error(`step ${msg.step}: no hosted device ${JSON.stringify(msg.device)}`);
  if (msg.deliver) {
    inst.receive(msg.deliver.client_id, msg.deliver.contexts ?? {});
    return;
  }
  const a = msg.action ?? {};
  switch (a.action) {
    case "mark_unread":
      inst.markUnread(a.ctx);
      break;
    case "mark_read":
      inst.markRead(a.ctx, a.value ?? 0);
      break;
    case "advance":
      inst.advance(a.ctx, a.value ?? 0);
      break;
    case "compact":
      inst.compact(a.ctx);
      break;
    case "reinstall":
      // The installation is lost: nothing of its state survives.
      devices.set(msg.device, newInstallation(msg.device));
      break;
    case "rotate":
      // A new client id; what the device shows is unchanged.
      inst.clientId = `${msg.device}-rotated`;
      break;
    default:
      throw new Error(`step ${msg.step}: unknown action ${JSON.stringify(a.action)}`);
  }
}

const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  step(msg);
  process.stdout.write(JSON.stringify({ step: msg.step, devices: view() }) + "\n");
});
