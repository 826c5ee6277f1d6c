package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// benchBlob builds a realistic primary blob of about target encoded bytes:
// channel-UUID frontiers near 1.7e9, every tenth context carrying an
// override (one live triple to three tombstone floors). The seed is fixed,
// so every run measures the same bytes.
func benchBlob(target int) Blob {
	rng := rand.New(rand.NewPCG(1, 2))
	b := Blob{V: 1, ClientID: "desktop-6f1c2a"}
	for i := 0; ; i++ {
		id := fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", rng.Uint32(), rng.Uint32()&0xffff,
			rng.Uint32()&0xffff, rng.Uint32()&0xffff, rng.Uint64()&0xffffffffffff)
		f := 1_700_000_000 + rng.Uint32N(10_000_000)
		es := []Entry{{id, f}}
		switch {
		case i%40 == 0:
			es = append(es, Entry{PrefixS + id, 3}, Entry{PrefixC + id, 2}, Entry{PrefixB + id, f})
		case i%10 == 0:
			es = append(es, Entry{PrefixC + id, 1 + rng.Uint32N(5)})
		}
		next := Blob{V: 1, ClientID: b.ClientID, Contexts: SortEntries(append(slices.Clone(b.Contexts), es...))}
		if EncodedSize(next) > target {
			return b
		}
		b = next
	}
}

func BenchmarkParseBlob32KiB(b *testing.B) {
	data := EncodeBlob(benchBlob(32 << 10))
	blob, rep, err := ParseBlob(data)
	if err != nil || len(rep.Drops) != 0 {
		b.Fatal(err, rep.Drops)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParseBlob(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(blob.Contexts)), "entries")
}

func BenchmarkEncodeBlob32KiB(b *testing.B) {
	blob := benchBlob(32 << 10)
	b.SetBytes(int64(EncodedSize(blob)))
	b.ReportAllocs()
	for b.Loop() {
		_ = EncodeBlob(blob)
	}
}

// benchRegs is a spread of registers and frontiers so that no branch of the
// register functions is predictable from a constant.
func benchRegs() ([]Reg, []uint32) {
	rng := rand.New(rand.NewPCG(3, 4))
	regs := make([]Reg, 1024)
	fs := make([]uint32, 1024)
	for i := range regs {
		regs[i] = Reg{rng.Uint32N(4), rng.Uint32N(4), rng.Uint32N(200)}
		fs[i] = rng.Uint32N(200)
	}
	return regs, fs
}

var (
	sinkReg  Reg
	sinkBool bool
)

func BenchmarkJoinReg(b *testing.B) {
	regs, _ := benchRegs()
	var acc Reg
	i := 0
	for b.Loop() {
		acc = joinReg(acc, regs[i&1023])
		i++
	}
	sinkReg = acc
}

func BenchmarkLiveReg(b *testing.B) {
	regs, fs := benchRegs()
	n := 0
	i := 0
	for b.Loop() {
		if liveReg(regs[i&1023], fs[i&1023], ClearWins) {
			n++
		}
		i++
	}
	sinkBool = n > 0
}

func BenchmarkCanonicalReg(b *testing.B) {
	regs, fs := benchRegs()
	var acc Reg
	i := 0
	for b.Loop() {
		c, _ := canonicalReg(regs[i&1023], fs[i&1023], ClearWins)
		acc = joinReg(acc, c)
		i++
	}
	sinkReg = acc
}

// BenchmarkParseBlobHostile measures the worst inputs a relay or a broken
// writer can hand the parser, each within the 65,535-byte plaintext bound:
// B/op stays a small multiple of the input size.
func BenchmarkParseBlobHostile(b *testing.B) {
	fill := func(unit string) string {
		const head, tail = `{"v":1,"client_id":"c","contexts":{`, `}}`
		n := (MaxPlaintextBytes - len(head) - len(tail)) / (len(unit) + 1)
		return head + unit + strings.Repeat(","+unit, n-1) + tail
	}
	cases := []struct{ name, data string }{
		{"deep-nesting", strings.Repeat("[", MaxPlaintextBytes)},
		{"deep-unknown-key", `{"v":1,"client_id":"c","contexts":{},"x":` + strings.Repeat(`{"a":`, 12000)},
		{"duplicate-keys", fill(`"a":1`)},
		{"escaped-keys", fill(`"\u0061\u00e9\ud83d\ude00":1`)},
		{"invalid-utf8-keys", fill("\"\xff\xfe\":1")},
		{"partial-groups", fill(`"ov_s:x":1`)},
		{"huge-numbers", fill(`"a":1e999999999`)},
	}
	for _, tc := range cases {
		data := []byte(tc.data)
		if len(data) > MaxPlaintextBytes {
			b.Fatalf("%s: %d bytes", tc.name, len(data))
		}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				_, _, _ = ParseBlob(data)
			}
		})
	}
}
