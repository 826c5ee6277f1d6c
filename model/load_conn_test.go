package model_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/internal/testrelay/hostile"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaysim"
	"github.com/nip-rs/harness/wsconn"
)

// drivePK is the public key of the secret key 1.
const (
	drivePK = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
	driveSK = "0000000000000000000000000000000000000000000000000000000000000001"
)

// driveEv is a signed kind 30078 event (Drive verifies signatures).
func driveEv(d string, at int64) *nostr.Event {
	e := &nostr.Event{CreatedAt: nostr.Timestamp(at), Kind: 30078, Tags: nostr.Tags{{"d", d}}, Content: d}
	if err := e.Sign(driveSK); err != nil {
		panic(err)
	}
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

// TestDriveRejectsBadSignature: a newer version whose id is right but
// whose signature is not must not replace the genuine version under a
// complete verdict.
func TestDriveRejectsBadSignature(t *testing.T) {
	r := relaysim.New(relaysim.Conformant(10))
	genuine := driveEv("read-state:00000000000000000000000000000001", 100)
	r.Publish(genuine)
	forged := driveEv("read-state:00000000000000000000000000000001", 200)
	forged.Content = "forged"
	forged.ID = forged.GetID() // id matches the content; the signature is the old content's
	r.Publish(forged)
	l, err := model.NewLoad(model.LoadConfig{PubKey: drivePK, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	res := model.Drive(context.Background(), &relaysim.Wire{C: r.Connect()}, l)
	if res.Verdict == model.Complete || res.Reason != model.ReasonNonConforming {
		t.Fatalf("%s/%s (%s), want cannot-prove-complete/non-conforming", res.Verdict, res.Reason, res.Detail)
	}
	for _, ev := range res.Events {
		if ev.ID == forged.ID {
			t.Fatal("the forged version was collected")
		}
	}
}

// silentWire never answers: every read blocks until Close, as a relay
// that stopped talking does on a real socket.
type silentWire struct {
	closed chan struct{}
	once   sync.Once
}

func (s *silentWire) WriteMessage(context.Context, []byte) error { return nil }
func (s *silentWire) ReadMessage(context.Context, io.Writer) error {
	<-s.closed
	return io.ErrClosedPipe
}
func (s *silentWire) Close() error { s.once.Do(func() { close(s.closed) }); return nil }

// TestDriveSilentRelay: Drive itself closes a closable connection when
// its context ends, so a relay that goes silent cannot hold the load, and
// no goroutine outlives the call.
func TestDriveSilentRelay(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 5 {
		l, err := model.NewLoad(model.LoadConfig{PubKey: drivePK, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		res := model.Drive(ctx, &silentWire{closed: make(chan struct{})}, l)
		cancel()
		if res.Verdict != model.Failed || res.Reason != model.ReasonRelayFailure {
			t.Fatalf("%s/%s (%s), want failed/relay-failure", res.Verdict, res.Reason, res.Detail)
		}
	}
	if after := settledGoroutines(before); after > before {
		t.Fatalf("%d goroutines after, %d before", after, before)
	}
}

// settledGoroutines waits for exiting goroutines to finish (up to 10 s,
// returning as soon as the count is down to want) and returns the count.
func settledGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 2000 && n > want; i++ {
		time.Sleep(5 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// scripted sends its frames, then stays silent until closed.
type scripted struct {
	frames [][]byte
	silentWire
}

func (s *scripted) ReadMessage(ctx context.Context, buf io.Writer) error {
	if len(s.frames) > 0 {
		f := s.frames[0]
		s.frames = s.frames[1:]
		_, err := buf.Write(f)
		return err
	}
	return s.silentWire.ReadMessage(ctx, buf)
}

func frame(sub string, ev *nostr.Event) []byte {
	f, _ := nostr.EventEnvelope{SubscriptionID: &sub, Event: *ev}.MarshalJSON()
	return f
}

// TestDriveHostile: malformed frames and NOTICE floods are skipped; a bad
// id, an oversized event or a CLOSED ends the load with a clear verdict;
// silence ends it at the context's deadline; nothing leaks.
func TestDriveHostile(t *testing.T) {
	before := runtime.NumGoroutine()
	big := driveEv("read-state:00000000000000000000000000000001", 100)
	big.Content = strings.Repeat("x", 70_000)
	_ = big.Sign(driveSK)
	badID := driveEv("read-state:00000000000000000000000000000002", 100)
	badID.ID = strings.Repeat("0", 64)
	flood := make([][]byte, 5000)
	for i := range flood {
		flood[i] = []byte(`["NOTICE","spam"]`)
	}
	tests := []struct {
		name    string
		frames  func(fence string) [][]byte
		verdict model.Verdict
		reason  model.Reason
	}{
		{"silence after a NOTICE flood and malformed frames", func(string) [][]byte {
			return append(flood, []byte(`["EVENT",`), []byte(`{}`), []byte(`["EOSE"]`))
		}, model.Failed, model.ReasonRelayFailure},
		{"oversized event", func(f string) [][]byte { return [][]byte{frame(f, big)} }, model.CannotProveComplete, model.ReasonNonConforming},
		{"id not the hash", func(f string) [][]byte { return [][]byte{frame(f, badID)} }, model.CannotProveComplete, model.ReasonNonConforming},
		{"fence refused", func(f string) [][]byte { return [][]byte{[]byte(`["CLOSED","` + f + `","blocked: no"]`)} }, model.Failed, model.ReasonRelayFailure},
		{"fence closed after its EOSE", func(f string) [][]byte {
			return [][]byte{[]byte(`["EOSE","` + f + `"]`), []byte(`["CLOSED","` + f + `","error: bye"]`)}
		}, model.CannotProveComplete, model.ReasonFenceLapsed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := model.NewLoad(model.LoadConfig{PubKey: drivePK, Limit: 10, MaxEventBytes: 65_536})
			if err != nil {
				t.Fatal(err)
			}
			w := &scripted{frames: tc.frames(l.FenceID()), silentWire: silentWire{closed: make(chan struct{})}}
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			res := model.Drive(ctx, w, l)
			if res.Verdict != tc.verdict || res.Reason != tc.reason {
				t.Fatalf("%s/%s (%s), want %s/%s", res.Verdict, res.Reason, res.Detail, tc.verdict, tc.reason)
			}
		})
	}
	if after := settledGoroutines(before); after > before {
		t.Fatalf("%d goroutines after, %d before", after, before)
	}
}

// stuckWire has no Close, and its reads ignore their context: each blocks
// until the test releases it, as a transport with no way to interrupt a
// read would.
type stuckWire struct {
	entered chan struct{} // a read has started
	release chan struct{} // closed by the test: reads return
	writes  int
}

func (s *stuckWire) WriteMessage(context.Context, []byte) error { s.writes++; return nil }
func (s *stuckWire) ReadMessage(context.Context, io.Writer) error {
	select {
	case s.entered <- struct{}{}:
	default:
	}
	<-s.release
	return io.ErrClosedPipe
}

// TestDriveStuckWire: Drive returns once its context is done though the
// wire's read never returns and the wire cannot be closed; it writes
// nothing more to the abandoned wire, and its reading goroutine ends once
// the read finally returns.
func TestDriveStuckWire(t *testing.T) {
	before := runtime.NumGoroutine()
	l, err := model.NewLoad(model.LoadConfig{PubKey: drivePK, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	w := &stuckWire{entered: make(chan struct{}, 1), release: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan model.LoadResult, 1)
	go func() { done <- model.Drive(ctx, w, l) }()
	<-w.entered
	cancel()
	var res model.LoadResult
	select {
	case res = <-done:
	case <-time.After(30 * time.Second): // a generous watchdog: Drive should return at once
		close(w.release)
		t.Fatal("Drive did not return after its context ended")
	}
	if res.Verdict != model.Failed || res.Reason != model.ReasonRelayFailure {
		t.Fatalf("%s/%s (%s), want failed/relay-failure", res.Verdict, res.Reason, res.Detail)
	}
	writes := w.writes
	close(w.release)
	if after := settledGoroutines(before); after > before {
		t.Fatalf("%d goroutines after the read returned, %d before", after, before)
	}
	if w.writes != writes || writes != 1 {
		t.Fatalf("%d writes (%d after Drive returned), want only the fence's REQ", w.writes, w.writes-writes)
	}
}

// TestDriveBoundedWire: over wsconn, a relay answering the fence with a
// deflate bomb (64 MB inflated) or a frame announcing 1 GiB loses the
// connection with a clear verdict, having allocated a few MB at most.
func TestDriveBoundedWire(t *testing.T) {
	tests := []struct {
		name string
		send func(p *hostile.Peer)
	}{
		{"deflate bomb", func(p *hostile.Peer) { _ = p.Deflated(hostile.Bomb(64 << 20)) }},
		{"1 GiB announced", func(p *hostile.Peer) {
			_ = p.Frame(ws.Header{Fin: true, OpCode: ws.OpText, Length: 1 << 30}, []byte(`["EVENT",`))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := hostile.Start(t, true, func(p *hostile.Peer) {
				if _, err := p.Read(); err != nil { // the fence's REQ
					return
				}
				tc.send(p)
				p.Drain()
			})
			w, err := wsconn.Dial(context.Background(), srv.URL, wsconn.Options{Compress: true})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			l, err := model.NewLoad(model.LoadConfig{PubKey: drivePK, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res := model.Drive(context.Background(), w, l)
			runtime.ReadMemStats(&after)
			if res.Verdict != model.Failed || res.Reason != model.ReasonRelayFailure {
				t.Fatalf("%s/%s (%s), want failed/relay-failure", res.Verdict, res.Reason, res.Detail)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
				t.Fatalf("the load allocated %d bytes", got)
			}
		})
	}
}

// lines is a wire that reads its frames in order and then reports the
// connection lost.
type lines struct{ frames [][]byte }

func (*lines) WriteMessage(context.Context, []byte) error { return nil }
func (l *lines) ReadMessage(_ context.Context, buf io.Writer) error {
	if len(l.frames) == 0 {
		return io.EOF
	}
	f := l.frames[0]
	l.frames = l.frames[1:]
	_, err := buf.Write(f)
	return err
}

// FuzzDrive feeds arbitrary relay frames, one per line, through Drive,
// signature checks included: it never panics, always ends in a verdict,
// and every event it collects is the user's, with a well-formed id that
// is the event's hash and a signature that verifies.
func FuzzDrive(f *testing.F) {
	ev := driveEv("read-state:00000000000000000000000000000001", 100)
	oldest := driveEv("read-state:00000000000000000000000000000002", math.MinInt64)
	seeds := []string{
		`["EOSE","load-fence"]` + "\n" + string(frame("load-q1", ev)) + "\n" + `["EOSE","load-q1"]` + "\n" + `["EOSE","load-q2"]`,
		`["EOSE","load-fence"]` + "\n" + string(frame("load-q1", oldest)) + "\n" + `["EOSE","load-q1"]` + "\n" + `["EOSE","load-q2"]`,
		`["EVENT","load-fence",{"id":"00","pubkey":"` + drivePK + `","created_at":1,"kind":30078,"tags":[],"content":"","sig":"00"}]`,
		`["EOSE","load-fence"]` + "\n" + `["EVENT","load-q1",{"id":"` + strings.Repeat("a", 64) + `","pubkey":"zz","created_at":99999999999999999999,"kind":1e10,"tags":[["d"]],"sig":""}]`,
		`["EVENT","load-q1",{"created_at":-9223372036854775808,"kind":-1,"tags":[[],[[]],{"x":1}]}]`,
		`["EVENT","load-q1",[[[[[[[[[[[]]]]]]]]]]]]` + "\n" + `["EOSE",{"a":[1,2,{"b":null}]}]` + "\n" + strings.Repeat("[", 5000),
		`["CLOSED","load-fence",` + strings.Repeat(`"x",`, 100) + `"y"]` + "\n" + `["EOSE"]` + "\n" + `["EOSE","load-fence","extra"]`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := model.NewLoad(model.LoadConfig{PubKey: drivePK, Limit: 2, SubPrefix: "load"})
		if err != nil {
			t.Fatal(err)
		}
		res := model.Drive(context.Background(), &lines{frames: bytes.Split(data, []byte("\n"))}, l)
		if res.Verdict == model.Running {
			t.Fatal("Drive returned without a verdict")
		}
		for _, ev := range res.Events {
			if ev.PubKey != drivePK || len(ev.ID) != 64 || strings.ToLower(ev.ID) != ev.ID || !ev.CheckID() {
				t.Fatalf("collected %v", ev)
			}
			if ok, err := ev.CheckSignature(); !ok || err != nil {
				t.Fatalf("collected %s with a bad signature", ev.ID)
			}
		}
	})
}
