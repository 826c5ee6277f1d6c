package model

import (
	"fmt"
	"testing"
)

// state10000 is a replica with 10,000 contexts: 9,800 frontier-only channel
// contexts and 200 overridden ones (100 live, 100 floors).
func state10000(b *testing.B) *Replica {
	b.Helper()
	r := NewReplica("client-aabbccdd")
	for i := range 10000 {
		r.Advance(uuidCtx(i), 1700000000+uint32(i))
	}
	for i := range 200 {
		c := uuidCtx(i * 50)
		if err := r.MarkUnread(c); err != nil {
			b.Fatal(err)
		}
		if i%2 == 1 {
			if err := r.MarkRead(c, 1800000000); err != nil {
				b.Fatal(err)
			}
		}
	}
	return r
}

// BenchmarkSplit10000 splits a 10,000-context state into coordinates: with
// no coordinate limit (everything published), and under DefaultBudget (8
// coordinates, the oldest frontier entries evicted).
func BenchmarkSplit10000(b *testing.B) {
	r := state10000(b)
	cand := r.Candidate()
	unlimited := DefaultBudget()
	unlimited.MaxCoordinates = 0
	for _, bc := range []struct {
		name   string
		budget Budget
	}{{"unlimited", unlimited}, {"default", DefaultBudget()}} {
		b.Run(bc.name, func(b *testing.B) {
			var sp SplitPlan
			for b.Loop() {
				var err error
				if sp, err = SplitBlob(r.Rules, cand, bc.budget, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(sp.Blobs)), "coordinates")
			b.ReportMetric(float64(len(sp.Evicted)), "evicted")
		})
	}
}

// blob32K is a blob whose plaintext is just under 32 KiB.
func blob32K(b *testing.B) Blob {
	b.Helper()
	bl := Blob{V: 1, ClientID: "client-aabbccdd"}
	for i := 0; ; i++ {
		e := Entry{uuidCtx(i), 1700000000 + uint32(i)}
		if EncodedSize(bl)+slotEntrySize(e) > PlaintextBudget {
			break
		}
		bl.Contexts = append(bl.Contexts, e)
	}
	bl.Contexts = SortEntries(bl.Contexts)
	return bl
}

func BenchmarkEncryptSign32K(b *testing.B) {
	k := testKeys(b, testSecret)
	bl := blob32K(b)
	b.SetBytes(int64(EncodedSize(bl)))
	for b.Loop() {
		if _, err := BuildEvent(k, testSlot, 1700000000, bl); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyDecrypt32K(b *testing.B) {
	k := testKeys(b, testSecret)
	bl := blob32K(b)
	ev, err := BuildEvent(k, testSlot, 1700000000, bl)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("verify+decrypt", func(b *testing.B) {
		b.SetBytes(int64(EncodedSize(bl)))
		for b.Loop() {
			if !ev.CheckID() {
				b.Fatal("id")
			}
			if ok, err := ev.CheckSignature(); !ok || err != nil {
				b.Fatal("signature", err)
			}
			if _, err := k.Decrypt(ev.Content); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ParseEvent", func(b *testing.B) {
		b.SetBytes(int64(EncodedSize(bl)))
		for b.Loop() {
			if _, got, _, err := ParseEvent(Proposed(), k, ev, DefaultMaxEventBytes); err != nil || len(got.Contexts) != len(bl.Contexts) {
				b.Fatal(fmt.Sprint(err, len(got.Contexts)))
			}
		}
	})
}
