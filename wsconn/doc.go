// Package wsconn is a client websocket connection to a Nostr relay whose
// every read is bounded, so a hostile relay costs the client no more than
// the bound per message.
//
// go-nostr's Connection reads a frame of whatever length its header
// announces and inflates a permessage-deflate message without limit: a
// 131 KB frame of compressed zeros becomes 128 MB in the reader's buffer.
// A Conn instead refuses, before reading its payload, a frame longer than
// MaxMessage; counts the wire bytes of a fragmented message against the
// same bound, and the headers and control frames within it (a control
// frame charged as the largest one can be) against a second bound as
// large, so that endless empty continuations or pings end the read; and
// reads a compressed message through a limited reader on
// the decompressor, so inflation stops one byte past the bound. A message
// over the bound is ErrTooLarge and ends the connection: the rest of the
// stream is never read, so nothing past the bound is allocated.
//
// Compression is not offered unless Options.Compress asks for it. When it
// is, only contexts without takeover are accepted (each message inflates
// on its own), and outgoing messages are sent uncompressed, which
// permessage-deflate allows.
//
// Reads and writes honour their context: a context that ends while a read
// or write is blocked closes the connection, which unblocks it (a
// websocket stream abandoned mid-frame cannot be resumed). One reader and
// one writer may work concurrently; replies to pings are serialised with
// the writer's frames.
package wsconn
