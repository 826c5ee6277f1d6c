// Command localrelay serves a real relay on this machine for trying the
// probe and the load against: khatru v0.8.4, the relay the tests start
// (internal/testrelay/khatrutest), over one of the stores relays are
// deployed with.
//
//	localrelay [-store slicestore|badger|lmdb|sqlite3] [-addr 127.0.0.1:0] [-dir DIR]
//
// It prints the relay's ws:// URL as the one line of its standard output
// once the relay accepts connections, and serves until interrupted. Each
// store is left to behave as it does, defects included, so relaycheck
// reports against it what it would report against a deployed khatru over
// that store. Without -dir a disk store lives in a fresh temporary
// directory removed at exit; with -dir the data is kept.
//
// Exit codes: 0 stopped by an interrupt, 1 the store did not close
// cleanly, 2 usage or bad input (an unknown store, an address that cannot
// be listened on, a data directory that cannot be used): nothing served.
package main
