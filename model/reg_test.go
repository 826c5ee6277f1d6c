package model

import (
	"errors"
	"testing"
)

func TestLiveRegTable(t *testing.T) {
	const M = MaxU32
	tests := []struct {
		r    Reg
		f    uint32
		tie  TiePolicy
		want bool
	}{
		{Reg{2, 1, 100}, 50, ClearWins, true},
		{Reg{0, 0, 0}, 0, ClearWins, false},
		{Reg{1, 0, 100}, 200, ClearWins, false},
		{Reg{1, 0, 100}, 100, ClearWins, true},
		{Reg{1, 1, 100}, 50, ClearWins, false},
		{Reg{1, 1, 100}, 50, SetWins, true},
		{Reg{1, 2, 100}, 50, SetWins, false},
		{Reg{0, 5, 0}, 0, SetWins, false},
		{Reg{M, M - 1, M}, 0, ClearWins, true},
		{Reg{M, M, 1}, 0, ClearWins, false},
	}
	for _, tc := range tests {
		if got := liveReg(tc.r, tc.f, tc.tie); got != tc.want {
			t.Errorf("liveReg(%v, %d, %v) = %v, want %v", tc.r, tc.f, tc.tie, got, tc.want)
		}
	}
}

func TestCanonicalRegTable(t *testing.T) {
	tests := []struct {
		r      Reg
		f      uint32
		want   Reg
		wantOK bool
	}{
		{Reg{0, 0, 0}, 0, Reg{}, false},
		{Reg{0, 0, 7}, 0, Reg{}, false},
		{Reg{2, 1, 100}, 50, Reg{2, 1, 100}, true},
		{Reg{1, 2, 100}, 50, Reg{0, 2, 0}, true},
		{Reg{3, 3, 100}, 50, Reg{0, 3, 0}, true},
		{Reg{1, 0, 100}, 200, Reg{0, 1, 0}, true},
		{Reg{0, 5, 0}, 0, Reg{0, 5, 0}, true},
	}
	for _, tc := range tests {
		got, ok := canonicalReg(tc.r, tc.f, ClearWins)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("canonicalReg(%v, %d) = %v,%v want %v,%v", tc.r, tc.f, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestActionsAtCeiling(t *testing.T) {
	const M = MaxU32
	r := Reg{M, M, 0}
	got, err := markUnreadReg(r, 5)
	if !errors.Is(err, ErrCounterCeiling) || got != r {
		t.Fatalf("mark-unread at ceiling = %v, %v; want refusal, register unchanged", got, err)
	}
	// Live at the ceiling: mark-read cannot deactivate, so it fails.
	live := Reg{M, M - 1, 100}
	got, err = markReadReg(live, 100, ClearWins)
	if !errors.Is(err, ErrStillActive) || got != live {
		t.Fatalf("mark-read live at ceiling = %v, %v; want failure, unchanged", got, err)
	}
	// The frontier advance alone deactivates it: success, counters unchanged.
	got, err = markReadReg(live, 101, ClearWins)
	if err != nil || got != live {
		t.Fatalf("mark-read past baseline at ceiling = %v, %v; want success, unchanged", got, err)
	}
	// Ordinary bumps.
	if got, _ := markUnreadReg(Reg{1, 3, 9}, 20); got != (Reg{4, 3, 20}) {
		t.Fatalf("mark-unread = %v", got)
	}
	if got, _ := markReadReg(Reg{4, 3, 20}, 20, ClearWins); got != (Reg{4, 5, 20}) {
		t.Fatalf("mark-read = %v", got)
	}
}

func TestReplicaFloorTravels(t *testing.T) {
	phone, desk := NewReplica("phone"), NewReplica("desktop")
	phone.Advance("chan-1", 100)
	if err := phone.MarkUnread("chan-1"); err != nil {
		t.Fatal(err)
	}
	desk.Receive(phone.Publish())
	if !desk.Live("chan-1") {
		t.Fatal("override did not travel")
	}
	if err := desk.MarkRead("chan-1", 150); err != nil {
		t.Fatal(err)
	}
	b := desk.Publish()
	if _, ok := b.Value("ov_s:chan-1"); ok {
		t.Fatalf("dead register published live: %v", b.Contexts)
	}
	if v, _ := b.Value("ov_c:chan-1"); v != 2 {
		t.Fatalf("floor = %d, want 2", v)
	}
	phone.Receive(b)
	if phone.Live("chan-1") || phone.Reg("chan-1") != (Reg{1, 2, 100}) {
		t.Fatalf("phone after floor: live=%v reg=%v", phone.Live("chan-1"), phone.Reg("chan-1"))
	}
}

func TestEncodeBlobDeterministic(t *testing.T) {
	b := Blob{V: 1, ClientID: "c\"1", Contexts: []Entry{{"z", 2}, {"a", 1}, {"é", 3}}}
	got := string(EncodeBlob(b))
	want := `{"v":1,"client_id":"c\"1","contexts":{"a":1,"z":2,"é":3}}`
	if got != want {
		t.Fatalf("EncodeBlob = %s, want %s", got, want)
	}
}

func TestEncodeBlobNeverWritesDuplicateKeys(t *testing.T) {
	b := Blob{V: 1, ClientID: "c", Contexts: []Entry{{"a", 1}, {"a", 2}, {"b", 3}}}
	got := string(EncodeBlob(b))
	want := `{"v":1,"client_id":"c","contexts":{"a":2,"b":3}}`
	if got != want {
		t.Fatalf("EncodeBlob = %s, want %s (last of equal keys wins)", got, want)
	}
}
