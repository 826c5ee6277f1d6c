// Package relaycheck probes a relay for the behaviour the full-state load
// of NIP-RS rests on (Full-State Load: the five relay requirements, and
// the filter semantics the procedure relies on), with a throwaway key and
// events it asks the relay to delete afterwards.
//
// Each check sends a few REQs and publications and compares what came
// back with what NIP-01 and the requirements ask for. A check's verdict is
// conforms (the probe saw the required behaviour), violates (with the
// exact evidence: the REQ sent and the events that came back) or unknown
// (the probe could not observe it: a refused write, a timeout). A
// requirement's verdict is the worst of its checks'. The delivery barrier
// is statistical: it is tried a stated number of times, and only a
// violation is certain.
//
// Conn is the client every check uses: one connection, one read loop, so
// frames are seen in wire order (never go-nostr's Subscription channels or
// QuerySync), over a bounded websocket (wsconn): a relay cannot make it
// hold more than one bounded message per frame read, nor more than a
// query's limit of events, and what it hands out is verified (ids,
// signatures, filters) and escaped (Printable). The Store keeps the evidence per relay URL, which the load's
// gate consults (Gate).
package relaycheck
