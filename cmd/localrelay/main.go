package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
)

func main() {
	ctx, stop := cli.Interruptible()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// doc is -h: what the command does, how to call it and its exit codes.
var doc = cli.Doc{
	Name: "localrelay",
	About: `serves khatru v0.8.4, the relay the harness's tests start, over a chosen store
on this machine, prints its ws:// URL on one line and serves until interrupted
(Ctrl-C). Each store behaves as it does in deployed relays, defects included,
so relaycheck against it reports what it would against such a relay. A disk
store lives in a fresh temporary directory removed at exit unless -dir names
one to keep.`,
	Examples: []string{
		"localrelay                                # badger in a temporary directory on 127.0.0.1, a free port",
		"localrelay -store sqlite3 -addr 127.0.0.1:7777 -dir relay-data",
	},
	Exit: []cli.Exit{
		{Code: cli.ExitOK, Meaning: "stopped by an interrupt; -h, -version"},
		{Code: cli.ExitFailed, Meaning: "the relay's store did not close cleanly"},
		{Code: cli.ExitUsage, Meaning: "usage error: unknown flag or store, an address that cannot be listened on, a\ndata directory that cannot be used; nothing was served"},
	},
}

// run is the command with its arguments and streams, returning the exit
// status; it serves until ctx ends.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := cli.New(doc)
	fs := c.Flags
	store := fs.String("store", khatrutest.Badger, "the store: "+strings.Join(khatrutest.Backends(), ", "))
	addr := fs.String("addr", "127.0.0.1:0", "the address to listen on (port 0: one the system picks)")
	dir := fs.String("dir", "", "keep the disk store's data in this directory (made if absent) instead of a temporary one")
	if code, done := c.Parse(args, stdout, stderr); done {
		return code
	}
	// The flags are checked before anything is made, so a bad one leaves
	// no directory or listener behind.
	if !slices.Contains(khatrutest.Backends(), *store) {
		return c.Fail(stderr, fmt.Errorf("-store %q: want one of %s", *store, strings.Join(khatrutest.Backends(), ", ")))
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return c.Fail(stderr, fmt.Errorf("-addr %q: %v", *addr, err))
	}
	if *dir != "" && *store == khatrutest.Slicestore {
		return c.Fail(stderr, errors.New("-dir: slicestore keeps nothing on disk; choose badger, lmdb or sqlite3 to keep data"))
	}
	r, err := khatrutest.Start(khatrutest.Options{Backend: *store, Addr: *addr, Dir: *dir})
	if err != nil {
		return c.Fail(stderr, err)
	}
	where := "in memory"
	switch {
	case *dir != "":
		where = "data kept in " + r.Dir
	case r.Dir != "":
		where = "data in " + r.Dir + ", removed at exit"
	}
	fmt.Fprintf(stderr, "localrelay %s: khatru v0.8.4 over %s, %s; Ctrl-C stops it\n", cli.Version(), r.Backend, where)
	fmt.Fprintln(stdout, r.URL)
	<-ctx.Done()
	if err := r.Close(); err != nil {
		fmt.Fprintf(stderr, "localrelay: closing the relay: %v\n", err)
		return cli.ExitFailed
	}
	fmt.Fprintln(stderr, "localrelay: stopped")
	return cli.ExitOK
}
