package khatrutest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/fiatjaf/eventstore"
	"github.com/fiatjaf/eventstore/badger"
	"github.com/fiatjaf/eventstore/lmdb"
	"github.com/fiatjaf/eventstore/slicestore"
	"github.com/fiatjaf/eventstore/sqlite3"
	"github.com/nbd-wtf/go-nostr"
)

// The backends khatru runs over here: eventstore v0.9.0's stores that
// relays are deployed with, each left to behave as it does.
const (
	// Slicestore is the in-memory store (the default): since exclusive,
	// ties by descending id, no mutex of its own.
	Slicestore = "slicestore"
	// Badger is the badger v4 store: a limit at or above MaxLimit (or
	// none) gets MaxLimit/4, ties in key order.
	Badger = "badger"
	// LMDB is the lmdb store (lmdb-go vendors the C library): the same
	// limit rule as badger, ties in key order.
	LMDB = "lmdb"
	// SQLite3 is the sqlite3 store (cgo): QueryLimit caps, NIP-01 order,
	// tag values matched by substring.
	SQLite3 = "sqlite3"
)

// Backends lists every backend a relay can run over, slicestore first, so
// a test can run against each peer.
func Backends() []string { return []string{Slicestore, Badger, LMDB, SQLite3} }

// openBackend initialises a store of the backend; disk stores live in
// dir. It returns the store, the cap it applies (its knob after Init, the
// store's default when maxLimit is zero) and the package path whose
// goroutines are the store's own query workers.
func openBackend(backend, dir string, maxLimit int) (eventstore.Store, int, string, error) {
	switch backend {
	case Slicestore:
		s := &slicestore.SliceStore{MaxLimit: maxLimit}
		if err := s.Init(); err != nil {
			return nil, 0, "", err
		}
		return s, s.MaxLimit, "", nil
	case Badger:
		s := &badger.BadgerBackend{Path: dir, MaxLimit: maxLimit}
		if err := s.Init(); err != nil {
			return nil, 0, "", err
		}
		return s, s.MaxLimit, "github.com/fiatjaf/eventstore/badger.", nil
	case LMDB:
		s := &lmdb.LMDBBackend{Path: dir, MaxLimit: maxLimit}
		if err := s.Init(); err != nil {
			return nil, 0, "", err
		}
		return s, s.MaxLimit, "github.com/fiatjaf/eventstore/lmdb.", nil
	case SQLite3:
		s := &sqlite3.SQLite3Backend{DatabaseURL: filepath.Join(dir, "relay.db"), QueryLimit: maxLimit}
		if err := s.Init(); err != nil {
			if s.DB != nil {
				_ = s.DB.Close()
			}
			return nil, 0, "", err
		}
		return s, s.QueryLimit, "github.com/fiatjaf/eventstore/sqlite3.", nil
	}
	return nil, 0, "", fmt.Errorf("khatrutest: unknown backend %q (have %v)", backend, Backends())
}

// validBackend reports whether name is one of Backends().
func validBackend(name string) bool {
	for _, b := range Backends() {
		if b == name {
			return true
		}
	}
	return false
}

// DataDirEnv names the directory disk stores are made in. Unset, they go
// to /dev/shm when it is a writable directory (a RAM-backed file system,
// where fsync costs nothing), else to the system's temporary directory.
// lmdb and sqlite3 sync every write: on a disk the syncs, not the relay,
// are most of a test's time (lmdb's gated loads: 25 s on disk, 0.6 s in
// RAM), and no check here depends on durability. `make peers` sets it to
// a disk directory, so the stores' own timing is exercised there too.
const DataDirEnv = "KHATRUTEST_DATA_DIR"

// dataDir makes a fresh directory for a disk store; slicestore has none.
func dataDir(backend string) (string, error) {
	if backend == Slicestore {
		return "", nil
	}
	return os.MkdirTemp(DataParent(), "khatrutest-"+backend+"-")
}

// DataParent is the directory fresh data directories are made in (see
// DataDirEnv); empty means the system's temporary directory. The peers started
// as subprocesses (internal/testrelay/peers) keep their data there too, for the
// same reason.
func DataParent() string {
	if d := os.Getenv(DataDirEnv); d != "" {
		return d
	}
	const shm = "/dev/shm"
	if fi, err := os.Stat(shm); err == nil && fi.IsDir() {
		if f, err := os.CreateTemp(shm, "khatrutest-probe-"); err == nil {
			name := f.Name()
			_ = f.Close()
			_ = os.Remove(name)
			return shm
		}
	}
	return ""
}

// awaitWorkers returns once no goroutine runs code of the store's package
// (pkg, as openBackend names it). badger and lmdb answer a query from
// worker goroutines that may outlive the channel they feed by a moment
// (each ends once its query's context is cancelled), and sqlite3 closes
// its rows after the channel: the store must not be closed under them
// (lmdb's environment may not be closed with a transaction open).
func awaitWorkers(pkg string) {
	if pkg == "" {
		return
	}
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n == len(buf) {
			buf = make([]byte, 2*len(buf))
			continue
		}
		if !bytes.Contains(buf[:n], []byte(pkg)) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// drainQuery runs one store query to its end under its own context,
// cancelled once the channel is closed so that no worker of the store
// stays blocked on a send nobody reads.
// khatru's context is not passed on: a query ends whole, and its answer
// goes nowhere if the connection is gone.
func drainQuery(st eventstore.Store, f nostr.Filter) ([]*nostr.Event, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := st.QueryEvents(ctx, f)
	if err != nil {
		return nil, err
	}
	var out []*nostr.Event
	for ev := range ch {
		out = append(out, ev)
	}
	return out, nil
}
