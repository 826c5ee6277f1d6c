package peers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
)

// The peers' names, in All's order.
const (
	KhatruSlicestore = "khatru-slicestore"
	KhatruBadger     = "khatru-badger"
	KhatruLMDB       = "khatru-lmdb"
	KhatruSQLite3    = "khatru-sqlite3"
	Rely             = "rely"
	KhatruNext       = "khatru-next"
	JSRelay          = "jsrelay"
	JSRelayNoCache   = "jsrelay-nocache"
)

// RequireEnv, set to a non-empty value, turns a peer that cannot be
// started for want of a tool from a skipped test into a failed one. CI
// sets it: a run that skipped a relay must not pass for one that ran it.
const RequireEnv = "PEERS_REQUIRE"

type kind uint8

const (
	inProcess kind = iota // khatru v0.8.4 through khatrutest
	goModule              // a nested Go module, built and run as a subprocess
	node                  // the JS relay under node
)

// Peer is one relay implementation the tests can start.
type Peer struct {
	// Name identifies it (the constants above); tests name subtests by it.
	Name string
	// About says what runs and how it applies a cap.
	About string

	kind     kind
	backend  string // khatrutest backend (inProcess)
	module   string // directory of the nested module (goModule)
	cacheTTL int    // filter-result cache in ms (node)
}

// All lists every peer: khatru v0.8.4 over each store, then rely, the
// newest khatru and the JS relay with and without its cache.
func All() []Peer {
	return []Peer{
		{Name: KhatruSlicestore, kind: inProcess, backend: khatrutest.Slicestore,
			About: "khatru v0.8.4 + eventstore slicestore, in process; cap = MaxLimit"},
		{Name: KhatruBadger, kind: inProcess, backend: khatrutest.Badger,
			About: "khatru v0.8.4 + eventstore badger, in process; cap = MaxLimit (MaxLimit/4 at or above it)"},
		{Name: KhatruLMDB, kind: inProcess, backend: khatrutest.LMDB,
			About: "khatru v0.8.4 + eventstore lmdb, in process; cap = MaxLimit (MaxLimit/4 at or above it)"},
		{Name: KhatruSQLite3, kind: inProcess, backend: khatrutest.SQLite3,
			About: "khatru v0.8.4 + eventstore sqlite3, in process; cap = QueryLimit"},
		{Name: Rely, kind: goModule, module: "rely",
			About: "rely v1.2.2 + nostr-sqlite v0.6.1, subprocess; cap applied in the Req hook"},
		{Name: KhatruNext, kind: goModule, module: "khatrunext",
			About: "khatru of fiatjaf.com/nostr (2026-06-11) + its lmdb store, subprocess; cap = UseEventstore's maxQueryLimit"},
		{Name: JSRelay, kind: node, cacheTTL: 1000,
			About: "@nostr-relay/core 0.0.40 + sqlite under node, 1 s filter-result cache; cap = 10 x default limit"},
		{Name: JSRelayNoCache, kind: node, cacheTTL: 0,
			About: "@nostr-relay/core 0.0.40 + sqlite under node, cache off; cap = 10 x default limit"},
	}
}

// Names lists the peers' names in All's order.
func Names() []string {
	var out []string
	for _, p := range All() {
		out = append(out, p.Name)
	}
	return out
}

// Lookup finds a peer by name.
func Lookup(name string) (Peer, bool) {
	for _, p := range All() {
		if p.Name == name {
			return p, true
		}
	}
	return Peer{}, false
}

// Start starts the named peer for the test with the given cap (see
// Peer.Start).
func Start(t testing.TB, name string, cap int) (url string, stop func()) {
	t.Helper()
	p, ok := Lookup(name)
	if !ok {
		t.Fatalf("peers: unknown peer %q (have %v)", name, Names())
	}
	return p.Start(t, cap)
}

