package gen

import "strings"

const (
	secContent   = "Content Validation"
	secWire      = "Wire Encoding"
	secReserved  = "Reserved Namespace"
	secGroups    = "Content Validation (override groups)"
	secDuplicate = "Content Validation (duplicate keys)"
)

// blob wraps contexts members in a valid envelope.
func blob(members string) string {
	return `{"v":1,"client_id":"c","contexts":{` + members + `}}`
}

// manyEntries is n copies of the member "a":1: 10,000 distinct keys do
// not fit in the largest plaintext NIP-44 carries, duplicates do.
func manyEntries(n int, _ bool) string {
	return strings.TrimSuffix(strings.Repeat(`"a":1,`, n), ",")
}

// shortestDistinct is n members with the n shortest distinct keys JSON
// writes without escapes (the empty key, then printable ASCII, then pairs
// of it, then two-byte UTF-8 characters), each with the value 0: the
// fewest bytes n distinct keys of valid UTF-8 take.
func shortestDistinct(n int) string {
	var one []string
	for c := byte(0x20); c < 0x7f; c++ {
		if c != '"' && c != '\\' {
			one = append(one, string(c))
		}
	}
	keys := append([]string{""}, one...)
	for _, a := range one {
		for _, b := range one {
			keys = append(keys, a+b)
		}
	}
	for r := rune(0x80); r < 0x800 && len(keys) < n; r++ {
		keys = append(keys, string(r))
	}
	members := make([]string, n)
	for i := range members {
		members[i] = `"` + keys[i] + `":0`
	}
	return strings.Join(members, ",")
}

// padTo pads a valid blob with an ignored top-level member to exactly n bytes.
func padTo(n int) string {
	base := `{"v":1,"client_id":"c","contexts":{},"pad":""}`
	return base[:len(base)-2] + strings.Repeat("x", n-len(base)) + `"}`
}

