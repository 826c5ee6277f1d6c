package khatrutest_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
)

// TestStartRefuses: a bad option is an error and leaves nothing running.
func TestStartRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts khatrutest.Options
	}{
		{"unknown backend", khatrutest.Options{Backend: "bolt"}},
		{"conforming badger", khatrutest.Options{Backend: khatrutest.Badger, Conforming: true}},
		{"conforming lmdb", khatrutest.Options{Backend: khatrutest.LMDB, Conforming: true}},
		{"conforming sqlite3", khatrutest.Options{Backend: khatrutest.SQLite3, Conforming: true}},
		{"negative cap", khatrutest.Options{Backend: khatrutest.Badger, MaxLimit: -1}},
		{"slicestore with a data directory", khatrutest.Options{Backend: khatrutest.Slicestore, Dir: os.TempDir()}},
		{"address that is not one", khatrutest.Options{Addr: "127.0.0.1:port"}},
		{"data directory under a file", khatrutest.Options{Backend: khatrutest.Badger, Dir: "/dev/null/data"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r, err := khatrutest.Start(tc.opts); err == nil {
				_ = r.Close()
				t.Fatalf("Start(%+v) succeeded, want an error", tc.opts)
			}
		})
	}
}

// TestBackendCaps: MaxLimit reaches each store's cap knob, and each store
// applies its own rule under it (12 events, cap 8): slicestore and
// sqlite3 give min(limit, 8); badger and lmdb give the limit below 8 and
// 8/4 = 2 at or above it.
func TestBackendCaps(t *testing.T) {
	want := map[string]map[int]int{
		khatrutest.Slicestore: {5: 5, 8: 8, 100: 8},
		khatrutest.SQLite3:    {5: 5, 8: 8, 100: 8},
		khatrutest.Badger:     {5: 5, 8: 2, 100: 2},
		khatrutest.LMDB:       {5: 5, 8: 2, 100: 2},
	}
	pk, _ := nostr.GetPublicKey(loadSK)
	for _, backend := range khatrutest.Backends() {
		t.Run(backend, func(t *testing.T) {
			r := startPeer(t, khatrutest.Options{Backend: backend, MaxLimit: 8})
			var evs []*nostr.Event
			for i := range 12 {
				evs = append(evs, signed(fmt.Sprintf("app:%d", i), 1_700_000_000-nostr.Timestamp(i), "app"))
			}
			if err := r.Preload(evs...); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, err := relaycheck.Dial(ctx, relaycheck.DialWebsocket, r.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for _, limit := range []int{5, 8, 100} {
				sub := fmt.Sprintf("cap-%d", limit)
				a, err := c.Query(ctx, sub, model.Spec().Load.EnumerationFilter(pk, limit), nil)
				if err != nil || a.Refused {
					t.Fatalf("limit %d: %v %s", limit, err, a.Closed)
				}
				_ = c.Unsub(ctx, sub)
				if got := len(a.Events); got != want[backend][limit] {
					t.Errorf("limit %d: %d events, want %d", limit, got, want[backend][limit])
				}
			}
		})
	}
}

// TestStoredAndClose: on every backend, Stored lists what was preloaded
// and what khatru stored (a replacement leaves the newer version only),
// and Close removes the data directory and leaves no worker of the store
// running; a second Close does nothing.
func TestStoredAndClose(t *testing.T) {
	for _, backend := range khatrutest.Backends() {
		t.Run(backend, func(t *testing.T) {
			r, err := khatrutest.Start(khatrutest.Options{Backend: backend, MaxLimit: 4})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if (r.Dir == "") != (backend == khatrutest.Slicestore) {
				t.Fatalf("data dir %q for %s", r.Dir, backend)
			}
			old := signed("read-state:00000000000000000000000000000001", 1_700_000_000, "v1")
			var evs []*nostr.Event
			for i := range 6 {
				evs = append(evs, signed(fmt.Sprintf("app:%d", i), 1_699_999_000+nostr.Timestamp(i), "app"))
			}
			if err := r.Preload(append(evs, old)...); err != nil {
				t.Fatal(err)
			}
			newer := signed("read-state:00000000000000000000000000000001", 1_700_000_010, "v2")
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c, err := relaycheck.Dial(ctx, relaycheck.DialWebsocket, r.URL)
			if err != nil {
				t.Fatal(err)
			}
			if ok, why, err := c.Publish(ctx, newer, nil); err != nil || !ok {
				t.Fatalf("publish: %v %s", err, why)
			}
			got, err := r.Stored()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 7 || got[0].ID != newer.ID {
				t.Fatalf("stored %d events, first %v; want 7 with the replacement first", len(got), got[0])
			}
			for _, ev := range got {
				if ev.ID == old.ID {
					t.Fatal("the replaced version is still stored")
				}
			}
			_ = c.Close()
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
			if err := r.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
			if r.Dir != "" {
				if _, err := os.Stat(r.Dir); !os.IsNotExist(err) {
					t.Fatalf("data dir %s left behind (%v)", r.Dir, err)
				}
			}
			buf := make([]byte, 1<<22)
			if st := buf[:runtime.Stack(buf, true)]; bytes.Contains(st, []byte("github.com/fiatjaf/eventstore/"+backend+".")) {
				t.Fatalf("a %s worker outlived Close", backend)
			}
			if _, err := r.Stored(); err == nil {
				t.Fatal("Stored after Close answered")
			}
		})
	}
}

// TestGivenDirAndAddr: a relay over a data directory it is given keeps
// the directory at Close, and a relay started again over it answers what
// the first one stored; Addr chooses the listening address.
func TestGivenDirAndAddr(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	ev := signed("read-state:00000000000000000000000000000002", 1_700_000_000, "kept")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for round := range 2 {
		r, err := khatrutest.Start(khatrutest.Options{Backend: khatrutest.Badger, Dir: dir, Addr: "127.0.0.1:0"})
		if err != nil {
			t.Fatal(err)
		}
		if r.Dir != dir || !strings.HasPrefix(r.URL, "ws://127.0.0.1:") {
			t.Fatalf("round %d: dir %q, url %q", round, r.Dir, r.URL)
		}
		c, err := relaycheck.Dial(ctx, relaycheck.DialWebsocket, r.URL)
		if err != nil {
			_ = r.Close()
			t.Fatal(err)
		}
		if round == 0 {
			if ok, why, err := c.Publish(ctx, ev, nil); err != nil || !ok {
				t.Fatalf("publish: %v %s", err, why)
			}
		}
		ans, err := c.Query(ctx, "kept", nostr.Filter{IDs: []string{ev.ID}}, nil)
		_ = c.Close()
		if cerr := r.Close(); cerr != nil {
			t.Fatal(cerr)
		}
		if err != nil || len(ans.Events) != 1 || ans.Events[0].ID != ev.ID {
			t.Fatalf("round %d: asked for the event stored in round 0: %v %+v", round, err, ans)
		}
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("round %d: the given data directory is gone after Close: %v", round, err)
		}
	}
}

// startPeer starts a relay closed when the test ends, failed or not.
func startPeer(t testing.TB, opts khatrutest.Options) *khatrutest.Relay {
	t.Helper()
	r, err := khatrutest.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("close %s: %v", opts.Backend, err)
		}
	})
	return r
}
