package model

import (
	"errors"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestParseBlobSurrogateSiblings: an override key whose suffix holds an
// unpaired surrogate escape names a different <ctx> from the key whose
// suffix is a real U+FFFD, so the two never form one group (Content
// Validation groups siblings by their suffix). The invalid key is dropped on
// its own; the valid group beside it is judged alone, and no key is
// reported twice.
func TestParseBlobSurrogateSiblings(t *testing.T) {
	const fffd = "\uFFFD"
	tests := []struct {
		name string
		body string
		kept []Entry
		// dropped lists the wire keys dropped, in report order; each key
		// at most once.
		dropped int
	}{
		{"floor beside a lone high surrogate floor",
			`"ov_c:\ufffd":3,"ov_c:\ud800":5`,
			[]Entry{{Key: "ov_c:" + fffd, Value: 3}}, 1},
		{"lone surrogate floor first",
			`"ov_c:\ud800":5,"ov_c:\ufffd":3`,
			[]Entry{{Key: "ov_c:" + fffd, Value: 3}}, 1},
		{"triple beside a lone surrogate floor",
			`"ov_s:\ufffd":2,"ov_c:\ufffd":1,"ov_b:\ufffd":10,"ov_c:\ud800":9`,
			[]Entry{{Key: "ov_b:" + fffd, Value: 10}, {Key: "ov_c:" + fffd, Value: 1}, {Key: "ov_s:" + fffd, Value: 2}}, 1},
		{"lone low surrogate sibling",
			`"ov_c:\ufffd":4,"ov_s:\udc00":1`,
			[]Entry{{Key: "ov_c:" + fffd, Value: 4}}, 1},
		{"two different lone surrogates are two keys",
			`"ov_c:\ud800":1,"ov_c:\udbff":2,"ov_c:\ufffd":3`,
			[]Entry{{Key: "ov_c:" + fffd, Value: 3}}, 2},
		{"frontier U+FFFD beside a lone surrogate frontier",
			`"\ufffd":1,"\ud800":2,"ov_c:\ufffd":6`,
			[]Entry{{Key: "ov_c:" + fffd, Value: 6}, {Key: fffd, Value: 1}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, rep, err := ParseBlob([]byte(blobWith(tc.body)))
			if err != nil {
				t.Fatalf("rejected: %v", err)
			}
			if !reflect.DeepEqual(b.Contexts, tc.kept) {
				t.Errorf("kept = %v, want %v", b.Contexts, tc.kept)
			}
			seen := map[string]bool{}
			for _, d := range rep.Drops {
				if seen[d.Key] {
					t.Errorf("key %q reported twice: %q", d.Key, rep.Drops)
				}
				seen[d.Key] = true
				if !strings.Contains(d.Reason, ReasonKeyNotUTF8) {
					t.Errorf("drop %q: reason %q, want it to say %q", d.Key, d.Reason, ReasonKeyNotUTF8)
				}
			}
			if len(rep.Drops) != tc.dropped {
				t.Errorf("drops = %q, want %d", rep.Drops, tc.dropped)
			}
			if len(rep.Duplicates) != 0 {
				t.Errorf("duplicates = %q, want none", rep.Duplicates)
			}
		})
	}
}

// TestParseBlobInvalidLiterals: number forms that are not JSON make the
// whole plaintext invalid JSON (Content Validation, first rule), so the blob
// is discarded whatever the rule set reads a literal as; none of them is a
// value. Each is tried as a frontier value, as an override value, and as v.
func TestParseBlobInvalidLiterals(t *testing.T) {
	lits := []string{
		"007", "00", "01", "-01", "+1", "+0", ".5", "-.5", "1.", "1.e3", "0x10", "0X1f", "1e", "1e+", "1E-",
		"--1", "-", "1_000", "Infinity", "-Infinity", "NaN", "1,5", "0b1", "1..2", "١", "1e3.5",
	}
	for _, rules := range []*Rules{Proposed(), ByValueIntegers()} {
		for _, lit := range lits {
			for _, in := range []string{
				blobWith(`"a":` + lit),
				blobWith(`"a":1,"ov_c:a":` + lit),
				`{"v":` + lit + `,"client_id":"c","contexts":{}}`,
			} {
				b, _, err := ParseBlobWith(rules, []byte(in))
				if !errors.Is(err, ErrInvalidBlob) {
					t.Errorf("%s: %s: got %+v, %v; want the blob discarded", rules.Name, in, b, err)
				}
			}
			if v, ok := rules.SanitizeValue(lit); ok {
				t.Errorf("%s: SanitizeValue(%q) = %d, true; want refused", rules.Name, lit, v)
			}
		}
	}
}

// hostileRepeats is a plaintext of just under MaxPlaintextBytes: members
// repeated contexts members, then one contexts member holding commas
// commas inside a string value (each comma a possible member separator to a
// naive size estimate).
func hostileRepeats(members, commas int) []byte {
	var b strings.Builder
	b.WriteString(`{"v":1,"client_id":"c"`)
	for range members {
		b.WriteString(`,"contexts":{}`)
	}
	b.WriteString(`,"x":"` + strings.Repeat(",", commas) + `"}`)
	return []byte(b.String())
}

// allocShapes are inputs that stress the codec's allocation: repeated
// contexts members before many commas, many small entries, many override
// siblings, many escapes.
func allocShapes() []allocShape {
	return []allocShape{
		{"repeated-contexts-before-commas", hostileRepeats(3960, 10000)},
		{"repeated-nonempty-contexts", []byte(`{"v":1,"client_id":"c"` + strings.Repeat(`,"contexts":{"a":1}`, 3000) + `}`)},
		{"small-entries", []byte(blobWith(manyEntries(5000, false)))},
		{"override-floors", []byte(blobWith(manyFloors(4000)))},
		{"escaped-key", []byte(blobWith(`"` + strings.Repeat(`\u00e9`, 10000) + `":1`))},
		{"unknown-members", []byte(`{"v":1,"client_id":"c","contexts":{}` + strings.Repeat(`,"x":[1,2]`, 6000) + `}`)},
		{"duplicates-at-limit", densestDuplicates()},
	}
}

type allocShape struct {
	name string
	data []byte
}

// manyFloors is n distinct tombstone floors "ov_c:0":1,"ov_c:1":1,...
func manyFloors(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"ov_c:` + strconv.Itoa(i) + `":1`)
	}
	return b.String()
}

// maxAllocPerByte bounds the bytes one parse may allocate per plaintext
// byte, plus allocSlack for the fixed part. An entry costs a few dozen
// bytes of bookkeeping (raw entry, kept entry, sibling) and takes at least
// 5 bytes of input, so a linear parse stays well below the bound; a parse
// that reserves per member from a whole-input estimate exceeds it a
// thousandfold.
const (
	maxAllocPerByte = 64
	allocSlack      = 64 << 10
)

// parseAllocatedWith is the bytes one ParseBlobWith(rules, data)
// allocates (the mean of runs, so that a stray allocation of the runtime
// does not count whole).
func parseAllocatedWith(rules *Rules, data []byte, runs int) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before) // TotalAlloc counts every allocation, collected or not
	for range runs {
		_, _, _ = ParseBlobWith(rules, data)
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// allocRules are the rule sets whose parse the allocation tests bound:
// the production rules, and the reading that counts distinct keys and so
// keeps every member past the 10,000th.
func allocRules() []*Rules { return []*Rules{Proposed(), DistinctKeyLimit()} }

// TestParseBlobAllocationBounded: a parse allocates at most
// maxAllocPerByte bytes per input byte (plus a constant), whatever the
// shape of the input.
func TestParseBlobAllocationBounded(t *testing.T) {
	for _, sh := range allocShapes() {
		name, data := sh.name, sh.data
		if len(data) > MaxPlaintextBytes {
			t.Fatalf("%s: %d bytes, over the plaintext limit", name, len(data))
		}
		for _, rules := range allocRules() {
			got := parseAllocatedWith(rules, data, 3)
			limit := uint64(maxAllocPerByte*len(data) + allocSlack)
			t.Logf("%s, %s: %d input bytes, %d allocated (%.1f per byte)", name, rules.Name, len(data), got, float64(got)/float64(len(data)))
			if got > limit {
				t.Errorf("%s, %s: one parse of %d bytes allocated %d bytes, over %d", name, rules.Name, len(data), got, limit)
			}
		}
	}
}

// FuzzParseBlobAllocation: no input makes one parse allocate more than
// maxAllocPerByte bytes per input byte plus a constant.
func FuzzParseBlobAllocation(f *testing.F) {
	f.Add(hostileRepeats(3960, 10000))
	f.Add(hostileRepeats(10, 100))
	f.Add([]byte(blobWith(`"a":1,"ov_c:a":2,"ov_c:\ud800":3`)))
	f.Add(densestDuplicates())
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, rules := range allocRules() {
			got := parseAllocatedWith(rules, data, 1)
			if limit := uint64(maxAllocPerByte*len(data) + allocSlack); got > limit {
				t.Fatalf("%s: one parse of %d bytes allocated %d bytes, over %d", rules.Name, len(data), got, limit)
			}
		}
	})
}

// BenchmarkParseBlobAllocShapes: the parse of each allocation-stressing shape
// (bytes allocated per op in -benchmem).
func BenchmarkParseBlobAllocShapes(b *testing.B) {
	for _, sh := range allocShapes() {
		data := sh.data
		b.Run(sh.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				_, _, _ = ParseBlob(data)
			}
		})
	}
}
