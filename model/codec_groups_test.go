package model

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/num"
)

// TestParseBlobGroupShapes: every accepted and rejected override group shape
// (Content Validation). A rejected group loses all its siblings and keeps the
// context's frontier entry; an accepted one is kept in the shape it arrived.
func TestParseBlobGroupShapes(t *testing.T) {
	long := strings.Repeat("x", MaxKeyBytes-len(PrefixS)+1) // siblings of 257 bytes
	fit := strings.Repeat("x", MaxKeyBytes-len(PrefixS))    // siblings of 256 bytes
	const M = "4294967295"
	tests := []struct {
		name   string
		ctx    string
		group  string // members for ctx (without the frontier entry)
		accept bool
		reg    Reg // the merged register when accepted
	}{
		{"S only", "chan", `"ov_s:chan":1`, false, Reg{}},
		{"B only", "chan", `"ov_b:chan":10`, false, Reg{}},
		{"C only: tombstone floor", "chan", `"ov_c:chan":3`, true, Reg{C: 3}},
		{"S+C", "chan", `"ov_s:chan":2,"ov_c:chan":1`, false, Reg{}},
		{"S+B", "chan", `"ov_s:chan":2,"ov_b:chan":10`, false, Reg{}},
		{"C+B", "chan", `"ov_c:chan":1,"ov_b:chan":10`, false, Reg{}},
		{"S+C+B: live triple", "chan", `"ov_s:chan":2,"ov_c:chan":1,"ov_b:chan":10`, true, Reg{2, 1, 10}},
		{"triple in any order", "chan", `"ov_b:chan":10,"ov_c:chan":1,"ov_s:chan":2`, true, Reg{2, 1, 10}},
		{"invalid S (string)", "chan", `"ov_s:chan":"2","ov_c:chan":1,"ov_b:chan":10`, false, Reg{}},
		{"invalid C (-1)", "chan", `"ov_s:chan":2,"ov_c:chan":-1,"ov_b:chan":10`, false, Reg{}},
		{"invalid B (1.0)", "chan", `"ov_s:chan":2,"ov_c:chan":1,"ov_b:chan":10.0`, false, Reg{}},
		{"invalid B (too large)", "chan", `"ov_s:chan":2,"ov_c:chan":1,"ov_b:chan":4294967296`, false, Reg{}},
		{"invalid S (null)", "chan", `"ov_s:chan":null,"ov_c:chan":1,"ov_b:chan":10`, false, Reg{}},
		{"tombstone with invalid C", "chan", `"ov_c:chan":"x"`, false, Reg{}},
		{"tombstone with C 1e3", "chan", `"ov_c:chan":1e3`, false, Reg{}},
		{"oversized sibling keys (257 bytes)", long, `"ov_s:` + long + `":1,"ov_c:` + long + `":0,"ov_b:` + long + `":10`, false, Reg{}},
		{"oversized floor key", long, `"ov_c:` + long + `":4`, false, Reg{}},
		{"siblings of exactly 256 bytes", fit, `"ov_s:` + fit + `":1,"ov_c:` + fit + `":0,"ov_b:` + fit + `":10`, true, Reg{1, 0, 10}},
		{"live all-zero accepted (virgin)", "chan", `"ov_s:chan":0,"ov_c:chan":0,"ov_b:chan":0`, true, Reg{}},
		{"all MaxU32 accepted", "chan", `"ov_s:chan":` + M + `,"ov_c:chan":` + M + `,"ov_b:chan":` + M, true, Reg{MaxU32, MaxU32, MaxU32}},
		{"floor at MaxU32", "chan", `"ov_c:chan":` + M, true, Reg{C: MaxU32}},
		{"duplicate sibling, last invalid", "chan", `"ov_s:chan":2,"ov_c:chan":1,"ov_b:chan":10,"ov_s:chan":"x"`, false, Reg{}},
		{"duplicate sibling, last valid", "chan", `"ov_s:chan":"x","ov_c:chan":1,"ov_b:chan":10,"ov_s:chan":2`, true, Reg{2, 1, 10}},
		{"raw id in reserved namespace", "ov_s:evil", `"ov_s:ov_s:evil":2,"ov_c:ov_s:evil":1,"ov_b:ov_s:evil":10`, true, Reg{2, 1, 10}},
		{"empty raw id", "", `"ov_c:":5`, true, Reg{C: 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			frontier := EscapeKey(tc.ctx)
			body := fmt.Sprintf(`%q:7,"other":1,%s`, frontier, tc.group)
			b, rep, err := ParseBlob([]byte(blobWith(body)))
			if err != nil {
				t.Fatalf("rejected: %v", err)
			}
			if v, ok := b.Value(frontier); !ok || v != 7 {
				t.Fatalf("frontier entry %q not kept: %v", frontier, b.Contexts)
			}
			if _, ok := b.Value("other"); !ok {
				t.Fatalf("unrelated entry lost: %v", b.Contexts)
			}
			var ovKept, ovDropped int
			for _, e := range b.Contexts {
				if k, _ := groupKey(e.Key); k != KeyFrontier {
					ovKept++
				}
			}
			for _, d := range rep.Drops {
				if !strings.HasPrefix(d.Reason, ReasonGroupRejected) {
					t.Errorf("unexpected drop %v", d)
				}
				ovDropped++
			}
			present := countSiblings(tc.group)
			if tc.accept && (ovKept != present || ovDropped != 0) {
				t.Fatalf("accepted group: kept %d of %d siblings, dropped %v", ovKept, present, rep.Drops)
			}
			if !tc.accept && (ovKept != 0 || ovDropped != present) {
				t.Fatalf("rejected group: kept %d, dropped %d of %d: %v", ovKept, ovDropped, present, rep.Drops)
			}
			st := MergeBlobs(Proposed(), b)
			if got := st.Regs[tc.ctx]; got != tc.reg {
				t.Fatalf("merged register = %v, want %v", got, tc.reg)
			}
			if st.Frontiers[tc.ctx] != 7 {
				t.Fatalf("merged frontier = %d, want 7", st.Frontiers[tc.ctx])
			}
		})
	}
}

