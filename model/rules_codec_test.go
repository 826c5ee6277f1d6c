package model

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/num"
)

func init() {
	ruleWorkloads = append(ruleWorkloads, ruleWorkload{"parse blob, a key not UTF-8", workloadParseBadKey})
	rulePaths = append(rulePaths, rulePath{"parse blob, a key not UTF-8", workloadParseBadKey,
		[]string{"Rules.BadKeyDiscards", "Rules.CountEntries", "Rules.SanitizeValue"}})
}

// workloadParseBadKey parses a blob with one key of raw bytes that are not
// UTF-8 beside a valid one: whichever reading the rules take, the valid
// entry is either kept with the bad one dropped, or the blob is discarded.
func workloadParseBadKey(t *testing.T, rules *Rules) {
	b, rep, err := ParseBlobWith(rules, []byte(blobWith("\"a\xffb\":1,\"c\":2")))
	switch {
	case err != nil && !errors.Is(err, ErrInvalidBlob):
		t.Fatalf("parse: %v", err)
	case err == nil && (len(b.Contexts) != 1 || len(rep.Drops) != 1):
		t.Fatalf("parse: kept %v dropped %v", b.Contexts, rep.Drops)
	}
}

// TestEntryLimitReadings: 10,001 members of which three are distinct keys
// exceed the limit when it counts members (Spec, and Proposed, which keeps
// the text's reading) and fit when it counts distinct keys; either way the
// report counts the members as written. 10,000 members fit under both.
func TestEntryLimitReadings(t *testing.T) {
	over := blobWith(manyEntries(9998, true) + `,"b":2,"c":3,"d":4`)
	at := blobWith(manyEntries(9998, true) + `,"b":2,"c":3`)
	for _, rules := range []*Rules{Spec(), Proposed()} {
		if _, _, err := ParseBlobWith(rules, []byte(over)); !errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), "10001 entries") {
			t.Errorf("%s: 10,001 members: err = %v, want over the limit", rules.Name, err)
		}
		if _, rep, err := ParseBlobWith(rules, []byte(at)); err != nil || rep.Entries != MaxEntries {
			t.Errorf("%s: 10,000 members: %v, %d entries", rules.Name, err, rep.Entries)
		}
	}
	b, rep, err := ParseBlobWith(DistinctKeyLimit(), []byte(over))
	if err != nil {
		t.Fatalf("distinct keys: 10,001 members, 4 distinct: %v", err)
	}
	want := []Entry{{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}}
	if !reflect.DeepEqual(b.Contexts, want) || rep.Entries != MaxEntries+1 || !reflect.DeepEqual(rep.Duplicates, []string{"a"}) {
		t.Fatalf("distinct keys: kept %v, %d entries, duplicates %v", b.Contexts, rep.Entries, rep.Duplicates)
	}
	if countMembers(10001, 4) != 10001 || countDistinct(10001, 4) != 4 {
		t.Fatal("the count readings swapped")
	}
}

// TestBadKeyReadings: a key that is not valid UTF-8, as raw bytes or as an
// unpaired surrogate escape, drops its entry under Spec and Proposed and
// discards the whole event under UTF8DiscardsEvent, in the group-aware and
// the legacy parse alike; a blob whose keys are all valid is read the same
// under both.
func TestBadKeyReadings(t *testing.T) {
	for _, body := range []string{"\"a\xffb\":1,\"c\":2", `"\ud800":1,"c":2`, `"c":2,"ov_c:\udc00":1`} {
		in := []byte(blobWith(body))
		for _, rules := range []*Rules{Spec(), Proposed()} {
			b, rep, err := ParseBlobWith(rules, in)
			if err != nil || !reflect.DeepEqual(b.Contexts, []Entry{{"c", 2}}) || len(rep.Drops) != 1 || !strings.Contains(rep.Drops[0].Reason, ReasonKeyNotUTF8) {
				t.Errorf("%s: %q: %v, kept %v, dropped %v", rules.Name, body, err, b.Contexts, rep.Drops)
			}
		}
		discard := UTF8DiscardsEvent()
		if _, _, err := ParseBlobWith(discard, in); !errors.Is(err, ErrInvalidBlob) || !strings.Contains(err.Error(), "is not valid UTF-8") {
			t.Errorf("%s: %q: err = %v, want the event discarded", discard.Name, body, err)
		}
		if _, _, err := ParseBlobLegacy(discard, in); !errors.Is(err, ErrInvalidBlob) {
			t.Errorf("%s legacy: %q: err = %v, want the event discarded", discard.Name, body, err)
		}
	}
	valid := []byte(blobWith(`"\ud83d\ude00":1,"c":2,"ov_c:c":1`))
	a, _, errA := ParseBlobWith(Proposed(), valid)
	b, _, errB := ParseBlobWith(UTF8DiscardsEvent(), valid)
	if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("valid keys read differently: %v %v / %v %v", a, errA, b, errB)
	}
}

