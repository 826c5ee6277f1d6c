package history

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// Wire is a message-oriented connection to one relay: the bounded
// websocket of package wsconn satisfies it, as does go-nostr's
// *nostr.Connection. One goroutine reads each wire, so a relay's messages
// reach the round in wire order (go-nostr's subscription channels hand
// each event to its own goroutine and do not keep that order).
type Wire interface {
	WriteMessage(ctx context.Context, data []byte) error
	ReadMessage(ctx context.Context, buf io.Writer) error
}

// WireOptions configure DriveWire.
type WireOptions struct {
	// Filter addresses the channel (kinds, tags); each page sets its own
	// since, until and limit on a copy.
	Filter nostr.Filter
	// PageTimeout is a page's deadline: a relay that has not settled by
	// then is silent (the document's PAGE_TIMEOUT). Zero: 10 s.
	PageTimeout time.Duration
	// Prefix starts every page's subscription id (then the page's number).
	Prefix string
}

type wireFrame struct {
	relay int
	data  []byte
	err   error
}

// DriveWire runs a round to its end over one wire per relay (wires[i] is
// relay i of the round): one REQ per page and relay, each relay's EVENT,
// EOSE and CLOSED fed to the round as they arrive, a CLOSE once a relay
// settles, the page's deadline as Round.Timeout. Every event's signature
// is checked; an invalid one is handed to the round as a stray. A write
// or read that fails drops the relay out of the round as refused. It
// returns when the round is done, or ctx ends (the round then times out
// every page still open, and ctx's error is returned). DriveWire owns the
// wires: each is closed before it returns when it can be (io.Closer).
func DriveWire(ctx context.Context, r *Round, wires []Wire, opts WireOptions) (Cursor, Progress, error) {
	if len(wires) != len(r.out) {
		return r.saved, r.progress, errorf("%d wires for a round over %d relays", len(wires), len(r.out))
	}
	for i, w := range wires {
		if w == nil {
			return r.saved, r.progress, errorf("no wire for relay %d", i)
		}
	}
	if opts.PageTimeout <= 0 {
		opts.PageTimeout = 10 * time.Second
	}
	frames := make(chan wireFrame)
	quit := make(chan struct{})
	defer func() {
		close(quit)
		for _, w := range wires {
			if c, ok := w.(io.Closer); ok {
				_ = c.Close()
			}
		}
	}()
	for i, w := range wires {
		go readWire(ctx, i, w, frames, quit)
	}
	dead := make([]bool, len(wires))
	for k := 0; ; k++ {
		p, ok := r.Next()
		if !ok {
			break
		}
		id := fmt.Sprintf("%s%d", opts.Prefix, k)
		req, err := json.Marshal([]any{"REQ", id, pageFilter(opts.Filter, p)})
		if err != nil {
			return r.saved, r.progress, errorf("page filter: %v", err)
		}
		for _, i := range p.Relays {
			if dead[i] {
				r.Closed(i, "error: connection lost")
			} else if err := wires[i].WriteMessage(ctx, req); err != nil {
				dead[i] = true
				r.Closed(i, "error: connection lost: "+err.Error())
			}
		}
		timer := time.NewTimer(opts.PageTimeout)
		for r.page != nil {
			select {
			case f := <-frames:
				if f.err != nil {
					dead[f.relay] = true
					r.Closed(f.relay, "error: connection lost: "+f.err.Error())
					continue
				}
				if settled := feed(r, f.relay, id, f.data); settled && !dead[f.relay] {
					closeMsg, _ := json.Marshal([]any{"CLOSE", id})
					_ = wires[f.relay].WriteMessage(ctx, closeMsg)
				}
			case <-timer.C:
				r.Timeout()
			case <-ctx.Done():
				timer.Stop()
				for r.Next(); !r.Done(); r.Next() {
					r.Timeout()
				}
				c, prog := r.Result()
				return c, prog, ctx.Err()
			}
		}
		timer.Stop()
	}
	c, prog := r.Result()
	return c, prog, nil
}

// readWire reads one wire until it fails or the drive ends.
func readWire(ctx context.Context, relay int, w Wire, frames chan<- wireFrame, quit <-chan struct{}) {
	for {
		var buf bytesBuffer
		err := w.ReadMessage(ctx, &buf)
		select {
		case frames <- wireFrame{relay: relay, data: buf.b, err: err}:
		case <-quit:
			return
		}
		if err != nil {
			return
		}
	}
}

type bytesBuffer struct{ b []byte }

func (b *bytesBuffer) Write(p []byte) (int, error) {
	b.b = append(b.b, p...)
	return len(p), nil
}

// feed hands one frame of relay to the round, if it answers page id, and
// reports whether it settled the relay's answer (EOSE or CLOSED).
func feed(r *Round, relay int, id string, frame []byte) bool {
	switch env := nostr.ParseMessage(frame).(type) {
	case *nostr.EventEnvelope:
		if env.SubscriptionID == nil || *env.SubscriptionID != id {
			return false
		}
		ev := env.Event
		if ok, err := ev.CheckSignature(); !ok || err != nil {
			r.Invalid(relay, "an event with an invalid signature")
			return false
		}
		r.Deliver(relay, []Event{{ID: ev.ID, CreatedAtMs: createdAtMs(int64(ev.CreatedAt))}})
	case *nostr.EOSEEnvelope:
		if string(*env) == id {
			r.EOSE(relay)
			return true
		}
	case *nostr.ClosedEnvelope:
		if env.SubscriptionID == id {
			r.Closed(relay, env.Reason)
			return true
		}
	}
	return false
}

// createdAtMs is a wire created_at (seconds) in ms. One the walk cannot
// read keeps its side of the range, so a page's window judges it as the
// relay's filter did: before 0 it maps to -1, past MaxTimeMs to the
// largest int64 (a wrap dated there sorts before every readable one).
func createdAtMs(s int64) int64 {
	switch {
	case s < 0:
		return -1
	case s > MaxTimeMs/1000:
		return math.MaxInt64
	}
	return s * 1000
}

// pageFilter is the REQ filter of a page: the channel's filter with the
// page's limit and its window in seconds (since rounded up, until down, so
// the filter asks exactly the whole seconds inside the window).
func pageFilter(base nostr.Filter, p Page) nostr.Filter {
	f := base
	f.Limit, f.LimitZero = p.Limit, false
	f.Since, f.Until = nil, nil
	if p.Window.HasSince {
		s := nostr.Timestamp((max(p.Window.SinceMs, 0) + 999) / 1000)
		f.Since = &s
	}
	if p.Window.HasUntil {
		u := nostr.Timestamp(max(p.Window.UntilMs, 0) / 1000)
		f.Until = &u
	}
	return f
}
