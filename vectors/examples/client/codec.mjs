// NIP-RS blob codec: Content Validation of one decrypted plaintext.
//
// The parser reads the plaintext as bytes, not through JSON.parse, because
// the rules depend on things JSON.parse hides: whether a number literal has
// a fraction or an exponent ("integer" is read as an integer literal), the
// raw bytes of a key that is not UTF-8 (a lone surrogate escape decodes to
// its three-byte WTF-8 form), and every occurrence of a repeated key.

const MAX_PLAINTEXT = 65535; // the most a NIP-44 ciphertext carries (Content)
const MAX_DEPTH = 64; // a resource bound where the text is silent
const MAX_ENTRIES = 10000; // Content Validation: duplicates counted
const MAX_KEY_BYTES = 256; // Content Validation
const UINT32_MAX = 4294967295n;

class JSONError extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const enc = new TextEncoder();

// decodeUTF8 returns the string, or undefined when the bytes are not valid
// UTF-8 (surrogate code points encoded as bytes included).
export function decodeUTF8(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Values of the parsed tree: {t:"obj", members:[[keyBytes, value]...]},
// {t:"arr"}, {t:"str", bytes}, {t:"num", text}, {t:"lit", text}.
class Parser {
  constructor(bytes) {
    this.b = bytes;
    this.i = 0;
  }
  ws() {
    const b = this.b;
    while (this.i < b.length) {
      const c = b[this.i];
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else break;
    }
  }
  fail() {
    throw new JSONError("not_json");
  }
  value(depth) {
    this.ws();
    if (this.i >= this.b.length) this.fail();
    const c = this.b[this.i];
    if (c === 0x7b) return this.object(depth + 1);
    if (c === 0x5b) return this.array(depth + 1);
    if (c === 0x22) return { t: "str", bytes: this.string() };
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return { t: "num", text: this.number() };
    for (const lit of ["true", "false", "null"]) {
      if (this.match(lit)) return { t: "lit", text: lit };
    }
    this.fail();
  }
  match(word) {
    for (let k = 0; k < word.length; k++) {
      if (this.b[this.i + k] !== word.charCodeAt(k)) return false;
    }
    this.i += word.length;
    return true;
  }
  object(depth) {
    if (depth > MAX_DEPTH) throw new JSONError("too_deep");
    this.i++;
    const members = [];
    this.ws();
    if (this.b[this.i] === 0x7d) {
      this.i++;
      return { t: "obj", members };
    }
    for (;;) {
      this.ws();
      if (this.b[this.i] !== 0x22) this.fail();
      const key = this.string();
      this.ws();
      if (this.b[this.i] !== 0x3a) this.fail();
      this.i++;
      members.push([key, this.value(depth)]);
      this.ws();
      const c = this.b[this.i++];
      if (c === 0x7d) return { t: "obj", members };
      if (c !== 0x2c) this.fail();
    }
  }
  array(depth) {
    if (depth > MAX_DEPTH) throw new JSONError("too_deep");
    this.i++;
    this.ws();
    if (this.b[this.i] === 0x5d) {
      this.i++;
      return { t: "arr" };
    }
    for (;;) {
      this.value(depth);
      this.ws();
      const c = this.b[this.i++];
      if (c === 0x5d) return { t: "arr" };
      if (c !== 0x2c) this.fail();
    }
  }
  hex4() {
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const c = this.b[this.i++];
      let d;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
      else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
      else this.fail();
      v = v * 16 + d;
    }
    return v;
  }
  // string returns the decoded bytes: raw bytes are copied as they are
  // (their UTF-8 validity is judged by the caller), escapes are decoded, a
  // surrogate pair to its code point, a lone surrogate to its WTF-8 bytes.
  string() {
    this.i++;
    const out = [];
    const b = this.b;
    for (;;) {
      if (this.i >= b.length) this.fail();
      const c = b[this.i++];
      if (c === 0x22) return Uint8Array.from(out);
      if (c < 0x20) this.fail();
      if (c !== 0x5c) {
        out.push(c);
        continue;
      }
      const e = b[this.i++];
      const simple = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 8, 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9 };
      if (e in simple) {
        out.push(simple[e]);
        continue;
      }
      if (e !== 0x75) this.fail();
      let cp = this.hex4();
      if (cp >= 0xd800 && cp <= 0xdbff && b[this.i] === 0x5c && b[this.i + 1] === 0x75) {
        const save = this.i;
        this.i += 2;
        const lo = this.hex4();
        if (lo >= 0xdc00 && lo <= 0xdfff) cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        else this.i = save;
      }
      pushCodePoint(out, cp);
    }
  }
  number() {
    const start = this.i;
    const b = this.b;
    const digit = (c) => c >= 0x30 && c <= 0x39;
    if (b[this.i] === 0x2d) this.i++;
    if (b[this.i] === 0x30) this.i++;
    else if (digit(b[this.i])) while (digit(b[this.i])) this.i++;
    else this.fail();
    if (b[this.i] === 0x2e) {
      this.i++;
      if (!digit(b[this.i])) this.fail();
      while (digit(b[this.i])) this.i++;
    }
    if (b[this.i] === 0x65 || b[this.i] === 0x45) {
      this.i++;
      if (b[this.i] === 0x2b || b[this.i] === 0x2d) this.i++;
      if (!digit(b[this.i])) this.fail();
      while (digit(b[this.i])) this.i++;
    }
    return String.fromCharCode(...b.subarray(start, this.i));
  }
}