// Start serves the peer on 127.0.0.1 at a random port over a fresh, empty
// store and returns its websocket URL and a function that stops it and
// removes its data. The test's cleanup stops it too (stopping twice does
// nothing); a subprocess that exited other than by being stopped fails
// the test, with the end of what it wrote on stderr.
//
// cap is the relay's limit, applied by the relay's own rule (About): the
// khatru stores as khatrutest.Options.MaxLimit says, rely and the newest
// khatru at min(limit, cap) and cap for no limit, the JS relay at ten
// times its default limit cap/10 (at least 1), so its cap is cap rounded
// down to a multiple of 10, at least 10.
//
// The data directory is made under khatrutest.DataParent() (RAM where
// the system has /dev/shm, since the stores sync every write and no check
// depends on durability), else in t.TempDir().
func (p Peer) Start(t testing.TB, cap int) (url string, stop func()) {
	t.Helper()
	if cap < 1 {
		t.Fatalf("peers: %s: cap %d, want at least 1", p.Name, cap)
	}
	if p.kind == inProcess {
		r, err := khatrutest.Start(khatrutest.Options{Backend: p.backend, MaxLimit: cap})
		if err != nil {
			t.Fatalf("peers: %s: %v", p.Name, err)
		}
		return r.URL, stopOnce(t, p.Name, r.Close)
	}
	ctx, cancel := context.WithTimeout(context.Background(), prepareTimeout)
	defer cancel()
	argv, err := p.command(ctx)
	if err != nil {
		var m *MissingToolError
		if errors.As(err, &m) && os.Getenv(RequireEnv) == "" {
			t.Skipf("peers: %s not started: %v", p.Name, err)
		}
		t.Fatalf("peers: %s: %v", p.Name, err)
	}
	dir := dataDir(t, p.Name)
	if p.kind == node {
		// The repository's cap is ten times its default limit.
		cap = max(1, cap/10) * 10
	}
	argv = append(argv, p.flag("dir"), dir, p.flag("limit"), strconv.Itoa(cap))
	if p.kind == node {
		argv = append(argv, "--cache-ttl", strconv.Itoa(p.cacheTTL))
	}
	proc, err := startProcess(argv, startTimeout)
	if err != nil {
		t.Fatalf("peers: %s: %v", p.Name, err)
	}
	return proc.url, stopOnce(t, p.Name, func() error {
		err := proc.stop(stopTimeout)
		if rerr := os.RemoveAll(dir); err == nil {
			err = rerr
		}
		return err
	})
}

// How long a peer may take to be built or installed (an npm ci compiles
// better-sqlite3: about 2 minutes here), to print its URL, and to exit
// once stopped.
const (
	prepareTimeout = 10 * time.Minute
	startTimeout   = 60 * time.Second
	stopTimeout    = 10 * time.Second
)

// command is the peer's program and its fixed arguments, built or
// installed first if the cache does not hold it.
func (p Peer) command(ctx context.Context) ([]string, error) {
	switch p.kind {
	case goModule:
		bin, err := goPeer(ctx, p.module)
		if err != nil {
			return nil, err
		}
		return []string{bin}, nil
	case node:
		nodeBin, dir, err := jsRelay(ctx)
		if err != nil {
			return nil, err
		}
		return []string{nodeBin, serverScript(dir)}, nil
	}
	return nil, fmt.Errorf("peers: %s is not a subprocess", p.Name)
}

// flag spells a flag as the peer's program takes it.
func (p Peer) flag(name string) string {
	if p.kind == node {
		return "--" + name
	}
	return "-" + name
}

// dataDir makes a fresh data directory for a subprocess peer.
func dataDir(t testing.TB, name string) string {
	t.Helper()
	parent := khatrutest.DataParent()
	if parent == "" {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp(parent, "peer-"+name+"-")
	if err != nil {
		t.Fatalf("peers: %s: %v", name, err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// stopOnce wraps a peer's stop so that the caller and the test's cleanup
// can both call it; the first call's error fails the test.
func stopOnce(t testing.TB, name string, stop func() error) func() {
	var once sync.Once
	f := func() {
		once.Do(func() {
			if err := stop(); err != nil {
				t.Errorf("peers: stopping %s: %v", name, err)
			}
		})
	}
	t.Cleanup(f)
	return f
}
