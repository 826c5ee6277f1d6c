// The JS peer relay: @nostr-relay/core 0.0.40 over its sqlite event
// repository, behind a ws server, as the package's own documentation wires
// it (a validator in front of handleMessage, a NOTICE for what it refuses).
//
// The harness's peer tests start it under node (internal/testrelay/peers): it
// listens on 127.0.0.1 at a port the system picks, prints its websocket
// URL as the first line of stdout, keeps its database in --dir, and exits
// when stdin reaches its end or on SIGTERM/SIGINT, so a test process that
// dies leaves no relay behind.
//
//   node server.js --dir DIR [--limit 10] [--cache-ttl 1000]
//
// --limit is the relay's cap. The repository caps at ten times its default
// limit, so the default limit is a tenth of it: a REQ without a limit gets
// that default. --cache-ttl is the filter-result cache's lifetime in ms
// (the relay's default is 1000; 0 turns it off).
'use strict';

const path = require('node:path');
const { WebSocketServer } = require('ws');
const { NostrRelay } = require('@nostr-relay/core');
// createOutgoingNoticeMessage lives in common; core does not re-export
// it, and taking it from core leaves it undefined until the first refused
// message, which then crashes the relay.
const { createOutgoingNoticeMessage, LogLevel } = require('@nostr-relay/common');
const { Validator } = require('@nostr-relay/validator');
const { EventRepositorySqlite } = require('@nostr-relay/event-repository-sqlite');

function flag(name, fallback) {
  const i = process.argv.indexOf('--' + name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

function positive(name, value, min) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    console.error(`jsrelay peer: --${name} ${value}: want an integer >= ${min}`);
    process.exit(2);
  }
  return n;
}

async function main() {
  const dir = flag('dir', '');
  if (dir === '') {
    console.error('jsrelay peer: --dir is required');
    process.exit(2);
  }
  const limit = positive('limit', flag('limit', '10'), 10);
  const cacheTtl = positive('cache-ttl', flag('cache-ttl', '1000'), 0);

  const repo = new EventRepositorySqlite(path.join(dir, 'relay.sqlite3'), {
    defaultLimit: Math.floor(limit / 10),
  });
  await repo.init();
  const relay = new NostrRelay(repo, { filterResultCacheTtl: cacheTtl, logLevel: LogLevel.ERROR });
  const validator = new Validator();

  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (ws) => {
    relay.handleConnection(ws);
    ws.on('message', async (data) => {
      try {
        const message = await validator.validateIncomingMessage(data);
        await relay.handleMessage(ws, message);
      } catch (err) {
        ws.send(JSON.stringify(createOutgoingNoticeMessage(String(err && err.message ? err.message : err))));
      }
    });
    ws.on('close', () => relay.handleDisconnect(ws));
    ws.on('error', () => {});
  });
  await new Promise((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  process.stdout.write(`ws://127.0.0.1:${wss.address().port}\n`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const ws of wss.clients) ws.terminate();
    wss.close(async () => {
      await relay.destroy();
      await repo.destroy();
      process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
}

main().catch((err) => {
  console.error('jsrelay peer:', err);
  process.exit(1);
});
