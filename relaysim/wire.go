package relaysim

import (
	"context"
	"fmt"
	"io"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// Wire serves a connection as JSON frames, the way a websocket to a relay
// carries them: model.Wire over a Conn. Each client frame is processed at
// once, in order; reading pushes out queued pushes first (unless the
// profile delays them) and then returns the next relay frame. A lost
// connection reads as io.EOF.
type Wire struct {
	C *Conn
	// Before, if set, runs before each read: a test's hook to write,
	// delete or drop the connection between frames.
	Before func()
}

// WriteMessage handles one client frame (REQ or CLOSE).
func (w *Wire) WriteMessage(_ context.Context, data []byte) error {
	if w.C.Lost() {
		return io.ErrClosedPipe
	}
	switch env := nostr.ParseMessage(data).(type) {
	case *nostr.ReqEnvelope:
		if len(env.Filters) != 1 {
			return fmt.Errorf("relaysim: REQ with %d filters", len(env.Filters))
		}
		w.C.Send(model.Out{Kind: model.OutREQ, SubID: env.SubscriptionID, Filter: env.Filters[0]})
	case *nostr.CloseEnvelope:
		w.C.Send(model.Out{Kind: model.OutCLOSE, SubID: string(*env)})
	default:
		return fmt.Errorf("relaysim: unexpected frame %s", data)
	}
	return w.C.Process(w.C.Inbound() - 1)
}

// ReadMessage writes the next relay frame.
func (w *Wire) ReadMessage(_ context.Context, buf io.Writer) error {
	if w.Before != nil {
		w.Before()
	}
	if w.C.Pushes() > 0 && w.C.r.prof.Push != PushDelayed {
		w.C.Flush(w.C.Pushes())
	}
	m, ok := w.C.Next()
	if !ok {
		if w.C.Pushes() == 0 {
			return io.EOF // nothing will ever come: the relay is idle
		}
		w.C.Flush(w.C.Pushes())
		m, _ = w.C.Next()
	}
	var frame []byte
	var err error
	switch m.Kind {
	case model.InEvent:
		sub := m.SubID
		frame, err = nostr.EventEnvelope{SubscriptionID: &sub, Event: *m.Event}.MarshalJSON()
	case model.InEOSE:
		frame, err = nostr.EOSEEnvelope(m.SubID).MarshalJSON()
	case model.InClosed:
		frame, err = nostr.ClosedEnvelope{SubscriptionID: m.SubID, Reason: m.Reason}.MarshalJSON()
	case model.InConnectionLost:
		return io.EOF
	}
	if err != nil {
		return err
	}
	_, err = buf.Write(frame)
	return err
}
