// Command khatrunext is the peer relay "newest khatru": package khatru of
// module fiatjaf.com/nostr (v0.0.0-20260611214214-c4534c716026, the most
// recent version the module proxy serves) over that module's own lmdb
// store, hooked up the default way, relay.UseEventstore(db, limit).
//
// It lives in a module of its own because fiatjaf.com/nostr replaces the
// go-nostr v0.38.2 the harness is on. The harness's peer tests build it and
// start it as a subprocess (internal/testrelay/peers): it listens on 127.0.0.1
// at a port the system picks, prints its websocket URL as the first line of
// stdout, keeps its database in -dir, and exits when stdin reaches its end or
// on SIGTERM/SIGINT, so a test process that dies leaves no relay behind.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"fiatjaf.com/nostr/eventstore/lmdb"
	"fiatjaf.com/nostr/khatru"
)

func main() {
	dir := flag.String("dir", "", "directory for the lmdb environment (required)")
	limit := flag.Int("limit", 10, "maxQueryLimit given to UseEventstore: the relay's cap")
	flag.Parse()
	if *dir == "" || *limit < 1 {
		fmt.Fprintln(os.Stderr, "khatrunext peer: -dir is required and -limit must be positive")
		os.Exit(2)
	}
	if err := run(*dir, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "khatrunext peer:", err)
		os.Exit(1)
	}
}

func run(dir string, limit int) error {
	db := &lmdb.LMDBBackend{Path: dir}
	if err := db.Init(); err != nil {
		return err
	}
	defer db.Close()

	relay := khatru.NewRelay()
	relay.Log = log.New(io.Discard, "", 0)
	relay.UseEventstore(db, limit)

	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer cancel()
	go func() { // the parent holds stdin open for as long as it wants the relay
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: relay, ReadHeaderTimeout: 5 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Printf("ws://%s\n", ln.Addr())

	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	// Close, not Shutdown: websockets are hijacked connections that
	// Shutdown would not wait for, and the database is closed next.
	return srv.Close()
}
