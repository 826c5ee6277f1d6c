package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/relaycheck"
)

// lines is a writer the command writes to from its own goroutine; the
// test reads what was written and is told of the first complete line.
type lines struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan string
	once  sync.Once
}

func newLines() *lines { return &lines{first: make(chan string, 1)} }

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.buf.Write(p)
	if i := bytes.IndexByte(l.buf.Bytes(), '\n'); i >= 0 {
		line := string(l.buf.Bytes()[:i])
		l.once.Do(func() { l.first <- line })
	}
	return n, err
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// serving is a run of the command in the background.
type serving struct {
	url            string
	stdout, stderr *lines
	stop           context.CancelFunc
	code           chan int
}

// serve starts the command with args and waits for the URL it prints; a
// command that exits first fails the test. The bound only keeps a broken
// build from hanging the run; a working one prints at once.
func serve(t *testing.T, args ...string) *serving {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	s := &serving{stdout: newLines(), stderr: newLines(), stop: stop, code: make(chan int, 1)}
	go func() { s.code <- run(ctx, args, s.stdout, s.stderr) }()
	select {
	case s.url = <-s.stdout.first:
	case code := <-s.code:
		stop()
		t.Fatalf("localrelay %v exited %d before serving: %s", args, code, s.stderr)
	case <-time.After(time.Minute):
		stop()
		t.Fatalf("localrelay %v printed no URL in a minute: %s", args, s.stderr)
	}
	return s
}

// halt interrupts the command and returns its exit code.
func (s *serving) halt(t *testing.T) int {
	t.Helper()
	s.stop()
	select {
	case code := <-s.code:
		return code
	case <-time.After(time.Minute):
		t.Fatal("localrelay did not stop within a minute of the interrupt")
		return -1
	}
}

var wsURL = regexp.MustCompile(`^ws://127\.0\.0\.1:[0-9]+$`)

// publishAndRead publishes a signed event to url and asks for it back by
// id on a second connection.
func publishAndRead(t *testing.T, url string, ev *nostr.Event) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pub, err := relaycheck.Dial(ctx, relaycheck.DialWebsocket, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	if ok, why, err := pub.Publish(ctx, ev, nil); err != nil || !ok {
		t.Fatalf("publish to %s: %v %s", url, err, why)
	}
	readBack(t, url, ev)
}

func readBack(t *testing.T, url string, ev *nostr.Event) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := relaycheck.Dial(ctx, relaycheck.DialWebsocket, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ans, err := c.Query(ctx, "back", nostr.Filter{IDs: []string{ev.ID}}, nil)
	if err != nil || len(ans.Events) != 1 || ans.Events[0].ID != ev.ID || ans.Events[0].Content != ev.Content {
		t.Fatalf("read back from %s: %v %+v", url, err, ans)
	}
}

func event(t *testing.T, content string) *nostr.Event {
	t.Helper()
	ev := &nostr.Event{CreatedAt: nostr.Now(), Kind: 30078, Tags: nostr.Tags{{"d", "localrelay-test"}}, Content: content}
	if err := ev.Sign(nostr.GeneratePrivateKey()); err != nil {
		t.Fatal(err)
	}
	return ev
}

// TestServesEveryStore: over each store (badger by default) the command
// prints one ws:// URL on loopback, the relay there stores an event and
// answers it back, and an interrupt stops it with exit 0 and no further
// output.
func TestServesEveryStore(t *testing.T) {
	for _, store := range append([]string{""}, khatrutest.Backends()...) {
		name := store
		var args []string
		if store == "" {
			name = "default"
		} else {
			args = []string{"-store", store}
		}
		t.Run(name, func(t *testing.T) {
			s := serve(t, args...)
			if !wsURL.MatchString(s.url) {
				t.Fatalf("URL line %q, want ws://127.0.0.1:PORT", s.url)
			}
			publishAndRead(t, s.url, event(t, "over "+name))
			if code := s.halt(t); code != cli.ExitOK {
				t.Fatalf("exit %d after the interrupt: %s", code, s.stderr)
			}
			if got := s.stdout.String(); got != s.url+"\n" {
				t.Fatalf("stdout %q, want the URL line alone", got)
			}
			want := store
			if want == "" {
				want = khatrutest.Badger
			}
			if !strings.Contains(s.stderr.String(), "over "+want+",") {
				t.Fatalf("stderr does not name the store %s: %s", want, s.stderr)
			}
		})
	}
}

// TestDirKeepsData: with -dir the data outlives the command, and a second
// run over the same directory answers what the first stored; without it
// the temporary directory it named is gone after the interrupt.
func TestDirKeepsData(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "relay-data")
	ev := event(t, "kept")
	s := serve(t, "-dir", dir)
	publishAndRead(t, s.url, ev)
	if code := s.halt(t); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, s.stderr)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("-dir %s gone after exit: %v", dir, err)
	}
	s = serve(t, "-dir", dir, "-store", khatrutest.Badger)
	readBack(t, s.url, ev)
	if code := s.halt(t); code != cli.ExitOK {
		t.Fatalf("second run: exit %d: %s", code, s.stderr)
	}

	s = serve(t, "-store", khatrutest.LMDB)
	m := regexp.MustCompile(`data in (\S+), removed at exit`).FindStringSubmatch(s.stderr.String())
	if m == nil {
		t.Fatalf("stderr names no temporary directory: %s", s.stderr)
	}
	if _, err := os.Stat(m[1]); err != nil {
		t.Fatalf("the temporary directory %s is not there while serving: %v", m[1], err)
	}
	if code := s.halt(t); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, s.stderr)
	}
	if _, err := os.Stat(m[1]); !os.IsNotExist(err) {
		t.Fatalf("the temporary directory %s left behind (%v)", m[1], err)
	}
}

// TestBadFlags: a usage error exits 2 with one message naming the
// command on stderr, prints no URL and serves nothing. The context is
// already ended, so a flag wrongly accepted shows as exit 0, not a hang.
func TestBadFlags(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-store", "bolt"}, `-store "bolt"`},
		{[]string{"-addr", "nowhere"}, `-addr "nowhere"`},
		{[]string{"-addr", "127.0.0.1:port"}, "port"},
		{[]string{"-store", "slicestore", "-dir", t.TempDir()}, "slicestore keeps nothing on disk"},
		{[]string{"-dir", filepath.Join(file, "data")}, "data directory"},
		{[]string{"-trials", "3"}, "flag provided but not defined"},
		{[]string{"ws://127.0.0.1:1"}, "unexpected arguments"},
	} {
		var out, errb bytes.Buffer
		code := run(ctx, tc.args, &out, &errb)
		if code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, cli.ExitUsage, errb.String())
			continue
		}
		if out.Len() != 0 {
			t.Errorf("%v: stdout %q, want nothing", tc.args, out.String())
		}
		if msg := errb.String(); !strings.HasPrefix(msg, "localrelay: ") || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: stderr %q, want a localrelay message with %q", tc.args, msg, tc.want)
		}
	}
	var out, errb bytes.Buffer
	if code := run(ctx, []string{"-h"}, &out, &errb); code != cli.ExitOK || !strings.Contains(out.String(), "-store") {
		t.Errorf("-h: exit %d, usage %q", code, out.String())
	}
}
