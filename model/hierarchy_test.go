package model

import (
	"testing"
)

type hierarchyVector struct {
	Channel       string            `json:"channel"`
	Thread        string            `json:"thread"`
	Frontiers     map[string]uint32 `json:"frontiers"`
	WantEffective uint32            `json:"want_effective"`
	Replies       []struct {
		CreatedAt uint32 `json:"created_at"`
		Unread    bool   `json:"unread"`
	} `json:"replies"`
	ThreadEntryEvictable bool `json:"thread_entry_evictable"`
}

// TestHierarchyExample is the spec's example: thread:X at 100 under a
// channel at 150 has effective frontier 150; a reply at 140 reads as read,
// one at 160 as unread; the thread's own entry is dominated and evictable.
func TestHierarchyExample(t *testing.T) {
	var v hierarchyVector
	loadVector(t, "hierarchy_example.json", &v)
	parent := func(string) (string, bool) { return v.Channel, true }
	r := NewReplica("x")
	r.Parent = parent
	for ctx, ts := range v.Frontiers {
		r.Advance(ctx, ts)
	}
	if got := r.Effective(v.Thread); got != v.WantEffective {
		t.Fatalf("effective(thread) = %d, want %d", got, v.WantEffective)
	}
	for _, rep := range v.Replies {
		reply := MsgPrefix + hex64(int(rep.CreatedAt))
		if got := r.ReplyUnread(reply, v.Thread, rep.CreatedAt); got != rep.Unread {
			t.Errorf("reply at %d unread = %v, want %v", rep.CreatedAt, got, rep.Unread)
		}
		if got := r.Unread(v.Thread, rep.CreatedAt); got != rep.Unread {
			t.Errorf("thread with latest reply at %d unread = %v, want %v", rep.CreatedAt, got, rep.Unread)
		}
	}
	sp, err := r.Split(DefaultBudget())
	if err != nil {
		t.Fatal(err)
	}
	evicted := len(sp.Evicted) == 1 && sp.Evicted[0].Key == v.Thread && sp.Evicted[0].Reason == EvictDominated
	if evicted != v.ThreadEntryEvictable {
		t.Fatalf("evictions %v, want the thread entry evicted = %v", sp.Evicted, v.ThreadEntryEvictable)
	}
}

func TestEffectiveReplyTable(t *testing.T) {
	const ch = "chan"
	th, m, orphanMsg := ThreadPrefix+hex64(1), MsgPrefix+hex64(2), MsgPrefix+hex64(3)
	parent := func(raw string) (string, bool) {
		if raw == orphanMsg {
			return "", false
		}
		return ch, true
	}
	tests := []struct {
		name        string
		front       map[string]uint32
		msg, thread string
		want        uint32
	}{
		{"channel term", map[string]uint32{ch: 150, m: 100}, m, "", 150},
		{"own message marker", map[string]uint32{ch: 150, m: 180}, m, "", 180},
		{"thread folded in", map[string]uint32{ch: 150, m: 100, th: 200}, m, th, 200},
		{"thread not known", map[string]uint32{ch: 150, m: 100, th: 200}, m, "", 150},
		{"unresolvable parent degrades to own", map[string]uint32{ch: 150, orphanMsg: 90}, orphanMsg, "", 90},
		{"unresolvable message, thread known", map[string]uint32{ch: 150, orphanMsg: 90, th: 120}, orphanMsg, th, 150},
		{"opaque msg: id is its own context", map[string]uint32{ch: 150, "msg:short": 7}, "msg:short", "", 7},
	}
	for _, tc := range tests {
		own := func(c string) uint32 { return tc.front[c] }
		if got := EffectiveReply(own, parent, tc.msg, tc.thread); got != tc.want {
			t.Errorf("%s: effective(reply) = %d, want %d", tc.name, got, tc.want)
		}
		if ReplyUnread(own, parent, tc.msg, tc.thread, tc.want) || !ReplyUnread(own, parent, tc.msg, tc.thread, tc.want+1) {
			t.Errorf("%s: unread verdict not at the effective frontier", tc.name)
		}
	}
}

func TestChannelReadTopLevelOnly(t *testing.T) {
	tests := []struct {
		name   string
		msgs   []ChannelMessage
		want   uint32
		wantOK bool
	}{
		{"newest top-level", []ChannelMessage{{100, true}, {300, false}, {200, true}}, 200, true},
		{"replies only", []ChannelMessage{{300, false}}, 0, false},
		{"none", nil, 0, false},
		{"zero timestamp", []ChannelMessage{{0, true}}, 0, true},
	}
	for _, tc := range tests {
		r := NewReplica("x")
		ts, moved := r.MarkChannelRead("chan", tc.msgs)
		if ts != tc.want || moved != tc.wantOK || r.Frontier("chan") != tc.want || r.HasFrontier("chan") != tc.wantOK {
			t.Errorf("%s: target %d moved %v frontier %d, want %d %v", tc.name, ts, moved, r.Frontier("chan"), tc.want, tc.wantOK)
		}
	}
	// The thread whose reply is newer than every top-level message stays
	// unread after the channel read (Write Discipline).
	r := NewReplica("x")
	th := ThreadPrefix + hex64(9)
	r.Parent = func(string) (string, bool) { return "chan", true }
	r.MarkChannelRead("chan", []ChannelMessage{{100, true}, {300, false}})
	if !r.Unread(th, 300) {
		t.Fatal("channel read marked a newer thread reply read")
	}
}

func TestWriteDisciplineAdvancesOnlyOwnContext(t *testing.T) {
	r := NewReplica("x")
	if err := r.MarkThreadRead(hex64(1), 500); err != nil {
		t.Fatal(err)
	}
	if err := r.MarkMessageRead(hex64(2), 600); err != nil {
		t.Fatal(err)
	}
	if got := r.Contexts(); len(got) != 2 || got[0] != MsgPrefix+hex64(2) || got[1] != ThreadPrefix+hex64(1) {
		t.Fatalf("contexts %v", got)
	}
	for _, bad := range []string{"", "ABC", hex64(1)[1:], hex64(1) + "0"} {
		if r.MarkThreadRead(bad, 1) == nil || r.MarkMessageRead(bad, 1) == nil {
			t.Fatalf("accepted event id %q", bad)
		}
	}
	if len(r.Contexts()) != 2 {
		t.Fatal("a rejected id created a context")
	}
}

// TestDominatedIncomingNoRepublish: an incoming child entry at or below the
// channel frontier never triggers a re-publish by itself; a newer one does.
func TestDominatedIncomingNoRepublish(t *testing.T) {
	const ch = "chan"
	parent := func(string) (string, bool) { return ch, true }
	th := ThreadPrefix + hex64(1)
	tests := []struct {
		name string
		in   uint32
		want bool
	}{
		{"below the channel", 100, false},
		{"equal to the channel", 150, false},
		{"above the channel", 151, true},
	}
	for _, tc := range tests {
		r := NewReplica("me")
		r.Parent = parent
		r.Advance(ch, 150)
		if _, err := r.PublishSplit(DefaultBudget()); err != nil {
			t.Fatal(err)
		}
		r.Receive(Blob{V: 1, ClientID: "peer", Contexts: []Entry{{ch, 150}, {th, tc.in}}})
		got, err := r.NeedsRepublishEvicted(DefaultBudget())
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: re-publish = %v, want %v", tc.name, got, tc.want)
		}
		if !tc.want && !r.NeedsRepublish() {
			t.Errorf("%s: the comparison without eviction does not see the entry; the case tests nothing", tc.name)
		}
	}
}