// countSiblings counts the distinct override keys in a members list.
func countSiblings(members string) int {
	seen := map[string]bool{}
	for _, m := range strings.Split(members, `,"`) {
		k, _, _ := strings.Cut(strings.TrimPrefix(m, `"`), `":`)
		seen[k] = true
	}
	return len(seen)
}

// slotState is one component of a group in the exhaustive shape table.
type slotState uint8

const (
	slotAbsent slotState = iota
	slotValid
	slotInvalid
)

// groupShapes enumerates every group over {absent, valid, invalid}^3 with at
// least one key present and parses each, returning how many were accepted.
// It fails t on any disagreement with the rule "all three valid, or a lone
// valid ov_c".
func groupShapes(t *testing.T) (accepted, total int) {
	states := []slotState{slotAbsent, slotValid, slotInvalid}
	for _, s := range states {
		for _, c := range states {
			for _, b := range states {
				if s == slotAbsent && c == slotAbsent && b == slotAbsent {
					continue
				}
				total++
				var members []string
				for i, st := range []slotState{s, c, b} {
					key := []string{PrefixS, PrefixC, PrefixB}[i] + "g"
					switch st {
					case slotValid:
						members = append(members, fmt.Sprintf("%q:%d", key, 5+i))
					case slotInvalid:
						members = append(members, fmt.Sprintf("%q:%q", key, "x"))
					}
				}
				want := s == slotValid && c == slotValid && b == slotValid ||
					s == slotAbsent && c == slotValid && b == slotAbsent
				blob, rep, err := ParseBlob([]byte(blobWith(`"g":1,` + strings.Join(members, ","))))
				if err != nil {
					t.Fatalf("shape S=%d C=%d B=%d: %v", s, c, b, err)
				}
				got := len(blob.Contexts) > 1
				if got != want {
					t.Errorf("shape S=%d C=%d B=%d: accepted=%v, want %v (%v, %v)", s, c, b, got, want, blob.Contexts, rep.Drops)
				}
				if got {
					accepted++
				}
				if _, ok := blob.Value("g"); !ok {
					t.Errorf("shape S=%d C=%d B=%d: frontier entry lost", s, c, b)
				}
			}
		}
	}
	return accepted, total
}

func TestGroupShapesExhaustive(t *testing.T) {
	accepted, total := groupShapes(t)
	if accepted != 2 || total != 26 {
		t.Fatalf("accepted %d of %d shapes, want 2 of 26", accepted, total)
	}
	codecNoteMentions(t, "of the 26 non-empty group shapes")
	codecNoteMentions(t, "exactly 2 are accepted")
}

// TestGroupRejectionReasons: the report names every sibling of a rejected
// group, with the group rule's error and, for an invalid sibling, its own
// reason.
func TestGroupRejectionReasons(t *testing.T) {
	_, rep, err := ParseBlob([]byte(blobWith(`"ov_s:a":1,"ov_c:a":"x","ov_b:a":2,"ov_s:b":1`)))
	if err != nil {
		t.Fatal(err)
	}
	want := []Drop{
		{"ov_b:a", ReasonGroupRejected + ErrGroupInvalid.Error()},
		{"ov_c:a", ReasonGroupRejected + ErrGroupInvalid.Error() + "; this entry: value is a string, not an integer"},
		{"ov_s:a", ReasonGroupRejected + ErrGroupInvalid.Error()},
		{"ov_s:b", ReasonGroupRejected + ErrGroupPartial.Error()},
	}
	if !reflect.DeepEqual(rep.Drops, want) {
		t.Fatalf("drops:\n got %q\nwant %q", rep.Drops, want)
	}
}

