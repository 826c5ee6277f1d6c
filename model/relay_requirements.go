package model

// RelayRequirement names one of the five requirements Full-State Load
// places on a relay; the simulator's profiles and the conformance probe
// report against the same names.
type RelayRequirement string

// The five relay requirements of Full-State Load.
const (
	ReqPrefix  RelayRequirement = "R1 newest-first prefix"
	ReqCap     RelayRequirement = "R2 non-decreasing cap"
	ReqFloor   RelayRequirement = "R3 floor L=2"
	ReqPush    RelayRequirement = "R4 push delivery"
	ReqBarrier RelayRequirement = "R5 delivery barrier"
)

// What the full-state load also rests on, beyond the five the spec
// states: real relays break each of them (NOTE.md, "What the spec should
// say about relays"), and each can cost a load a coordinate it then
// claims complete. They are proposed additions to the spec's list.
const (
	// ReqAtomic: a replacement of an addressable coordinate is atomic: a
	// query never finds neither version, nor an older one once the newer
	// was acknowledged (khatru v0.8.x deletes, then saves).
	ReqAtomic RelayRequirement = "R6 atomic replacement"
	// ReqFresh: an answer reflects every write acknowledged before the
	// REQ was sent, even for a filter asked before (no stale result
	// cache: @nostr-relay/core keeps one for 1 s).
	ReqFresh RelayRequirement = "R7 fresh answers"
	// ReqSubs: a connection keeps every subscription the load opens while
	// the client's others stay open, or closes one with CLOSED, never
	// silently (@nostr-relay/core evicts the oldest past 20).
	ReqSubs RelayRequirement = "R8 subscription capacity"
)
