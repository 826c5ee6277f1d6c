package directed

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Conformance checks hold a rule set to outcomes written from the spec's
// text, over cubes of inputs: the codec (Content Validation, Invalid Cases,
// Reserved Namespace), the slot split (Override Group Co-Location Rule,
// Bounds and Budget, Eviction), event identity and clock skew (d Tag, Clock
// Skew, Orphaned Blob Deletion), the actions (Actions, Natural read), the
// re-publish trigger after eviction (Eviction, Live Subscription and
// Convergence) and the read-marking actions over the hierarchy (Write
// Discipline, Hierarchical Frontier Rule). Every expected outcome is stated in the check as data or as
// a property the spec names; none is obtained by calling a production rule,
// so they run against any Rules.

func conformanceChecks() []*Check {
	ds := []*Check{
		codecConformance(),
		slotConformance(),
		clockSkewConformance(),
		identityConformance(),
		deletionConformance(),
		actionConformance(),
		dominatedRepublish(),
		hierarchyConformance(),
	}
	for _, d := range ds {
		d.SpecText = true // each asserts outcomes written from the text
	}
	return ds
}

// Outcomes of parsing a plaintext (Content Validation).
const (
	parseAccept  = "accept"
	parseDiscard = "discard" // the blob is invalid
	parseIgnore  = "ignore"  // the blob has an unknown v
)

// codecCase is one plaintext and what the spec says a receiver keeps of it:
// its frontiers by raw context id and its override registers.
type codecCase struct {
	name      string
	plaintext string
	outcome   string
	frontiers map[string]uint32
	overrides map[string]model.Reg
}

func blobWith(contexts string) string {
	return `{"v":1,"client_id":"conformance","contexts":{` + contexts + `}}`
}