// TestGroupsValidatedBeforePerEntryDiscard: a group rule that accepted
// partial groups would see the invalid sibling present (and invalid), not
// silently removed by the per-entry rule first.
func TestGroupsValidatedBeforePerEntryDiscard(t *testing.T) {
	rules := Proposed()
	var seen []Group
	rules.ValidateGroup = func(g Group) (Reg, error) {
		seen = append(seen, g)
		return validateGroup(g)
	}
	_, _, err := ParseBlobWith(rules, []byte(blobWith(`"ov_s:a":1,"ov_c:a":-1,"ov_b:a":2,"`+strings.Repeat("y", 300)+`":1`)))
	if err != nil {
		t.Fatal(err)
	}
	want := []Group{{Ctx: "a", S: Slot{true, true, 1}, C: Slot{Present: true}, B: Slot{true, true, 2}}}
	if !reflect.DeepEqual(seen, want) {
		t.Fatalf("groups seen = %+v, want %+v", seen, want)
	}
}

// TestFloatLiteralsInGroups documents the interop consequence of rejecting
// 1.0 (NOTE.md, "Integer literals"): one such sibling rejects the whole
// group, while a client reading 1.0 as 1 keeps the register. The frontier
// survives either way, and a lone floor written as 1.0 is invisible here.
func TestFloatLiteralsInGroups(t *testing.T) {
	lenient := Proposed()
	lenient.SanitizeValue = func(lit string) (uint32, bool) {
		if v, ok := sanitizeValue(strings.TrimSuffix(lit, ".0")); ok {
			return v, true
		}
		return 0, false
	}
	for _, tc := range []struct {
		body       string
		strictReg  Reg
		lenientReg Reg
	}{
		{`"c":5,"ov_s:c":2,"ov_c:c":1.0,"ov_b:c":10`, Reg{}, Reg{2, 1, 10}},
		{`"c":5,"ov_c:c":3.0`, Reg{}, Reg{C: 3}},
		{`"c":5,"ov_c:c":3`, Reg{C: 3}, Reg{C: 3}},
	} {
		strict, _, err1 := ParseBlob([]byte(blobWith(tc.body)))
		loose, _, err2 := ParseBlobWith(lenient, []byte(blobWith(tc.body)))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got := MergeBlobs(Proposed(), strict).Regs["c"]; got != tc.strictReg {
			t.Errorf("%s: strict register %v, want %v", tc.body, got, tc.strictReg)
		}
		if got := MergeBlobs(lenient, loose).Regs["c"]; got != tc.lenientReg {
			t.Errorf("%s: lenient register %v, want %v", tc.body, got, tc.lenientReg)
		}
		if v, _ := strict.Value("c"); v != 5 {
			t.Errorf("%s: frontier lost", tc.body)
		}
	}
}

// TestMaxDistinctKeys computes the most distinct context keys any
// plaintext of at most MaxPlaintextBytes can carry: no whitespace, a
// one-character client_id, one-digit values and the shortest keys first
// (the empty key, then the 93 printable ASCII bytes JSON needs no escape
// for, then two-byte keys: pairs of those, and the two-byte UTF-8
// characters). It builds that plaintext by hand, checks that it
// parses with every key kept and that one more key would overflow, and pins
// the figure here and in testdata/figures: it is below MaxEntries, so on real input
// the 10,000-entry limit can only be reached through duplicate keys.
func TestMaxDistinctKeys(t *testing.T) {
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
	for r := rune(0x80); r < 0x800; r++ { // two-byte UTF-8 characters
		keys = append(keys, string(r))
	}
	const head, tail = `{"v":1,"client_id":"c","contexts":{`, `}}`
	size := len(head) + len(tail)
	n := 0
	for ; n < len(keys); n++ {
		add := len(keys[n]) + len(`"":0`)
		if n > 0 {
			add++ // the comma
		}
		if size+add > MaxPlaintextBytes {
			break
		}
		size += add
	}
	var b strings.Builder
	b.WriteString(head)
	for i, k := range keys[:n] {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%s":0`, k)
	}
	b.WriteString(tail)
	if b.Len() != size {
		t.Fatalf("built %d bytes, computed %d", b.Len(), size)
	}
	blob, rep, err := ParseBlob([]byte(b.String()))
	if err != nil || len(blob.Contexts) != n || len(rep.Drops) != 0 {
		t.Fatalf("largest blob: %v, %d of %d entries kept, %v", err, len(blob.Contexts), n, rep.Drops)
	}
	const pinned = 9370
	if n != pinned {
		t.Fatalf("max distinct keys = %d, pinned %d", n, pinned)
	}
	if n >= MaxEntries {
		t.Fatalf("%d distinct keys fit: the entry limit is reachable without duplicates", n)
	}
	codecNoteMentions(t, fmt.Sprintf("%s distinct keys", num.Commas(pinned)))
}
