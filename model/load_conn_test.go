package model_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaysim"
)

const drivePK = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"

func driveEv(d string, at int64) *nostr.Event {
	e := &nostr.Event{PubKey: drivePK, CreatedAt: nostr.Timestamp(at), Kind: 30078, Tags: nostr.Tags{{"d", d}}, Content: d}
	e.ID = e.GetID()
	return e
}

// noticeFirst sends a NOTICE frame before anything else, which Drive must
// skip.
type noticeFirst struct {
	model.Wire
	sent bool
}

func (n *noticeFirst) ReadMessage(ctx context.Context, buf io.Writer) error {
	if !n.sent {
		n.sent = true
		_, err := buf.Write([]byte(`["NOTICE","hello"]`))
		return err
	}
	return n.Wire.ReadMessage(ctx, buf)
}

type failingWrites struct{ model.Wire }

func (failingWrites) WriteMessage(context.Context, []byte) error { return io.ErrClosedPipe }

func TestDrive(t *testing.T) {
	tests := []struct {
		name    string
		wrap    func(w *relaysim.Wire, cancel func()) model.Wire
		verdict model.Verdict
		reason  model.Reason
	}{
		{"complete, a NOTICE skipped", func(w *relaysim.Wire, _ func()) model.Wire { return &noticeFirst{Wire: w} }, model.Complete, model.ReasonNone},
		{"connection dropped mid-load", func(w *relaysim.Wire, _ func()) model.Wire {
			reads := 0
			w.Before = func() {
				if reads++; reads == 8 {
					w.C.Lose()
				}
			}
			return w
		}, model.CannotProveComplete, model.ReasonFenceLapsed},
		{"cancelled", func(w *relaysim.Wire, cancel func()) model.Wire {
			reads := 0
			w.Before = func() {
				if reads++; reads == 5 {
					cancel()
				}
			}
			return w
		}, model.Failed, model.ReasonRelayFailure},
		{"writes fail", func(w *relaysim.Wire, _ func()) model.Wire { return failingWrites{w} }, model.Failed, model.ReasonRelayFailure},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := relaysim.New(relaysim.Conformant(3))
			for i := range 6 {
				r.Publish(driveEv(fmt.Sprintf("read-state:%032x", i+1), int64(100+i)))
				r.Publish(driveEv(fmt.Sprintf("app:%d", i), int64(100+i)))
			}
			l, err := model.NewLoad(model.LoadConfig{PubKey: drivePK, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			res := model.Drive(ctx, tc.wrap(&relaysim.Wire{C: r.Connect()}, cancel), l)
			if res.Verdict != tc.verdict || res.Reason != tc.reason {
				t.Fatalf("%s/%s (%s), want %s/%s", res.Verdict, res.Reason, res.Detail, tc.verdict, tc.reason)
			}
			if tc.verdict == model.Complete && len(res.Events) != 6 {
				t.Fatalf("collected %d coordinates, want 6", len(res.Events))
			}
		})
	}
}