// pushCodePoint writes cp in (generalized) UTF-8: a surrogate code point
// gets the three-byte form, which no UTF-8 decoder accepts.
function pushCodePoint(out, cp) {
  if (cp < 0x80) out.push(cp);
  else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
  else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
}

// parseDocument parses exactly one JSON value surrounded by whitespace.
function parseDocument(bytes) {
  const p = new Parser(bytes);
  const v = p.value(0);
  p.ws();
  if (p.i !== bytes.length) p.fail();
  return v;
}

// lastMember returns the last occurrence of a top-level member: repeated
// members follow the last-value rule the NIP states for context keys.
function lastMember(obj, name) {
  const want = enc.encode(name);
  let found;
  for (const [k, v] of obj.members) {
    if (k.length === want.length && k.every((x, j) => x === want[j])) found = v;
  }
  return found;
}

const isIntegerLiteral = (text) => /^-?(0|[1-9][0-9]*)$/.test(text);

// valueReason judges one contexts value: undefined when it is an integer
// literal in 0..4294967295, else the reason code.
export function valueReason(v) {
  if (v.t !== "num") return "value_not_number";
  if (v.text.startsWith("-")) return "value_negative";
  if (!isIntegerLiteral(v.text)) return "value_not_integer";
  if (BigInt(v.text) > UINT32_MAX) return "value_too_large";
  return undefined;
}

function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

const OV_PREFIXES = ["ov_s:", "ov_c:", "ov_b:"];

// overrideKind returns "s", "c" or "b" for a key beginning with an override
// prefix (compared as bytes, so a key that is not UTF-8 still groups).
function overrideKind(key) {
  for (const p of OV_PREFIXES) {
    let ok = key.length >= p.length;
    for (let j = 0; ok && j < p.length; j++) ok = key[j] === p.charCodeAt(j);
    if (ok) return p[3];
  }
  return undefined;
}

