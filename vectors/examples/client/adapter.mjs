// The model-based trace adapter: one JSON line in per step on stdin, the
// observable state of every hosted device out as one JSON line on stdout
// (the protocol is described in the harness's package mbt and in the
// README's vectors section). Each hosted device is one Installation of
// register.mjs; a delivery is a received blob.

import { createInterface } from "node:readline";
import { Installation } from "./register.mjs";

let devices = new Map();

function view() {
  const out = {};
  for (const [name, inst] of devices) out[name] = inst.view().contexts;
  return out;
}

function step(msg) {
  if (msg.init) {
    devices = new Map(msg.init.devices.map((d) => [d, new Installation(d)]));
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
      devices.set(msg.device, new Installation(msg.device));
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
