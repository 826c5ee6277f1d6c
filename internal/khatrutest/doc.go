// Package khatrutest runs a real relay for tests: khatru v0.8.4 with an
// in-memory store, served on 127.0.0.1 at a port the system picks, in the
// test's own process. Nothing has to be installed or started by hand.
//
// The store is eventstore v0.9.0's slicestore behind a mutex (slicestore
// has none, and khatru handles every message on its own goroutine), with
// every query drained into a slice while the lock is held, so no store
// goroutine outlives a query whatever khatru does with the channel. The
// relay's own behaviour is left as it is, defects included: since is
// exclusive, ties come out highest id first, a same-second replacement
// can keep both versions. Options.Conforming puts a wrapper in front of
// the store that answers queries as NIP-01 says, and nothing else.
//
// Close closes the listener and every connection the relay accepted, so a
// test that closes its relay leaves no server goroutine behind.
package khatrutest