// codecCases are the blob-level and entry-level rules of Content Validation
// and Invalid Cases, the spec's examples and test vectors, the reserved
// namespace and the duplicate-key rule.
func codecCases() []codecCase {
	f := func(kv ...any) map[string]uint32 {
		m := map[string]uint32{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = uint32(kv[i+1].(int))
		}
		return m
	}
	long := func(n int) string { return strings.Repeat("k", n) }
	cases := []codecCase{
		{"not JSON", `{"v":1,"client_id":"a","contexts":{`, parseDiscard, nil, nil},
		{"not an object", `[1,2]`, parseDiscard, nil, nil},
		{"v missing", `{"client_id":"a","contexts":{}}`, parseDiscard, nil, nil},
		{"v a string", `{"v":"1","client_id":"a","contexts":{}}`, parseDiscard, nil, nil},
		{"v a fraction", `{"v":1.5,"client_id":"a","contexts":{}}`, parseDiscard, nil, nil},
		{"v 2 (unknown version)", `{"v":2,"client_id":"a","contexts":{"x":1}}`, parseIgnore, nil, nil},
		{"client_id missing", `{"v":1,"contexts":{"x":1}}`, parseDiscard, nil, nil},
		{"client_id empty", `{"v":1,"client_id":"","contexts":{"x":1}}`, parseDiscard, nil, nil},
		{"client_id a number", `{"v":1,"client_id":7,"contexts":{"x":1}}`, parseDiscard, nil, nil},
		{"client_id 64 characters", `{"v":1,"client_id":"` + strings.Repeat("é", 64) + `","contexts":{"x":1}}`, parseAccept, f("x", 1), nil},
		{"client_id 65 characters", `{"v":1,"client_id":"` + strings.Repeat("é", 65) + `","contexts":{"x":1}}`, parseDiscard, nil, nil},
		{"contexts missing", `{"v":1,"client_id":"a"}`, parseDiscard, nil, nil},
		{"contexts an array", `{"v":1,"client_id":"a","contexts":[]}`, parseDiscard, nil, nil},
		{"unknown top-level key", `{"v":1,"client_id":"a","later":{"x":[1]},"contexts":{"x":1}}`, parseAccept, f("x", 1), nil},
		{"string timestamp", blobWith(`"ctx:AAA":"yesterday","ctx:BBB":5`), parseAccept, f("ctx:BBB", 5), nil},
		{"fraction timestamp", blobWith(`"a":1.5,"b":2`), parseAccept, f("b", 2), nil},
		{"negative timestamp", blobWith(`"a":-1,"b":2`), parseAccept, f("b", 2), nil},
		{"boolean timestamp", blobWith(`"a":true,"b":2`), parseAccept, f("b", 2), nil},
		{"timestamp 0", blobWith(`"a":0`), parseAccept, f("a", 0), nil},
		{"timestamp 4294967295", blobWith(`"a":4294967295`), parseAccept, f("a", 4294967295), nil},
		{"timestamp 4294967296", blobWith(`"a":4294967296,"b":2`), parseAccept, f("b", 2), nil},
		{"timestamp 2^64", blobWith(`"a":18446744073709551616,"b":2`), parseAccept, f("b", 2), nil},
		{"timestamp 2^32+7", blobWith(`"a":4294967303,"b":2`), parseAccept, f("b", 2), nil},
		{"key of 256 bytes", blobWith(`"` + long(256) + `":3`), parseAccept, f(long(256), 3), nil},
		{"key of 257 bytes", blobWith(`"` + long(257) + `":3,"b":2`), parseAccept, f("b", 2), nil},
		{"duplicate key, last wins", blobWith(`"a":9,"b":1,"a":4`), parseAccept, f("a", 4, "b", 1), nil},
		{"10,000 entries", blobWith(strings.Repeat(`"a":1,`, 9999) + `"a":2`), parseAccept, f("a", 2), nil},
		{"10,001 entries", blobWith(strings.Repeat(`"a":1,`, 10000) + `"a":2`), parseDiscard, nil, nil},
		{"spec example (desktop)", `{"v":1,"client_id":"desktop-v2-prod","contexts":{"ctx:AAA":1700000100,"ctx:BBB":1700000050}}`,
			parseAccept, f("ctx:AAA", 1700000100, "ctx:BBB", 1700000050), nil},
		{"spec vector (device B)", `{"v":1,"client_id":"client-11223344","contexts":{"group:general":1700001200,"group:random":1700000800}}`,
			parseAccept, f("group:general", 1700001200, "group:random", 1700000800), nil},
		// Reserved Namespace: strip exactly one esc: on receive; siblings
		// are keyed by the raw id.
		{"escaped reserved id with a live group", blobWith(`"esc:ov_s:evil":42,"ov_s:ov_s:evil":1,"ov_c:ov_s:evil":0,"ov_b:ov_s:evil":42`),
			parseAccept, f("ov_s:evil", 42), map[string]model.Reg{"ov_s:evil": {S: 1, B: 42}}},
		{"escaped esc: id", blobWith(`"esc:esc:foo":5`), parseAccept, f("esc:foo", 5), nil},
		{"one esc: stripped", blobWith(`"esc:foo":5`), parseAccept, f("foo", 5), nil},
		{"esc: marker alone", blobWith(`"esc:":5`), parseAccept, f("", 5), nil},
		{"unknown ov_ prefix is a frontier", blobWith(`"ov_x:foo":3`), parseAccept, f("ov_x:foo", 3), nil},
		{"unescaped reserved frontier is a lone ov_s", blobWith(`"ov_s:evil":3,"evil":1`), parseAccept, f("evil", 1), nil},
		{"floor and triple of two contexts", blobWith(`"a":10,"ov_c:a":4,"b":10,"ov_s:b":2,"ov_c:b":1,"ov_b:b":10`),
			parseAccept, f("a", 10, "b", 10), map[string]model.Reg{"a": {C: 4}, "b": {S: 2, C: 1, B: 10}}},
		{"group siblings out of order", blobWith(`"ov_b:c":7,"c":7,"ov_s:c":1,"ov_c:c":0`),
			parseAccept, f("c", 7), map[string]model.Reg{"c": {S: 1, B: 7}}},
		{"group at the uint32 maximum", blobWith(`"c":1,"ov_s:c":4294967295,"ov_c:c":4294967294,"ov_b:c":4294967295`),
			parseAccept, f("c", 1), map[string]model.Reg{"c": {S: 4294967295, C: 4294967294, B: 4294967295}}},
		{"group key of 257 bytes", blobWith(`"` + long(252) + `":1,"ov_c:` + long(252) + `":3`), parseAccept, f(long(252), 1), nil},
	}
	return append(cases, groupShapeCases()...)
}

