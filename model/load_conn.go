package model

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"
)

// Wire is a message-oriented connection to one relay. The bounded
// websocket connection of package wsconn (wsconn.Dial) satisfies it, as
// does go-nostr's *nostr.Connection, which bounds neither a frame's size
// nor its inflation and should not face relays a client does not trust.
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
// Drive returns once ctx is done even if a ReadMessage is blocked and
// ignores ctx: reads run one at a time on a goroutine of Drive's, each
// only when the load wants the next frame (nothing is read ahead, so a
// wire can carry one Drive after another). A read abandoned that way
// leaves the wire mid-read: Drive writes nothing more to it (the load's
// CLOSEs are not sent), and the wire must not be used again. The
// goroutine ends as soon as that read returns; a wire that never returns
// keeps it. When w can be closed (a Close() error method, as wsconn.Conn
// and *nostr.Connection have), Drive closes it once ctx is done, which
// makes the blocked read return, so nothing outlives the call for long.
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
	r := startReader(ctx, w)
	defer r.stop()
	send := func(outs []Out) bool {
		if r.busy {
			return false // a read is still in flight: the wire is abandoned
		}
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
	for l.Running() {
		if err := ctx.Err(); err != nil {
			send(l.Abort(fmt.Sprint(err)))
			break
		}
		frame, err := r.read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				send(l.Abort(fmt.Sprint(ctx.Err())))
			} else {
				l.Feed(In{Kind: InConnectionLost})
			}
			break
		}
		if m, ok := ParseIn(frame); ok {
			if m.Kind == InEvent && m.Event != nil && isLowerHex(m.Event.ID, 64) {
				if ok, err := m.Event.CheckSignature(); !ok || err != nil {
					m.BadSig = true
				}
			}
			outs := l.Feed(m)
			if gap, due := l.PassGapDue(); due && gap > 0 {
				// The passes' wall-clock assumption: what the relay was
				// still doing when the last pass ended finishes while
				// the client waits; frames it sends meanwhile stay on
				// the wire, read in order after.
				select {
				case <-time.After(gap):
				case <-ctx.Done():
				}
			}
			send(outs)
		}
	}
	return l.Result()
}

// wireReader performs a wire's reads on its own goroutine, one per
// request, so the caller can stop waiting when its context ends.
type wireReader struct {
	req  chan struct{}
	res  chan readResult
	quit chan struct{}
	busy bool // a read was requested and its result not yet taken
}

type readResult struct {
	frame []byte
	err   error
}

func startReader(ctx context.Context, w Wire) *wireReader {
	r := &wireReader{req: make(chan struct{}), res: make(chan readResult), quit: make(chan struct{})}
	go func() {
		var buf bytes.Buffer
		for {
			select {
			case <-r.req:
			case <-r.quit:
				return
			}
			// The caller has finished with the previous frame before it
			// asks for the next, so the buffer is reused.
			buf.Reset()
			err := w.ReadMessage(ctx, &buf)
			select {
			case r.res <- readResult{buf.Bytes(), err}:
			case <-r.quit:
				return
			}
		}
	}()
	return r
}

// read returns the next frame, or ctx's error as soon as ctx ends.
func (r *wireReader) read(ctx context.Context) ([]byte, error) {
	if !r.busy {
		select {
		case r.req <- struct{}{}:
			r.busy = true
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	select {
	case res := <-r.res:
		r.busy = false
		return res.frame, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// stop lets the goroutine end: at once when idle, or when its read in
// flight returns.
func (r *wireReader) stop() { close(r.quit) }
