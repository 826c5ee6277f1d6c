package model

import (
	"bytes"
	"context"
	"fmt"
	"io"
)

// Wire is a message-oriented connection to one relay. go-nostr's
// *nostr.Connection satisfies it.
type Wire interface {
	WriteMessage(ctx context.Context, data []byte) error
	ReadMessage(ctx context.Context, buf io.Writer) error
}

// Drive runs a started-or-not load over one connection with a single read
// loop, so relay messages reach the load in wire order (go-nostr's
// Subscription channels hand each event to its own goroutine and do not
// preserve that order, which the fence's delivery-before-verdict rule
// needs). Frames the load does not consume (NOTICE, OK, AUTH) are
// skipped. A failed read or write is a lost connection; a cancelled ctx
// aborts the load. It returns the load's result once it has a verdict.
//
// Every event read is checked: its signature must verify (In.BadSig),
// which the load takes as evidence against the relay.
//
// ReadMessage may block past ctx on some transports (go-nostr checks ctx
// only between frames). When w can be closed (a Close() error method, as
// *nostr.Connection has), Drive closes it once ctx is done, so a relay
// that goes silent cannot hold the load past its context; the load then
// ends failed (or cannot-prove-complete once the fence is established).
func Drive(ctx context.Context, w Wire, l *Load) LoadResult {
	if c, ok := w.(io.Closer); ok {
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			select {
			case <-ctx.Done():
				_ = c.Close()
			case <-stop:
			}
		}()
		defer func() { close(stop); <-done }()
	}
	send := func(outs []Out) bool {
		for _, o := range outs {
			frame, err := o.Wire()
			if err == nil {
				err = w.WriteMessage(ctx, frame)
			}
			if err != nil {
				l.Feed(In{Kind: InConnectionLost})
				return false
			}
		}
		return true
	}
	if !l.started {
		send(l.Start())
	}
	var buf bytes.Buffer
	for l.Running() {
		if err := ctx.Err(); err != nil {
			send(l.Abort(fmt.Sprint(err)))
			break
		}
		buf.Reset()
		if err := w.ReadMessage(ctx, &buf); err != nil {
			if ctx.Err() != nil {
				send(l.Abort(fmt.Sprint(ctx.Err())))
			} else {
				l.Feed(In{Kind: InConnectionLost})
			}
			break
		}
		if m, ok := ParseIn(buf.Bytes()); ok {
			if m.Kind == InEvent && m.Event != nil && isLowerHex(m.Event.ID, 64) {
				if ok, err := m.Event.CheckSignature(); !ok || err != nil {
					m.BadSig = true
				}
			}
			send(l.Feed(m))
		}
	}
	return l.Result()
}
