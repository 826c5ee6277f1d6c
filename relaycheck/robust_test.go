package relaycheck_test

import (
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/relaycheck"
)

// hostile is a relay that answers every client frame with what answer
// returns (nil: silence) and, before anything else, sends the opening
// frames; reads block until a frame exists or Close.
type hostile struct {
	mu      sync.Mutex
	cond    *sync.Cond
	frames  [][]byte
	closed  bool
	answer  func(frame []byte) [][]byte
	closeOn int // close the connection on this many client frames (0: never)
	writes  int
}

func newHostile(opening [][]byte, answer func([]byte) [][]byte, closeOn int) *hostile {
	h := &hostile{frames: opening, answer: answer, closeOn: closeOn}
	h.cond = sync.NewCond(&h.mu)
	return h
}

func (h *hostile) WriteMessage(_ context.Context, data []byte) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return io.ErrClosedPipe
	}
	h.writes++
	if h.closeOn > 0 && h.writes >= h.closeOn {
		h.closed = true
		h.cond.Broadcast()
		return nil
	}
	if h.answer != nil {
		h.frames = append(h.frames, h.answer(data)...)
		h.cond.Broadcast()
	}
	return nil
}

func (h *hostile) ReadMessage(_ context.Context, buf io.Writer) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for len(h.frames) == 0 && !h.closed {
		h.cond.Wait()
	}
	if len(h.frames) == 0 {
		return io.EOF
	}
	f := h.frames[0]
	h.frames = h.frames[1:]
	_, err := buf.Write(f)
	return err
}

func (h *hostile) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	h.cond.Broadcast()
	return nil
}

func repeat(frame string, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = []byte(frame)
	}
	return out
}

// TestProbeHostileRelays: a relay that hangs, closes at once or midway,
// floods NOTICEs, sends malformed frames or refuses everything gives a
// report of unknown verdicts (never conforms, never a panic) within the
// probe's timeouts, and leaves no goroutine behind. Most of its time is
// exchanges waiting out their timeout; the quick gate waits 20 ms each,
// not 50 (a relay that sends nothing sends nothing sooner either).
func TestProbeHostileRelays(t *testing.T) {
	before := runtime.NumGoroutine()
	timeout := 50 * time.Millisecond
	if shortrun.On(t, "each exchange waits 20 ms for a hostile relay's answer, not 50 ms") {
		timeout = 20 * time.Millisecond
	}
	okFor := func(frame []byte) [][]byte { // acknowledge EVENTs, answer REQs with CLOSED
		s := string(frame)
		switch {
		case strings.HasPrefix(s, `["EVENT"`):
			id := s[strings.Index(s, `"id":"`)+6:]
			return [][]byte{[]byte(`["OK","` + id[:64] + `",true,""]`)}
		case strings.HasPrefix(s, `["REQ","`):
			sub := strings.SplitN(s[8:], `"`, 2)[0]
			return [][]byte{[]byte(`["CLOSED","` + sub + `","blocked: \u001b[2J\u001b]0;owned\u0007 no\r\n\u009b"]`)}
		}
		return nil
	}
	tests := []struct {
		name string
		dial func() relaycheck.Transport
	}{
		{"hangs", func() relaycheck.Transport { return newHostile(nil, nil, 0) }},
		{"closes at once", func() relaycheck.Transport { return newHostile(nil, nil, 1) }},
		{"closes midway", func() relaycheck.Transport { return newHostile(nil, okFor, 12) }},
		{"NOTICE flood", func() relaycheck.Transport { return newHostile(repeat(`["NOTICE","spam"]`, 3000), nil, 0) }},
		{"malformed frames", func() relaycheck.Transport {
			return newHostile(append(repeat(`["EVENT",`, 100), []byte(`{"x":`), []byte(`["EOSE"]`)), nil, 0)
		}},
		{"refuses every REQ", func() relaycheck.Transport { return newHostile(nil, okFor, 0) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := relaycheck.Probe(context.Background(), "ws://hostile", relaycheck.Options{SecretKey: probeSK, Base: probeBase,
				Timeout: timeout, BarrierTrials: 3,
				Dial: func(context.Context, string) (relaycheck.Transport, error) { return tc.dial(), nil }})
			if err != nil {
				t.Fatal(err)
			}
			if v := rep.Verdict(); v == relaycheck.Conforms {
				t.Fatalf("a hostile relay conforms:\n%s", rep.Text())
			}
			// Relay-supplied text prints as data: no control character
			// but the report's own newlines.
			if i := strings.IndexFunc(rep.Text(), func(r rune) bool { return r != '\n' && (r < 0x20 || (r >= 0x7f && r < 0xa0)) }); i >= 0 {
				t.Fatalf("a control character in the report at %d:\n%q", i, rep.Text())
			}
		})
	}
	t.Run("dial fails", func(t *testing.T) {
		_, err := relaycheck.Probe(context.Background(), "ws://nowhere", relaycheck.Options{
			Dial: func(context.Context, string) (relaycheck.Transport, error) { return nil, errors.New("refused") }})
		if err == nil {
			t.Fatal("no error for a relay that cannot be reached")
		}
	})
	if n := settle(before); n > before {
		t.Errorf("%d goroutines after, %d before", n, before)
	}
}
