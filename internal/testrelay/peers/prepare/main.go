// Command prepare builds the peer relays that run as subprocesses (rely, the
// newest khatru) and installs the JS relay's packages, into the cache the peer
// tests start them from (internal/testrelay/peers). `make peer-deps` runs it;
// it is quick when nothing changed.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nip-rs/harness/internal/testrelay/peers"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	if err := peers.Prepare(ctx, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(1)
	}
}
