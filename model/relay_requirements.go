package model

// RelayRequirement names one of the five requirements Full-State Load
// places on a relay; the simulator's profiles and the conformance probe
// report against the same names.
type RelayRequirement string

// The five relay requirements of Full-State Load.
const (
	ReqPrefix RelayRequirement = "R1 newest-first prefix"
	ReqCap    RelayRequirement = "R2 non-decreasing cap"
	ReqFloor  RelayRequirement = "R3 floor L=2"
	ReqPush   RelayRequirement = "R4 push delivery"
	// ReqPushSettled is R4 for a subscription answered a while ago (the
	// probe's PushSettle): every event the relay accepts then is pushed
	// to it. A relay may answer a subscription before it registers it
	// for pushes (rely v1.2.2) and so break R4 only in that window; a
	// load of several passes that waits its gap after the fence's answer
	// (Rules.Load.SettleFence) rests on this form, not on R4.
	ReqPushSettled RelayRequirement = "R4 push to a settled subscription"
	ReqBarrier     RelayRequirement = "R5 delivery barrier"
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

// ReqTieOrder is the tie clause of the newest-first prefix requirement
// (R1): a cap inside one second keeps the lowest ids. The load does not
// rest on it: the only second a cap can cut is the delivery's oldest,
// T, and step 4 reads T again whole by the pinned window, whose count
// alone (step 5) decides whether T is discharged, whatever subset of T
// a relay delivers. The simulated relay insertion-ties breaks it alone,
// and the load's soundness search over it finds no false complete
// (props' TestTieOrderIsNotNeeded; ERRATA.md). The probe reports it on
// its own; the gate still requires it, as a stopgap
// (relaycheck.LoadRequirements says why).
const ReqTieOrder RelayRequirement = "R1 ties by lowest id"