func nested(depth int) string {
	return `{"v":1,"client_id":"c","contexts":{},"x":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
}

type pc struct{ id, sec, desc, pt string }

// handCodecCases are the codec cases written for the vectors, one or more
// per rule of Content Validation.
func handCodecCases() []pc {
	long := func(n int) string { return strings.Repeat("k", n) }
	e2 := strings.Repeat("é", 128) // 256 bytes
	return []pc{
		// The blob envelope.
		{"blob-minimal", secContent, "an empty contexts object is a valid blob", blob("")},
		{"blob-not-json", secContent, "text that is not JSON is discarded", `not json`},
		{"blob-empty", secContent, "an empty plaintext is discarded", ``},
		{"blob-truncated", secContent, "a truncated object is discarded", `{"v":1,"client_id":"c","contexts":{}`},
		{"blob-trailing", secContent, "a second value after the object is discarded", blob("") + ` {}`},
		{"blob-trailing-space", secContent, "whitespace around the object is allowed", " \n\t" + blob("") + " \r\n"},
		{"blob-array", secContent, "a top-level array is discarded", `[1]`},
		{"blob-string", secContent, "a top-level string is discarded", `"x"`},
		{"blob-number", secContent, "a top-level number is discarded", `1`},
		{"blob-null", secContent, "a top-level null is discarded", `null`},
		{"v-missing", secContent, "v absent: discard", `{"client_id":"c","contexts":{}}`},
		{"v-string", secContent, "v as a string: discard", `{"v":"1","client_id":"c","contexts":{}}`},
		{"v-null", secContent, "v null: discard", `{"v":null,"client_id":"c","contexts":{}}`},
		{"v-fraction", secContent, "v 1.0 is not an integer literal: discard", `{"v":1.0,"client_id":"c","contexts":{}}`},
		{"v-exponent", secContent, "v 1e0 is not an integer literal: discard", `{"v":1e0,"client_id":"c","contexts":{}}`},
		{"v-2", secContent, "an integer v other than 1 is ignored, not discarded", `{"v":2,"client_id":"c","contexts":{}}`},
		{"v-0", secContent, "v 0 is an unknown version: ignore", `{"v":0,"client_id":"c","contexts":{}}`},
		{"v-negative", secContent, "v -1 is an integer other than 1: ignore", `{"v":-1,"client_id":"c","contexts":{}}`},
		{"v-2-malformed-rest", secContent, "v 2 is ignored before the rest is looked at", `{"v":2,"client_id":5,"contexts":[]}`},
		{"v-duplicate-last-wins", secContent, "a repeated top-level member: the last one counts", `{"v":2,"v":1,"client_id":"c","contexts":{}}`},
		{"client-id-missing", secContent, "client_id absent: discard", `{"v":1,"contexts":{}}`},
		{"client-id-number", secContent, "client_id a number: discard", `{"v":1,"client_id":7,"contexts":{}}`},
		{"client-id-empty", secContent, "client_id of 0 characters: discard", `{"v":1,"client_id":"","contexts":{}}`},
		{"client-id-64", secContent, "client_id of 64 characters is at the bound", `{"v":1,"client_id":"` + strings.Repeat("a", 64) + `","contexts":{}}`},
		{"client-id-65", secContent, "client_id of 65 characters: discard", `{"v":1,"client_id":"` + strings.Repeat("a", 65) + `","contexts":{}}`},
		{"client-id-64-multibyte", secContent, "the bound counts characters, not bytes", `{"v":1,"client_id":"` + strings.Repeat("é", 64) + `","contexts":{}}`},
		{"client-id-lone-surrogate", secContent, "a client_id with an unpaired surrogate escape is not UTF-8: discard", `{"v":1,"client_id":"a\ud800","contexts":{}}`},
		{"client-id-surrogate-pair", secContent, "an escaped surrogate pair is one character", `{"v":1,"client_id":"\ud83d\ude00","contexts":{}}`},
		{"contexts-missing", secContent, "contexts absent: discard", `{"v":1,"client_id":"c"}`},
		{"contexts-array", secContent, "contexts an array: discard", `{"v":1,"client_id":"c","contexts":[]}`},
		{"contexts-null", secContent, "contexts null: discard", `{"v":1,"client_id":"c","contexts":null}`},
		{"unknown-member", secContent, "unknown top-level members are ignored", `{"v":1,"client_id":"c","contexts":{"a":1},"extra":{"deep":[1,2,{"x":null}]}}`},
		{"depth-64", secContent, "nesting of 64 levels (the object counted) is accepted", nested(62)},
		{"depth-65", secContent, "nesting past 64 levels is discarded", nested(64)},
		{"size-65535", secContent, "a plaintext of 65535 bytes, the NIP-44 maximum, is read", padTo(65535)},
		{"size-65536", secContent, "a plaintext over 65535 bytes is discarded", padTo(65536)},
		{"entries-10000", secContent, "10,000 entries (duplicates count) is at the bound", blob(manyEntries(9998, true) + `,"b":2,"c":3`)},
		{"entries-10001", secContent, "10,001 entries: discard", blob(manyEntries(9998, true) + `,"b":2,"c":3,"d":4`)},
		{"entries-10001-duplicates", secContent, "duplicates count toward the 10,000-entry limit", blob(manyEntries(10001, true))},
		{"entries-10001-distinct", secContent, "10,001 distinct keys do not fit the largest plaintext, even at their shortest: discarded for its size, whatever the entry limit counts",
			blob(shortestDistinct(10001))},

		// Keys.
		{"key-256", secContent, "a 256-byte key is at the bound", blob(`"` + long(256) + `":1`)},
		{"key-257", secContent, "a 257-byte key is dropped, the rest kept", blob(`"` + long(257) + `":1,"b":2`)},
		{"key-256-multibyte", secContent, "the key bound counts UTF-8 bytes: 128 two-byte characters", blob(`"` + e2 + `":1`)},
		{"key-257-multibyte", secContent, "257 UTF-8 bytes is over the bound", blob(`"` + e2 + `a":1`)},
		{"key-escaped-long", secContent, "the bound applies to the decoded key, not the escaped text", blob(`"` + strings.Repeat(`\u0061`, 256) + `":1`)},
		{"key-empty", secContent, "the empty string is a valid key", blob(`"":5`)},
		{"key-nul", secContent, "a key holding U+0000 is valid UTF-8", blob(`"a\u0000b":5`)},
		{"key-lone-high-surrogate", secContent, "an unpaired high surrogate escape makes the key invalid: dropped", blob(`"\ud800":1,"b":2`)},
		{"key-lone-low-surrogate", secContent, "an unpaired low surrogate escape: dropped", blob(`"x\udc00":1`)},
		{"key-reversed-pair", secContent, "a low then a high surrogate is not a pair: dropped", blob(`"\ude00\ud83d":1`)},
		{"key-surrogate-pair", secContent, "an escaped surrogate pair decodes to one character: kept", blob(`"\ud83d\ude00":1`)},
		{"key-two-lone-surrogates", secContent, "two different unpaired surrogates are two dropped keys, not duplicates", blob(`"\ud800":1,"\ud801":2`)},
		{"key-raw-invalid-utf8", secContent, "raw bytes that are not UTF-8 in a key: dropped", blob("\"a\xffb\":1,\"c\":2")},
		{"key-invalid-utf8-among-valid", secContent, "a key of raw bytes that are not UTF-8 between two valid keys: that entry dropped, the others kept", blob("\"a\":1,\"b\xfe\":2,\"c\":3")},
		{"key-raw-invalid-utf8-duplicate", secContent, "an invalid key never shadows a valid one", blob("\"a\xff\":1,\"a\":2")},

		// Values.
		{"value-zero", secWire, "0 is a value", blob(`"a":0`)},
		{"value-max", secWire, "4294967295 is the largest value", blob(`"a":4294967295`)},
		{"value-max-plus-one", secWire, "4294967296 is dropped", blob(`"a":4294967296`)},
		{"value-wraps-to-five", secWire, "4294967301 is dropped, not read modulo 2^32", blob(`"a":4294967301`)},
		{"value-huge", secWire, "a 30-digit integer is dropped", blob(`"a":123456789012345678901234567890`)},
		{"value-negative", secWire, "-1 is dropped", blob(`"a":-1`)},
		{"value-negative-zero", secWire, "-0 is signed: dropped (by value it is 0)", blob(`"a":-0`)},
		{"value-one-point-zero", secWire, "1.0 has a fraction: dropped (by value it is 1)", blob(`"a":1.0`)},
		{"value-ten-point-zero", secWire, "10.0: dropped by the literal, 10 by value", blob(`"a":10.0`)},
		{"value-exponent", secWire, "1e3: dropped by the literal, 1000 by value", blob(`"a":1e3`)},
		{"value-exponent-upper", secWire, "1E3: dropped by the literal, 1000 by value", blob(`"a":1E3`)},
		{"value-exponent-plus", secWire, "1e+2: dropped by the literal, 100 by value", blob(`"a":1e+2`)},
		{"value-zero-exponent", secWire, "0e0: dropped by the literal, 0 by value", blob(`"a":0e0`)},
		{"value-max-fraction", secWire, "4294967295.0: dropped by the literal, the maximum by value", blob(`"a":4294967295.0`)},
		{"value-max-exponent", secWire, "4.294967295e9: dropped by the literal, the maximum by value", blob(`"a":4.294967295e9`)},
		{"value-over-exponent", secWire, "4.294967296e9 is too large on either reading", blob(`"a":4.294967296e9`)},
		{"value-half", secWire, "1.5 is not an integer on either reading", blob(`"a":1.5`)},
		{"value-negative-exponent", secWire, "1e-1 is not an integer on either reading", blob(`"a":1e-1`)},
		{"value-string", secWire, "a string value is dropped", blob(`"a":"5","b":5`)},
		{"value-true", secWire, "a boolean value is dropped", blob(`"a":true`)},
		{"value-null", secWire, "a null value is dropped", blob(`"a":null`)},
		{"value-object", secWire, "an object value is dropped", blob(`"a":{"x":1}`)},
		{"value-array", secWire, "an array value is dropped", blob(`"a":[1]`)},
		{"value-leading-zero", secContent, "007 is not JSON: the blob is discarded", blob(`"a":007`)},
		{"value-plus", secContent, "+1 is not JSON: discard", blob(`"a":+1`)},
		{"value-leading-dot", secContent, ".5 is not JSON: discard", blob(`"a":.5`)},
		{"value-trailing-dot", secContent, "1. is not JSON: discard", blob(`"a":1.`)},
		{"value-nan", secContent, "NaN is not JSON: discard", blob(`"a":NaN`)},
		{"value-hex", secContent, "0x10 is not JSON: discard", blob(`"a":0x10`)},

		// Duplicates.
		{"dup-last-wins", secDuplicate, "a repeated key: the last occurrence is used", blob(`"a":1,"a":2`)},
		{"dup-last-lower", secDuplicate, "last wins even when it is lower", blob(`"a":9,"a":2`)},
		{"dup-last-invalid", secDuplicate, "the last occurrence is invalid: the key is dropped", blob(`"a":1,"a":"x"`)},
		{"dup-first-invalid", secDuplicate, "an invalid first occurrence is replaced by a valid last one", blob(`"a":"x","a":3`)},
		{"dup-escaped-spelling", secDuplicate, "keys are compared decoded: \\u0061 is a", blob(`"a":1,"\u0061":4`)},
		{"dup-override", secDuplicate, "a repeated override key: last wins before the group is judged", blob(`"ov_c:x":1,"ov_c:x":5`)},
		{"dup-contexts-member", secDuplicate, "a repeated contexts member replaces the first whole", `{"v":1,"client_id":"c","contexts":{"a":1,"b":2},"contexts":{"c":3}}`},

		// Reserved namespace.
		{"esc-frontier", secReserved, "an escaped frontier key stays escaped on the wire", blob(`"esc:ov_s:x":5`)},
		{"esc-double", secReserved, "esc:esc:x is a frontier key for esc:x", blob(`"esc:esc:x":5`)},
		{"esc-bare", secReserved, "esc: alone is a frontier key", blob(`"esc:":5`)},
		{"esc-escaped-with-group", secReserved, "an escaped frontier key beside a real group for the same name", blob(`"esc:ov_c:x":5,"ov_c:ov_c:x":3`)},
		{"ov-unknown-prefix", secReserved, "ov_x: is not an override prefix: a frontier key", blob(`"ov_x:a":5`)},
		{"ov-stem-only", secReserved, "ov_ alone is a frontier key", blob(`"ov_":5`)},
		{"ov-empty-context", secReserved, "ov_c: names the empty context: a floor for it", blob(`"ov_c:":4`)},
		{"ov-uppercase", secReserved, "OV_C:x is not reserved: a frontier key", blob(`"OV_C:x":4`)},

		// Override groups.
		{"group-live", secGroups, "a complete triple is accepted", blob(`"x":10,"ov_s:x":3,"ov_c:x":2,"ov_b:x":10`)},
		{"group-floor", secGroups, "a lone ov_c is a tombstone floor: accepted", blob(`"ov_c:x":7`)},
		{"group-s-only", secGroups, "ov_s alone: the group is rejected", blob(`"ov_s:x":3`)},
		{"group-b-only", secGroups, "ov_b alone: rejected", blob(`"ov_b:x":3`)},
		{"group-s-c", secGroups, "ov_s and ov_c without ov_b: rejected", blob(`"ov_s:x":3,"ov_c:x":2`)},
		{"group-c-b", secGroups, "ov_c and ov_b without ov_s: rejected", blob(`"ov_c:x":3,"ov_b:x":2`)},
		{"group-s-b", secGroups, "ov_s and ov_b without ov_c: rejected", blob(`"ov_s:x":3,"ov_b:x":2`)},
		{"group-keeps-frontier", secGroups, "a rejected group never takes its context's frontier entry with it", blob(`"x":9,"ov_s:x":3`)},
		{"group-invalid-s", secGroups, "one invalid sibling rejects the whole triple", blob(`"ov_s:x":-1,"ov_c:x":2,"ov_b:x":5`)},
		{"group-invalid-b-fraction", secGroups, "a fractional sibling rejects the triple (by value it is accepted)", blob(`"ov_s:x":3,"ov_c:x":2,"ov_b:x":5.0`)},
		{"group-floor-invalid", secGroups, "a lone ov_c with an invalid value: rejected", blob(`"ov_c:x":"7"`)},
		{"group-floor-invalid-s", secGroups, "an invalid ov_s beside a floor rejects the group, not just itself", blob(`"ov_s:x":-1,"ov_c:x":3`)},
		{"group-floor-too-large-b", secGroups, "an invalid ov_b beside a floor rejects the group", blob(`"ov_c:x":3,"ov_b:x":4294967296`)},
		{"group-key-256", secGroups, "a triple whose longest key is 256 bytes is accepted", blob(groupOfLen(251))},
		{"group-key-257", secGroups, "a triple with a key over 256 bytes is rejected whole", blob(groupOfLen(252))},
		{"group-two-contexts", secGroups, "groups are judged per context", blob(`"ov_c:a":1,"ov_s:b":2,"ov_s:c":4,"ov_c:c":1,"ov_b:c":0`)},
		{"group-zero-triple", secGroups, "an all-zero triple is well formed", blob(`"ov_s:x":0,"ov_c:x":0,"ov_b:x":0`)},
		{"group-dead-triple", secGroups, "a triple with S <= C is well formed on the wire", blob(`"ov_s:x":2,"ov_c:x":5,"ov_b:x":1`)},
		{"group-max", secGroups, "counters at the ceiling", blob(`"ov_s:x":4294967295,"ov_c:x":4294967294,"ov_b:x":4294967295`)},
		{"group-escaped-context", secGroups, "override keys carry the raw id, never escaped", blob(`"esc:ov_x":4,"ov_s:ov_x":2,"ov_c:ov_x":1,"ov_b:ov_x":4`)},
		{"group-lone-surrogate-context", secGroups, "an override key that is not UTF-8 invalidates its group", blob(`"ov_s:\ud800":1,"ov_c:\ud800":0,"ov_b:\ud800":1`)},
		{"group-value-string", secGroups, "a string sibling rejects the triple", blob(`"ov_s:x":"3","ov_c:x":2,"ov_b:x":5`)},
	}
}

// groupOfLen is a triple for a context of n bytes (its keys are n+5 bytes).
func groupOfLen(n int) string {
	c := strings.Repeat("g", n)
	return `"ov_s:` + c + `":2,"ov_c:` + c + `":1,"ov_b:` + c + `":3`
}
