package relaycheck_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gobwas/ws"
	"github.com/nbd-wtf/go-nostr"

	wsrelay "github.com/nip-rs/harness/internal/testrelay/hostile"
	"github.com/nip-rs/harness/relaycheck"
)

const hostileSK = "00000000000000000000000000000000000000000000000000000000000000b2"

func signedEv(kind int, content string) *nostr.Event {
	ev := &nostr.Event{CreatedAt: 1_700_000_000, Kind: kind, Tags: nostr.Tags{{"d", "x"}}, Content: content}
	if err := ev.Sign(hostileSK); err != nil {
		panic(err)
	}
	return ev
}

func eventFrame(sub string, ev *nostr.Event) string {
	f, _ := nostr.EventEnvelope{SubscriptionID: &sub, Event: *ev}.MarshalJSON()
	return string(f)
}

// subOf reads the client's next message, a REQ, and returns its
// subscription id.
func subOf(p *wsrelay.Peer) (string, bool) {
	msg, err := p.Read()
	if err != nil {
		return "", false
	}
	var req []json.RawMessage
	var sub string
	if json.Unmarshal(msg, &req) != nil || len(req) < 2 || json.Unmarshal(req[1], &sub) != nil {
		return "", false
	}
	return sub, true
}

func dialHostile(t *testing.T, script func(p *wsrelay.Peer)) *relaycheck.Conn {
	t.Helper()
	srv := wsrelay.Start(t, true, script)
	c, err := relaycheck.Dial(context.Background(), relaycheck.DialWebsocket, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestQueryEndlessStream: a relay that streams EVENTs for a query without
// end. Query keeps at most the limit, counts the rest as excess, and
// returns at its context's end; the live heap stays far under what the
// stream carried (100,000 events of about 450 bytes; held, each costs
// about 0.7 KB of live heap).
func TestQueryEndlessStream(t *testing.T) {
	const limit, sent = 10, 100_000
	ev := signedEv(30078, "flood")
	reached := make(chan struct{})
	c := dialHostile(t, func(p *wsrelay.Peer) {
		sub, ok := subOf(p)
		if !ok {
			return
		}
		frame := eventFrame(sub, ev)
		for i := 0; ; i++ {
			if i == sent {
				close(reached)
			}
			if p.Text(frame) != nil {
				return
			}
		}
	})
	before := liveHeap()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-reached; cancel() }()
	a, err := c.Query(ctx, "q", nostr.Filter{Kinds: []int{30078}, Limit: limit}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("query ended with %v, want its context's end", err)
	}
	after := liveHeap()
	grew := int64(after) - int64(before)
	t.Logf("%d events kept, %d read past the limit; live heap %d -> %d bytes (%+d)", len(a.Events), a.Excess, before, after, grew)
	// One event sent again and again: kept once, the next limit-1
	// copies counted as duplicates, the rest as excess.
	if len(a.Events) != 1 || a.Duplicates != limit-1 || a.Excess == 0 || len(a.Rejected) != 0 {
		t.Fatalf("kept %d events, %d duplicates, excess %d, rejected %d; want 1 kept, %d duplicates and excess", len(a.Events), a.Duplicates, a.Excess, len(a.Rejected), limit-1)
	}
	if grew > 32<<20 {
		t.Fatalf("live heap grew %d bytes over an endless stream", grew)
	}
	runtime.KeepAlive(a)
}

// TestQueryVerifies: an event whose id is malformed or not its hash,
// whose signature fails, or which the filter does not match is rejected
// with a reason, never kept, and never panics; the valid ones are kept in
// order; events past the limit are excess.
func TestQueryVerifies(t *testing.T) {
	good1, good2 := signedEv(30078, "one"), signedEv(30078, "two")
	short := *signedEv(30078, "short")
	short.ID = "00"
	upper := *signedEv(30078, "upper")
	upper.ID = strings.ToUpper(upper.ID)
	notHash := *signedEv(30078, "not the hash")
	notHash.Content = "changed"
	badSig := *signedEv(30078, "bad sig")
	badSig.Content = "other"
	badSig.ID = badSig.GetID()
	badKey := *signedEv(30078, "bad key")
	badKey.PubKey = "zz"
	badKey.ID = badKey.GetID()
	escape := *signedEv(30078, "escape")
	escape.ID = "\x1b[2J" + strings.Repeat("f", 300)
	otherKind := signedEv(1, "kind 1")
	sent := []*nostr.Event{good1, &short, &upper, &notHash, &badSig, &badKey, &escape, otherKind, good2, good1}
	c := dialHostile(t, func(p *wsrelay.Peer) {
		sub, ok := subOf(p)
		if !ok {
			return
		}
		for _, ev := range sent {
			_ = p.Text(eventFrame(sub, ev))
		}
		_ = p.Text(`["EOSE","` + sub + `"]`)
		p.Drain()
	})
	a, err := c.Query(context.Background(), "q", nostr.Filter{Kinds: []int{30078}, Limit: 9}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Events) != 2 || a.Events[0].ID != good1.ID || a.Events[1].ID != good2.ID {
		t.Fatalf("kept %v", a.Events)
	}
	want := []string{
		"event 00: id is not 64 lowercase hex",
		"event " + upper.ID + ": id is not 64 lowercase hex",
		"event " + notHash.ID + ": id is not the hash of the event",
		"event " + badSig.ID + ": signature does not verify",
		"event " + badKey.ID + ": signature does not verify",
		"event \\x1b[2J" + strings.Repeat("f", 196) + "…: id is not 64 lowercase hex",
		"event " + otherKind.ID + ": does not match the filter",
	}
	if fmt.Sprint(a.Rejected) != fmt.Sprint(want) {
		t.Fatalf("rejected\n%q\nwant\n%q", a.Rejected, want)
	}
	if a.Excess != 1 {
		t.Fatalf("excess %d, want 1 (the tenth event under limit 9)", a.Excess)
	}
}

// TestQueryKeepsADuplicateOnce: a relay that delivers a stored event and
// then pushes the same event on the query's subscription (a write
// accepted while it answers) is answered with the event once, so that no
// check counts it twice as a larger cap.
func TestQueryKeepsADuplicateOnce(t *testing.T) {
	one, two := signedEv(30078, "one"), signedEv(30078, "two")
	c := dialHostile(t, func(p *wsrelay.Peer) {
		sub, ok := subOf(p)
		if !ok {
			return
		}
		for _, ev := range []*nostr.Event{one, two, one} {
			_ = p.Text(eventFrame(sub, ev))
		}
		_ = p.Text(`["EOSE","` + sub + `"]`)
		p.Drain()
	})
	a, err := c.Query(context.Background(), "q", nostr.Filter{Kinds: []int{30078}, Limit: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Events) != 2 || a.Duplicates != 1 || a.Excess != 0 {
		t.Fatalf("kept %d events, %d duplicates, %d excess; want 2, 1, 0", len(a.Events), a.Duplicates, a.Excess)
	}
}

// TestRelayTextEscaped: CLOSED and OK reasons come out escaped and
// bounded.
func TestRelayTextEscaped(t *testing.T) {
	raw := "\x1b]0;owned\x07 blocked:\u202e" + strings.Repeat("é", 500)
	reason, _ := json.Marshal(raw)
	ev := signedEv(30078, "publish")
	c := dialHostile(t, func(p *wsrelay.Peer) {
		if _, err := p.Read(); err != nil { // the EVENT
			return
		}
		_ = p.Text(`["OK","` + ev.ID + `",false,` + string(reason) + `]`)
		sub, ok := subOf(p)
		if !ok {
			return
		}
		_ = p.Text(`["CLOSED","` + sub + `",` + string(reason) + `]`)
		p.Drain()
	})
	want := `\x1b]0;owned\x07 blocked:\u202e` + strings.Repeat("é", 200-utf8.RuneCountInString("\x1b]0;owned\x07 blocked:\u202e")) + "…"
	ok, why, err := c.Publish(context.Background(), ev, nil)
	if err != nil || ok || why != want {
		t.Fatalf("publish: %v %v %q\nwant %q", ok, err, why, want)
	}
	a, err := c.Query(context.Background(), "q", nostr.Filter{Kinds: []int{30078}, Limit: 1}, nil)
	if err != nil || !a.Refused || a.Closed != want {
		t.Fatalf("query: %v refused %v %q", err, a.Refused, a.Closed)
	}
}

// TestQueryOversized: a compressed answer inflating to 128 MB (compression
// was not negotiated), a frame announcing 1 GiB and a plain 1 MB message
// each end the connection with an error, having allocated a few MB at
// most.
func TestQueryOversized(t *testing.T) {
	bomb := wsrelay.Bomb(128 << 20)
	tests := []struct {
		name, want string
		send       func(p *wsrelay.Peer, sub string)
	}{
		{"deflate bomb", "rsv", func(p *wsrelay.Peer, _ string) { _ = p.Deflated(bomb) }},
		{"1 GiB announced", "size bound", func(p *wsrelay.Peer, _ string) {
			_ = p.Frame(ws.Header{Fin: true, OpCode: ws.OpText, Length: 1 << 30}, []byte(`["EVENT",`))
		}},
		{"1 MB event", "size bound", func(p *wsrelay.Peer, sub string) {
			_ = p.Text(eventFrame(sub, signedEv(30078, strings.Repeat("x", 1<<20))))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := dialHostile(t, func(p *wsrelay.Peer) {
				sub, ok := subOf(p)
				if !ok {
					return
				}
				tc.send(p, sub)
				p.Drain()
			})
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := c.Query(context.Background(), "q", nostr.Filter{Limit: 1}, nil)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, relaycheck.ErrClosed) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("query ended with %v, want the connection closed (%s)", err, tc.want)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
				t.Fatalf("reading it allocated %d bytes", got)
			}
		})
	}
}

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"blocked: rate limited", "blocked: rate limited"},
		{"", ""},
		{"a\nb\tc\rd", `a\nb\tc\rd`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{`back\slash`, `back\\slash`},
		{"bidi \u202eevil\u2066", `bidi \u202eevil\u2066`},
		{"zero\u200bwidth", `zero\u200bwidth`},
		{"bad \xff utf8", `bad \xff utf8`},
		{"del \x7f", `del \x7f`},
		{"ünïcödé 日本", "ünïcödé 日本"},
		{"tag \U000E0041", `tag \U000e0041`},
		{strings.Repeat("x", 200), strings.Repeat("x", 200)},
		{strings.Repeat("x", 201), strings.Repeat("x", 200) + "…"},
		{strings.Repeat("\x00", 300), strings.Repeat(`\x00`, 200) + "…"},
	}
	for _, tc := range tests {
		if got := relaycheck.Printable(tc.in); got != tc.want {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
