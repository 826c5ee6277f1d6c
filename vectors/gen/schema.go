package gen

import (
	"encoding/json"
	"fmt"
)

// SchemaJSON is the JSON Schema (draft 2020-12) of one kind's file.
func SchemaJSON(kind string) ([]byte, error) {
	defs, ok := schemaDefs()[kind]
	if !ok {
		return nil, fmt.Errorf("no schema for kind %q", kind)
	}
	props := map[string]any{
		"id":          str(map[string]any{"pattern": "^" + kind + "/"}),
		"section":     str(nil),
		"description": str(nil),
		"input":       ref("input"),
		"expected":    ref("output"),
		"proposals":   arr(str(nil)),
		"needs":       arr(enum(capabilityNames()...)),
	}
	for _, r := range Readings() {
		props[r.Member] = ref("output")
	}
	defs["vector"] = obj(props, "id", "section", "description", "input", "expected")
	s := map[string]any{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"$id":                  "https://github.com/nip-rs/harness/vectors/schema/" + kind + ".schema.json",
		"title":                "NIP-RS " + kind + " conformance vectors",
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"kind", "format", "description", "how_to_run", "vectors"},
		"properties": map[string]any{
			"kind":        map[string]any{"const": kind},
			"format":      map[string]any{"const": FormatVersion},
			"description": str(nil),
			"how_to_run":  str(nil),
			"vectors":     arr(ref("vector")),
		},
		"$defs": defs,
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func obj(props map[string]any, required ...string) map[string]any {
	o := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func str(extra map[string]any) map[string]any {
	o := map[string]any{"type": "string"}
	for k, v := range extra {
		o[k] = v
	}
	return o
}

func arr(items any) map[string]any   { return map[string]any{"type": "array", "items": items} }
func ref(name string) map[string]any { return map[string]any{"$ref": "#/$defs/" + name} }
func enum(vs ...string) map[string]any {
	return map[string]any{"type": "string", "enum": vs}
}

var (
	boolean = map[string]any{"type": "boolean"}
	u32     = map[string]any{"type": "integer", "minimum": 0, "maximum": 4294967295}
	i64     = map[string]any{"type": "integer"}
	count   = map[string]any{"type": "integer", "minimum": 0}
	hexStr  = str(map[string]any{"pattern": "^[0-9a-f]*$"})
	wireMap = map[string]any{"type": "object", "additionalProperties": u32}
	strMap  = map[string]any{"type": "object", "additionalProperties": str(nil)}
	reg     = map[string]any{"type": "array", "items": u32, "minItems": 3, "maxItems": 3}
	// frame is a relay or client message as its wire JSON array.
	frame = map[string]any{"type": "array", "minItems": 1}
	// wrap and window are the history walk's event and page bounds.
	wrap   = obj(map[string]any{"id": str(nil), "created_at": i64}, "id", "created_at")
	window = obj(map[string]any{"since": i64, "until": i64})
)

func codecOutputSchema() map[string]any {
	return obj(map[string]any{
		"outcome":     enum("accept", "discard", "ignore"),
		"reason":      str(nil),
		"client_id":   str(nil),
		"entries":     wireMap,
		"entry_count": count,
		"duplicates":  arr(str(nil)),
		"dropped": arr(obj(map[string]any{
			"key":     str(nil),
			"key_hex": hexStr,
			"reason": enum(DropKeyTooLong, DropKeyNotUTF8, DropValueNotNumber, DropValueNegative, DropValueNotInteger,
				DropValueTooLarge, DropValueRejected, DropGroupPartial, DropGroupInvalid),
		}, "reason")),
	}, "outcome")
}

func schemaDefs() map[string]map[string]any {
	return map[string]map[string]any{
		"codec": {
			"input": obj(map[string]any{
				"plaintext":        str(nil),
				"plaintext_base64": str(nil),
			}),
			"output": codecOutputSchema(),
		},
		"register": {
			"input": obj(map[string]any{
				"op":       enum("join", "live", "canonical", "mark_unread", "mark_read", "channel_read", "script"),
				"a":        reg,
				"b":        reg,
				"reg":      reg,
				"frontier": u32,
				"tie":      enum("clear", "set"),
				"messages": arr(obj(map[string]any{"created_at": u32, "top_level": boolean}, "created_at", "top_level")),
				"parents":  strMap,
				"steps": arr(obj(map[string]any{
					"do":        enum("advance", "mark_unread", "mark_read", "compact", "publish", "receive"),
					"ctx":       str(nil),
					"ts":        u32,
					"client_id": str(nil),
					"entries":   wireMap,
				}, "do")),
			}, "op"),
			"output": obj(map[string]any{
				"reg":   reg,
				"live":  boolean,
				"shape": enum("omit", "live", "floor"),
				"error": enum("counter_ceiling", "still_active", "key_too_long"),
				"ts":    u32,
				"ok":    boolean,
				"after": arr(ref("after")),
			}),
			"after": obj(map[string]any{
				"error": enum("counter_ceiling", "still_active", "key_too_long"),
				"contexts": map[string]any{"type": "object", "additionalProperties": obj(map[string]any{
					"effective": u32, "live": boolean,
				}, "effective", "live")},
				"candidate":       wireMap,
				"needs_republish": boolean,
				"registers": map[string]any{"type": "object", "additionalProperties": obj(map[string]any{
					"frontier": u32, "reg": reg,
				}, "frontier", "reg")},
			}, "contexts", "candidate", "needs_republish"),
		},
		"slots": {
			"input": obj(map[string]any{
				"client_id": str(nil),
				"contexts":  wireMap,
				"budget": obj(map[string]any{
					"plaintext_bytes": count, "max_coordinates": count, "max_entries": count, "horizon": i64, "now": i64,
				}, "plaintext_bytes", "max_coordinates", "max_entries"),
				"parents":        strMap,
				"last_published": wireMap,
			}, "client_id", "contexts", "budget"),
			"output": obj(map[string]any{
				"error": enum("override_budget", "coordinate_limit", "overflow"),
				"blobs": arr(wireMap),
				"evicted": arr(obj(map[string]any{
					"key": str(nil), "value": u32, "reason": enum("dominated", "horizon", "budget"),
				}, "key", "value", "reason")),
				"needs_republish": boolean,
			}),
		},
		"traces": {
			"input": obj(map[string]any{
				"devices": arr(obj(map[string]any{"client_id": str(nil), "legacy": boolean, "drop_overrides": boolean}, "client_id")),
				"budget":  obj(map[string]any{"plaintext_bytes": count, "max_coordinates": count}, "plaintext_bytes", "max_coordinates"),
				"parents": strMap,
				"steps": arr(obj(map[string]any{
					"do":          enum("advance", "mark_unread", "mark_read", "compact", "publish", "deliver"),
					"device":      count,
					"ctx":         str(nil),
					"ts":          u32,
					"publication": count,
				}, "do", "device")),
			}, "devices", "steps"),
			"output": arr(obj(map[string]any{
				"error":      enum("counter_ceiling", "still_active", "key_too_long", "override_budget", "coordinate_limit", "overflow"),
				"published":  str(nil),
				"parts":      arr(str(nil)),
				"parts_from": count,
				"devices": arr(map[string]any{"type": "object", "additionalProperties": obj(map[string]any{
					"frontier": u32, "effective": u32, "reg": reg, "live": boolean,
				}, "frontier", "effective", "reg", "live")}),
			}, "devices")),
		},
		"history": {
			"input": obj(map[string]any{
				"config": obj(map[string]any{"page_wraps": count, "catch_up_pages": count, "load_older_pages": count, "overlap_ms": i64},
					"page_wraps", "catch_up_pages", "load_older_pages", "overlap_ms"),
				"relays": count,
				"steps": arr(obj(map[string]any{
					"do":     enum("live", "rekey", "round"),
					"wraps":  arr(wrap),
					"intent": enum("catch-up", "older"),
					"pages": arr(obj(map[string]any{
						"live": arr(wrap),
						"relays": arr(arr(obj(map[string]any{
							"type": enum("events", "eose", "closed", "auth_failed"), "wraps": arr(wrap), "reason": str(nil),
						}, "type"))),
					}, "relays")),
				}, "do")),
			}, "config", "relays", "steps"),
			"output": arr(obj(map[string]any{
				"cursor": obj(map[string]any{"newest": i64, "oldest": i64, "exhausted": boolean, "pending": window}),
				"pages": arr(obj(map[string]any{
					"pass": enum("newest", "bridge", "repair", "older"), "since": i64, "until": i64, "limit": count, "relays": arr(count),
				}, "pass", "limit", "relays")),
				"fetched":   count,
				"stored":    count,
				"failed":    boolean,
				"exhausted": boolean,
				"errors":    arr(obj(map[string]any{"relay": count, "kind": enum("refused", "silent"), "reason": str(nil)}, "relay", "kind")),
				"truncated": boolean,
			}, "cursor")),
		},
		"load": {
			"input": obj(map[string]any{
				"config": obj(map[string]any{
					"pubkey": hexStr, "limit": count, "sub_prefix": str(nil), "first_until": i64,
					"other_subs": count, "relay_max_subs": count, "unproven": str(nil), "known_non_conforming": boolean, "passes": count,
				}, "pubkey", "limit", "sub_prefix", "first_until"),
				"frames": arr(frame),
			}, "config", "frames"),
			"output": obj(map[string]any{
				"start":          arr(frame),
				"replies":        arr(arr(frame)),
				"waits":          arr(count),
				"verdict":        enum("running", "complete", "cannot-prove-complete", "failed"),
				"reason":         enum("none", "plateau", "fence-lapsed", "relay-failure", "non-conforming", "query-push", "unproven", "subscriptions"),
				"plateau_second": i64,
				"coordinates":    strMap,
			}, "start", "replies", "verdict", "reason", "coordinates"),
		},
		"events": {
			"input": obj(map[string]any{
				"op":   enum("tags", "role", "created_at", "may_delete", "nip44_encrypt", "nip44_decrypt", "event"),
				"tags": arr(arr(str(nil))),
				"self": obj(map[string]any{
					"client_id": str(nil), "primary": hexStr, "additional": arr(hexStr),
				}, "client_id", "primary"),
				"slot":             str(nil),
				"client_id":        str(nil),
				"now":              i64,
				"fetched":          arr(obj(map[string]any{"slot": str(nil), "created_at": i64}, "slot", "created_at")),
				"coordinate":       enum("primary", "additional", "predecessor", "orphan", "peer"),
				"overrides":        boolean,
				"carried":          boolean,
				"complete":         boolean,
				"conversation_key": hexStr,
				"nonce":            hexStr,
				"plaintext":        str(nil),
				"private_key":      hexStr,
				"ciphertext":       str(nil),
				"event": obj(map[string]any{
					"id": hexStr, "pubkey": hexStr, "created_at": i64, "kind": count,
					"tags": arr(arr(str(nil))), "content": str(nil), "sig": hexStr,
				}, "id", "pubkey", "created_at", "kind", "tags", "content", "sig"),
			}, "op"),
			"output": obj(map[string]any{
				"slot":             str(nil),
				"error":            str(nil),
				"role":             enum("peer", "own", "own-additional", "conflict", "orphan", "unreadable"),
				"created_at":       i64,
				"allowed":          boolean,
				"refusal":          enum("incomplete_load", "current_primary", "not_own", "not_carried"),
				"conversation_key": hexStr,
				"ciphertext":       str(nil),
				"plaintext":        str(nil),
				"blob":             codecOutputSchema(),
			}),
		},
	}
}
