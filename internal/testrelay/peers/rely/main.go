// Command rely is the peer relay github.com/pippellia-btc/rely v1.2.2 over
// github.com/vertex-lab/nostr-sqlite v0.6.1, wired as a deployment wires
// it: the Event hook saves (replacing for replaceable and addressable
// kinds, applying kind 5 deletions), the Req hook queries the store.
//
// It lives in a module of its own because rely needs go-nostr v0.52.0 and the
// harness is on v0.38.2. The harness's peer tests build it and start it as a
// subprocess (internal/testrelay/peers): it listens on 127.0.0.1 at a port the
// system picks, prints its websocket URL as the first line of stdout, keeps its
// database in -dir, and exits when stdin reaches its end or on SIGTERM/SIGINT,
// so a test process that dies leaves no relay behind.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/pippellia-btc/rely"
	sqlite "github.com/vertex-lab/nostr-sqlite"
)

func main() {
	dir := flag.String("dir", "", "directory for the sqlite database (required)")
	limit := flag.Int("limit", 10, "the relay's cap: a filter asking for more, or for no limit, gets this many")
	flag.Parse()
	if *dir == "" || *limit < 1 {
		fmt.Fprintln(os.Stderr, "rely peer: -dir is required and -limit must be positive")
		os.Exit(2)
	}
	if err := run(*dir, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "rely peer:", err)
		os.Exit(1)
	}
}

func run(dir string, limit int) error {
	store, err := sqlite.New(filepath.Join(dir, "relay.sqlite"))
	if err != nil {
		return err
	}
	defer store.Close()

	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer cancel()
	go func() { // the parent holds stdin open for as long as it wants the relay
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()

	relay := rely.NewRelay(rely.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	relay.On.Event = func(_ rely.Client, e *nostr.Event) error { return save(ctx, store, e) }
	relay.On.Req = func(qctx context.Context, _ rely.Client, fs nostr.Filters) ([]nostr.Event, error) {
		// The store refuses a filter without a limit and has no cap of its
		// own: the relay's cap is applied here, as an operator would.
		for i := range fs {
			if !fs[i].LimitZero && (fs[i].Limit < 1 || fs[i].Limit > limit) {
				fs[i].Limit = limit
			}
		}
		return store.Query(qctx, fs...)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	relay.Start(ctx)
	srv := &http.Server{Handler: relay, ReadHeaderTimeout: 5 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Printf("ws://%s\n", ln.Addr())

	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	sctx, scancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer scancel()
	err = srv.Shutdown(sctx)
	relay.Wait()
	if errors.Is(err, context.DeadlineExceeded) {
		err = nil // open websockets are hijacked: Shutdown does not wait for them
	}
	return err
}

// save stores an accepted event by its kind's NIP-01 rule. A version that
// loses to the stored one is refused with the "duplicate:" prefix, so rely
// neither acknowledges it as stored nor broadcasts it.
func save(ctx context.Context, store *sqlite.Store, e *nostr.Event) error {
	switch {
	case nostr.IsEphemeralKind(e.Kind):
		return nil
	case nostr.IsReplaceableKind(e.Kind) || nostr.IsAddressableKind(e.Kind):
		saved, err := store.Replace(ctx, e)
		if err != nil {
			return err
		}
		if !saved {
			return errors.New("duplicate: a version at least as new is stored")
		}
		return nil
	case e.Kind == nostr.KindDeletion:
		if _, err := store.DeleteRequest(ctx, e); err != nil {
			return err
		}
	}
	_, err := store.Save(ctx, e)
	return err
}