// densestDuplicates is the plaintext of at most MaxPlaintextBytes with the
// most contexts members: the shortest member, "":0, repeated.
func densestDuplicates() []byte {
	const head, tail = `{"v":1,"client_id":"c","contexts":{`, `}}`
	n := (MaxPlaintextBytes - len(head) - len(tail) + 1) / len(`,"":0`)
	return []byte(head + `"":0` + strings.Repeat(`,"":0`, n-1) + tail)
}

// TestContextMembersBound: the densest plaintext within MaxPlaintextBytes
// holds fewer members than the scanner keeps, so counting distinct keys
// never meets the bound; under the distinct reading it is one entry, under
// the members reading it is over the limit, and its parse allocates within
// the per-byte bound of the hostile-input tests under both.
func TestContextMembersBound(t *testing.T) {
	data := densestDuplicates()
	members := strings.Count(string(data), `"":0`)
	if len(data) > MaxPlaintextBytes || len(data)+len(`,"":0`) <= MaxPlaintextBytes {
		t.Fatalf("%d bytes: not the densest plaintext within %d", len(data), MaxPlaintextBytes)
	}
	if members >= maxContextMembers {
		t.Fatalf("%d members fit a plaintext, the scanner keeps %d", members, maxContextMembers)
	}
	b, rep, err := ParseBlobWith(DistinctKeyLimit(), data)
	if err != nil || !reflect.DeepEqual(b.Contexts, []Entry{{"", 0}}) || rep.Entries != members {
		t.Fatalf("distinct keys: %v, kept %v, %d entries of %d", err, b.Contexts, rep.Entries, members)
	}
	if _, _, err := ParseBlobWith(Proposed(), data); !errors.Is(err, ErrInvalidBlob) {
		t.Fatalf("members: %d members accepted: %v", members, err)
	}
	limit := uint64(maxAllocPerByte*len(data) + allocSlack)
	for _, rules := range []*Rules{Proposed(), DistinctKeyLimit()} {
		got := parseAllocatedWith(rules, data, 3)
		t.Logf("%s: %d members in %d bytes, %d allocated (%.1f per byte)", rules.Name, members, len(data), got, float64(got)/float64(len(data)))
		if got > limit {
			t.Errorf("%s: one parse of %d bytes allocated %d, over %d", rules.Name, len(data), got, limit)
		}
	}
}

// TestDistinctLimitUnreachable computes the most distinct contexts keys
// any plaintext within MaxPlaintextBytes carries when keys of raw bytes
// that are not UTF-8 count too (each a distinct entry to a parser that
// counts distinct keys): the empty key, then every single byte a JSON
// string holds unescaped, then pairs of them. It is below MaxEntries, so
// under DistinctKeyLimit the 10,000-entry limit rejects no plaintext a
// decryption can give. Pinned here and in testdata/figures.
func TestDistinctLimitUnreachable(t *testing.T) {
	var one []string
	for c := 0x20; c <= 0xff; c++ {
		if c != '"' && c != '\\' {
			one = append(one, string([]byte{byte(c)}))
		}
	}
	keys := append([]string{""}, one...)
	for _, a := range one {
		for _, b := range one {
			keys = append(keys, a+b)
		}
	}
	const head, tail = `{"v":1,"client_id":"c","contexts":{`, `}}`
	var b strings.Builder
	b.WriteString(head)
	n := 0
	for ; n < len(keys); n++ {
		member := `"` + keys[n] + `":0`
		if n > 0 {
			member = "," + member
		}
		if b.Len()+len(member)+len(tail) > MaxPlaintextBytes {
			break
		}
		b.WriteString(member)
	}
	b.WriteString(tail)
	_, rep, err := ParseBlobWith(DistinctKeyLimit(), []byte(b.String()))
	if err != nil || rep.Entries != n || len(rep.Duplicates) != 0 {
		t.Fatalf("densest distinct keys: %v, %d entries of %d, duplicates %v", err, rep.Entries, n, rep.Duplicates)
	}
	const pinned = 9389
	if n != pinned {
		t.Fatalf("max distinct keys of any bytes = %d, pinned %d", n, pinned)
	}
	if n > MaxEntries {
		t.Fatalf("%d distinct keys fit: the distinct-key limit can reject a plaintext", n)
	}
	codecNoteMentions(t, fmt.Sprintf("%s distinct keys of any bytes", num.Commas(pinned)))
	codecNoteMentions(t, fmt.Sprintf("the densest plaintext holds %s", num.Commas(strings.Count(string(densestDuplicates()), `"":0`))))
}
