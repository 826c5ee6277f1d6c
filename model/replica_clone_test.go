package model

import (
	"reflect"
	"testing"
)

// CloneInto gives what Clone gives, whatever dst held before, and the copy
// shares no storage with the original.
func TestCloneIntoMatchesClone(t *testing.T) {
	r := NewReplica("a")
	if err := r.MarkRead("c0", 10); err != nil {
		t.Fatal(err)
	}
	if err := r.MarkUnread("c1"); err != nil {
		t.Fatal(err)
	}
	r.Publish()
	big := NewReplica("b")
	for _, ctx := range []string{"c0", "c1", "c2", "c3"} {
		if err := big.MarkRead(ctx, 20); err != nil {
			t.Fatal(err)
		}
	}
	big.Publish()
	for _, dst := range []*Replica{{}, big.Clone(), NewLegacyReplica("z", LegacyDropOverrides)} {
		dst2 := dst
		r.CloneInto(dst2)
		if !reflect.DeepEqual(dst2, r.Clone()) {
			t.Fatalf("CloneInto = %+v, Clone = %+v", dst2, r.Clone())
		}
		dst2.Advance("c0", 30)
		if r.Frontier("c0") != 10 {
			t.Fatalf("CloneInto shares storage: original frontier %d", r.Frontier("c0"))
		}
	}
	// A replica that never published keeps a nil record, as Clone does.
	fresh := NewReplica("f")
	dst := big.Clone()
	fresh.CloneInto(dst)
	if !reflect.DeepEqual(dst, fresh.Clone()) {
		t.Fatalf("CloneInto of a fresh replica = %+v, Clone = %+v", dst, fresh.Clone())
	}
}
