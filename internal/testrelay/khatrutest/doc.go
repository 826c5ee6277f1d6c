// Package khatrutest runs real relays for tests: khatru v0.8.4 over one
// of eventstore v0.9.0's backends (slicestore in memory, badger, lmdb,
// sqlite3 in a fresh directory, in RAM where the system has /dev/shm
// unless KHATRUTEST_DATA_DIR names another), served on 127.0.0.1 at a
// port the system picks, in the test's own process. Nothing has to be
// installed or started by hand. cmd/localrelay serves the same relay for
// an operator (Options.Addr, and Options.Dir for a data directory that
// outlives it).
//
// Every store is left to behave as it does, defects included, since that
// is what deployed relays do (the relay research notes list them):
// slicestore's since is exclusive and its ties come out highest id
// first; badger and lmdb give MaxLimit/4 for a limit at or above their
// cap and order ties by key; sqlite3 matches tag values by substring and
// stalls under concurrent writes; khatru v0.8.4 itself replaces by
// deleting the old version before saving the new one and keeps an older
// version that arrives second. Only slicestore, which has no mutex, is
// serialised. Options.Conforming (slicestore only) puts a wrapper in
// front of it that answers queries as NIP-01 says, and nothing else.
//
// Close closes the listener and every connection the relay accepted,
// waits for the store's calls and query workers, closes the store and
// removes its data directory, so a test that closes its relay leaves no
// server goroutine or file behind.
//
// The package's tests add RunScenario (scenario_run_test.go), which drives
// full-state loads against a relay while other installations write and
// counts the loads that report complete with a coordinate missing or
// stale. It lives in test files so that the package imports nothing of the
// harness: the relay sits below the load and the probe it is used to test,
// and cmd/localrelay serves it without them.
//
// # Two installations through khatru
//
// Two installations exchange real NIP-44 events through khatru: loads
// with the fence, a live subscription merging and re-publishing after
// read-before-write, rotations whose carry-forward is refused or fetched
// back and checked; they end with equal registers and verdicts. 30 loads
// (cap 3) run while another application writes backdated events, and
// every complete one holds all 6 coordinates.
//
// # The paged walk on real relays
//
// The walk's tests (history_test.go) run on these stores: a cold open
// pages down to an exhausted cursor, a warm open's first REQ carries
// since = newest - CURSOR_OVERLAP, and a 120-wrap burst is bridged in one
// round. The capped-relay hole shows under the document's rules and
// closes under the proposed ones (all 80 stored) on slicestore capped at
// 20 (40 of 80 stored and sealed) and on badger and lmdb with a maximum
// limit of 40, which answer a page of 50 with a quarter of their maximum
// (20 of 80 stored and sealed). On every store, uncapped and capped at
// 40, the proposed walk never seals with wraps missing, and on badger,
// lmdb and sqlite3 it reads all 80. slicestore treats since as
// exclusive, so its pinned pages are empty, a stray under the proposed
// rules: the proposed walk advances nothing and says why, where the
// document's, which never pins, pages it down.
package khatrutest
