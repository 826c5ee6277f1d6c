package model

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
	"github.com/nip-rs/harness/internal/num"
)

// TestNIP44PaddedLenMatchesEncryption compares the padding formula with what
// go-nostr's NIP-44 actually produces.
func TestNIP44PaddedLenMatchesEncryption(t *testing.T) {
	k := testKeys(t, testSecret)
	sizes := []int{}
	for n := 1; n <= 600; n++ {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 1023, 1024, 1025, 4095, 4096, 4097, 8193, 16384, 16385, 32767, 32768, 32769, 65535)
	for _, n := range sizes {
		ct, err := k.Encrypt([]byte(strings.Repeat("x", n)))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := base64.StdEncoding.DecodeString(ct)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(raw) - 1 - 32 - 2 - 32; got != NIP44PaddedLen(n) {
			t.Fatalf("plaintext %d: padded to %d, formula says %d", n, got, NIP44PaddedLen(n))
		}
		if len(ct) != CiphertextLen(n) {
			t.Fatalf("plaintext %d: ciphertext %d chars, formula says %d", n, len(ct), CiphertextLen(n))
		}
	}
}

func TestMaxPlaintextForEvent(t *testing.T) {
	for _, limit := range []int{0, 100, 500, 600, 1000, 16 * 1024, 64 * 1000, 64 * 1024, 1 << 20} {
		m := MaxPlaintextForEvent(limit)
		if m > 0 && EventSize(m, widestCreatedAt) > limit {
			t.Errorf("limit %d: %d does not fit", limit, m)
		}
		if m < nip44MaxPlaintext && EventSize(m+1, widestCreatedAt) <= limit {
			t.Errorf("limit %d: %d is not the largest (%d fits)", limit, m, m+1)
		}
	}
}

func TestBlobCapacity(t *testing.T) {
	tests := []struct {
		name string
		b    Budget
		want int
		err  bool
	}{
		{"default: the plaintext budget binds", DefaultBudget(), PlaintextBudget, false},
		{"a 16 KB relay binds", Budget{PlaintextBytes: PlaintextBudget, MaxEventBytes: 16 * 1024}, MaxPlaintextForEvent(16 * 1024), false},
		{"no limits: NIP-44's maximum", Budget{}, nip44MaxPlaintext, false},
		{"a relay too small for any event", Budget{MaxEventBytes: 300}, 0, true},
	}
	for _, tc := range tests {
		got, err := tc.b.BlobCapacity()
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("%s: BlobCapacity = %d, %v; want %d (error %v)", tc.name, got, err, tc.want, tc.err)
		}
	}
	if c := MaxPlaintextForEvent(16 * 1024); c >= PlaintextBudget || c < 10000 {
		t.Fatalf("16 KB relay admits %d plaintext bytes", c)
	}
}

// ceilingKind is one shape of override group the primary's hard ceiling is
// measured in (Bounds and Budget).
type ceilingKind struct {
	name  string
	group func(i int) []Entry
}

// ceilingKinds are measured with 36-byte context ids (a channel UUID) and
// client_id "client-aabbccdd", as in the spec's byte-cost examples.
func ceilingKinds() []ceilingKind {
	const M = MaxU32
	return []ceilingKind{
		{"live groups at the uint32 maximum", func(i int) []Entry {
			c := uuidCtx(i)
			return []Entry{{PrefixS + c, M}, {PrefixC + c, M - 1}, {PrefixB + c, M}}
		}},
		{"floors at the uint32 maximum", func(i int) []Entry { return []Entry{{PrefixC + uuidCtx(i), M}} }},
		{"floors with a one-digit counter", func(i int) []Entry { return []Entry{{PrefixC + uuidCtx(i), 1}} }},
		{"live groups at the maximum with their frontier entry", func(i int) []Entry {
			c := uuidCtx(i)
			return []Entry{{c, 1700000000}, {PrefixS + c, M}, {PrefixC + c, M - 1}, {PrefixB + c, M}}
		}},
	}
}

// ceilingCount is the largest number of such groups the primary holds
// under DefaultBudget.
func ceilingCount(group func(int) []Entry) int {
	fits := func(n int) bool {
		var es []Entry
		for i := range n {
			es = append(es, group(i)...)
		}
		_, err := SplitBlob(Proposed(), Blob{V: 1, ClientID: "client-aabbccdd", Contexts: SortEntries(es)}, DefaultBudget(), nil)
		return err == nil
	}
	lo, hi := 0, 2000
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// TestBudgetFiguresInNote computes the pinned figures of the slot budget
// and compares them with testdata/figures/TestBudgetFiguresInNote.txt.
func TestBudgetFiguresInNote(t *testing.T) {
	figs := figfile.For(t, *update)
	phrases := []string{
		fmt.Sprintf("could carry %s plaintext bytes", num.Commas(MaxPlaintextForEvent(DefaultMaxEventBytes))),
		fmt.Sprintf("encrypts to %s base64 characters, a %s-byte event",
			num.Commas(CiphertextLen(PlaintextBudget)), num.Commas(EventSize(PlaintextBudget, 1700000000))),
		fmt.Sprintf("at most %d coordinates", DefaultMaxCoordinates),
	}
	for _, k := range ceilingKinds() {
		phrases = append(phrases, fmt.Sprintf("%s %s", num.Commas(ceilingCount(k.group)), k.name))
	}
	for _, p := range phrases {
		figs.Line(p)
	}
}
