// Package peers is the one way a test starts a real relay: every relay
// implementation the harness measures, each on 127.0.0.1 at a port the
// system picks, over a fresh store that is removed when the test ends.
//
// The eight peers (All):
//
//   - khatru-slicestore, khatru-badger, khatru-lmdb, khatru-sqlite3:
//     khatru v0.8.4 over eventstore v0.9.0, in the test's own process
//     (internal/testrelay/khatrutest);
//   - rely: github.com/pippellia-btc/rely v1.2.2 over
//     github.com/vertex-lab/nostr-sqlite v0.6.1 (the rely directory);
//   - khatru-next: the newest khatru the module proxy serves, package
//     khatru of fiatjaf.com/nostr over that module's lmdb store (the
//     khatrunext directory);
//   - jsrelay, jsrelay-nocache: @nostr-relay/core 0.0.40 over its sqlite
//     repository under node, with its default 1 s filter-result cache and
//     with the cache off (the jsrelay directory).
//
// rely and khatru-next need go-nostr versions the harness cannot share
// (it is on v0.38.2), so each is a nested Go module with its own go.mod
// and go.sum; `go build ./...` and `go vet ./...` at the root do not
// descend into them. A test builds one with the go tool into a cache
// directory (CacheDirEnv), named by a hash of the module's files and the
// Go version, so it is built once per change and never stale. The JS
// relay's package.json and package-lock.json are committed, never its
// node_modules: `npm ci` installs them into the cache directory, again
// under a hash of the files and the node version. Prepare does both ahead
// of the tests (`make peer-deps`, which .ci/run runs); a test that finds
// nothing prepared does it itself.
//
// A subprocess peer prints its websocket URL as the first line of its
// stdout, keeps its data in the directory it is given, and exits when its
// stdin is closed, so a test binary that dies takes its relays with it.
//
// Where a tool a peer needs is absent (go and gcc to build a Go peer,
// node to run the JS relay, npm and a C++ toolchain to install it), Start
// skips the test and says what is missing; with RequireEnv set (CI sets
// it) it fails instead, so CI never passes by skipping.
package peers