// parseBlob validates one plaintext and returns the vectors' output shape.
export function parseBlob(bytes) {
  if (bytes.length > MAX_PLAINTEXT) return { outcome: "discard", reason: "plaintext_too_large" };
  let doc;
  try {
    doc = parseDocument(bytes);
  } catch (e) {
    if (e instanceof JSONError) return { outcome: "discard", reason: e.reason };
    throw e;
  }
  const discard = (reason) => ({ outcome: "discard", reason });
  if (doc.t !== "obj") return discard("not_object");
  const v = lastMember(doc, "v");
  if (v === undefined) return discard("v_missing");
  if (v.t !== "num" || !isIntegerLiteral(v.text)) return discard("v_not_integer");
  if (BigInt(v.text) !== 1n) return { outcome: "ignore", reason: "unknown_version" };
  const cid = lastMember(doc, "client_id");
  if (cid === undefined) return discard("client_id_missing");
  if (cid.t !== "str") return discard("client_id_not_string");
  const clientId = decodeUTF8(cid.bytes);
  if (clientId === undefined) return discard("client_id_not_utf8");
  const chars = [...clientId].length;
  if (chars < 1 || chars > 64) return discard("client_id_length");
  const ctx = lastMember(doc, "contexts");
  if (ctx === undefined) return discard("contexts_missing");
  if (ctx.t !== "obj") return discard("contexts_not_object");
  if (ctx.members.length > MAX_ENTRIES) return discard("too_many_entries");
  return judgeEntries(clientId, ctx.members);
}

function judgeEntries(clientId, members) {
  // Last value per decoded key; keys compared as bytes.
  const byKey = new Map(); // hex(key) -> {key, value, count}
  for (const [key, value] of members) {
    const h = hex(key);
    const prev = byKey.get(h);
    if (prev) {
      prev.value = value;
      prev.count++;
    } else byKey.set(h, { key, value, count: 1 });
  }
  const entries = [...byKey.values()].sort((a, b) => compareBytes(a.key, b.key));
  const kept = [];
  const dropped = [];
  const groups = new Map(); // hex(suffix) -> [{entry, kind}]
  for (const e of entries) {
    e.text = decodeUTF8(e.key);
    const kind = overrideKind(e.key);
    if (kind !== undefined) {
      // Override keys are judged only as a whole group, never one by one.
      const g = hex(e.key.subarray(5));
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push({ e, kind });
      continue;
    }
    let reason;
    if (e.text === undefined) reason = "key_not_utf8";
    else if (e.key.length > MAX_KEY_BYTES) reason = "key_too_long";
    else reason = valueReason(e.value);
    if (reason) dropped.push({ e, reason });
    else kept.push(e);
  }
  for (const members of groups.values()) {
    const kinds = members.map((m) => m.kind).sort().join("");
    // The two accepted shapes: the live triple, or a lone ov_c floor.
    const shapeOK = kinds === "bcs" || kinds === "c";
    let reason;
    if (!shapeOK) reason = "group_partial";
    else if (members.some(({ e }) => e.text === undefined || e.key.length > MAX_KEY_BYTES || valueReason(e.value)))
      reason = "group_invalid_sibling";
    for (const { e } of members) {
      if (reason) dropped.push({ e, reason });
      else kept.push(e);
    }
  }
  const out = { outcome: "accept", client_id: clientId, entry_count: members.length };
  if (kept.length) {
    out.entries = {};
    for (const e of kept.sort((a, b) => compareBytes(a.key, b.key))) out.entries[e.text] = Number(e.value.text);
  }
  const dups = entries.filter((e) => e.count > 1).map((e) => (e.text === undefined ? "hex:" + hex(e.key) : e.text));
  if (dups.length) out.duplicates = dups;
  if (dropped.length) {
    out.dropped = dropped
      .sort((a, b) => compareBytes(a.e.key, b.e.key))
      .map(({ e, reason }) => (e.text === undefined ? { key_hex: hex(e.key), reason } : { key: e.text, reason }));
  }
  return out;
}

// codecVector is the runner's entry for one codec vector's input.
export function codecVector(input) {
  const bytes =
    input.plaintext !== undefined
      ? enc.encode(input.plaintext)
      : Uint8Array.from(Buffer.from(input.plaintext_base64, "base64"));
  return parseBlob(bytes);
}