// Sibling states of the group-shape cube.
var siblingStates = []string{"absent", "valid", "out of range", "not an integer"}

// groupShapeCases are the 63 non-empty shapes of one context's override
// group, each sibling absent, valid, out of the uint32 range or not an
// integer, next to the context's frontier entry. Content Validation accepts
// exactly two shapes, a complete valid triple and a lone valid ov_c floor;
// every other shape is rejected whole and the frontier entry is kept.
func groupShapeCases() []codecCase {
	valid := [3]string{"2", "1", "7"} // S, C, B
	var out []codecCase
	for s := range siblingStates {
		for c := range siblingStates {
			for b := range siblingStates {
				if s == 0 && c == 0 && b == 0 {
					continue
				}
				entries := []string{`"g":7`}
				for i, st := range [3]int{s, c, b} {
					key := [3]string{"ov_s:g", "ov_c:g", "ov_b:g"}[i]
					switch st {
					case 1:
						entries = append(entries, fmt.Sprintf(`"%s":%s`, key, valid[i]))
					case 2:
						entries = append(entries, fmt.Sprintf(`"%s":4294967296`, key))
					case 3:
						entries = append(entries, fmt.Sprintf(`"%s":"%s"`, key, valid[i]))
					}
				}
				cs := codecCase{
					name:      fmt.Sprintf("group s=%s c=%s b=%s", siblingStates[s], siblingStates[c], siblingStates[b]),
					plaintext: blobWith(strings.Join(entries, ",")),
					outcome:   parseAccept,
					frontiers: map[string]uint32{"g": 7},
				}
				switch {
				case s == 1 && c == 1 && b == 1:
					cs.overrides = map[string]model.Reg{"g": {S: 2, C: 1, B: 7}}
				case s == 0 && c == 1 && b == 0:
					cs.overrides = map[string]model.Reg{"g": {C: 1}}
				}
				out = append(out, cs)
			}
		}
	}
	return out
}

func caseNames(cs []codecCase) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// codecConformance (tie-independent): every case parses
// (model.ParseBlobWith) and decodes (model.Decode) through the rules to
// exactly the outcome, frontiers and registers the spec's text gives.
func codecConformance() *Check {
	cases := codecCases()
	return &Check{
		Key: "codec-conformance", Label: "C1", Name: "blob parsing and decoding as Content Validation states",
		Params: []Param{{Name: "case", Enum: caseNames(cases)}}, TieIndependent: true,
		Cube: func(*model.Rules) []Point { return product(seq(len(cases))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				c := cases[p[0]]
				blob, _, err := model.ParseBlobWith(rules, []byte(c.plaintext))
				got := parseAccept
				switch {
				case errors.Is(err, model.ErrUnknownVersion):
					got = parseIgnore
				case err != nil:
					got = parseDiscard
				}
				if got != c.outcome {
					return Outcome{Violation: "C1-codec-blob-outcome", Detail: fmt.Sprintf("%s: %s, want %s (%v)", c.name, got, c.outcome, err)}
				}
				if got != parseAccept {
					return Outcome{}
				}
				d := model.Decode(rules, model.Raw(blob.Contexts))
				fr := map[string]uint32{}
				for _, x := range d.Frontiers {
					fr[x.Ctx] = x.Value
				}
				ov := map[string]model.Reg{}
				for _, x := range d.Overrides {
					ov[x.Ctx] = x.Reg
				}
				if !mapsEqual(fr, c.frontiers) || !mapsEqual(ov, c.overrides) {
					return Outcome{Violation: "C1-codec-entries", Detail: fmt.Sprintf("%s: kept frontiers %s registers %s, want frontiers %s registers %s",
						c.name, mapString(fr), mapString(ov), mapString(c.frontiers), mapString(c.overrides))}
				}
				return Outcome{}
			}
		},
	}
}

func mapsEqual[V comparable](a, b map[string]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// mapString renders a map in key order, long keys shortened.
func mapString[V any](m map[string]V) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		if len(k) > 24 {
			k2 := fmt.Sprintf("%s…(%d bytes)", k[:12], len(k))
			parts = append(parts, fmt.Sprintf("%s:%v", k2, m[k]))
			continue
		}
		parts = append(parts, fmt.Sprintf("%q:%v", k, m[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
