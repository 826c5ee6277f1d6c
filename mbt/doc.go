// Package mbt turns the explorer's random simulation of a network universe
// into model-based traces in the Informal Trace Format (package itf),
// checks a trace against the model, and drives a client process through a
// trace to find the first step where the client and the model disagree.
//
// # Traces
//
// A trace has one variable per device ("d0", "d1", ...): a map from each
// context the device shows as read (effective frontier above 0) or kept
// unread by a live override to the record {"effective": f, "live": b}, as
// the register scripts of the vectors report a context. "inflight" maps
// each non-empty ordered channel, the tuple (from, to), to the sequence of
// blobs on it, each {"contexts": {"#map": [[key, value], ...]}} (the
// sender is the channel's; the world keeps no client id per message). "action" is the action that led to the state, named as an
// explorer witness names it ({"action": "mark_read", "device": 0, "ctx":
// "c0", "value": 10}; {"action": "deliver", "from": 0, "to": 1, "msg": 1});
// state 0 has {"action": "init"}. The trace's #meta records the universe,
// rules, tie policy, seed, walk index and the legacy devices, so the walk
// can be recomputed and the trace replayed (`explore -replay -itf FILE`,
// Check; ReplayTrace says the outcome as the explorer prints it, and
// WriteWalks writes a block of walks as the explorer's -itf DIR does).
//
// # Profiles
//
// A trace can be masked by a client profile of the vectors
// (vectors/profiles.json; Run.Profile, `explore -simulate N -itf DIR
// -profile NAME`), so that it holds only what such a client observes. Only
// the override layer changes what a trace shows: full, json-parse and
// canonical-store write the whole trace; legacy-decoder (alone or in a
// combination) writes each context whose frontier is above 0 as
// {"effective": f}, with no "live", and each blob in flight without its
// override keys, and the client then hosts the universe's legacy devices
// instead of its upgraded ones (mark-unread is beyond a legacy decoder). A
// masked trace names its profile in #meta "profile"; Check replays it
// masked the same way, and Drive compares a legacy client's answers
// without liveness. The client process is started with NIPRS_PROFILE set
// to the trace's profile ("full" for an unmasked trace). A profile that hosts no device of the universe has no
// trace.
//
// # Adapter protocol
//
// A client under test is a process that reads one JSON object per line on
// stdin and answers each with one JSON object on one line on stdout. The
// harness starts a fresh process per trace; it hosts the trace's upgraded
// devices (a legacy device is the harness's own).
//
// The first line is {"step": 0, "init": {"devices": ["d0", "d1"]}}. Then, for every action that
// reaches a hosted device:
//
//	{"step": i, "device": "d0", "action": {"action": "mark_read", "ctx": "c0", "value": 10}}
//	{"step": i, "device": "d1", "deliver": {"client_id": "d0", "contexts": {"c0": 10, "ov_c:c0": 2}}}
//
// Local actions are mark_unread, mark_read and advance (to "value"),
// compact, reinstall (the installation is lost: empty state) and rotate
// (a new client id, state kept). A delivery or
// a duplicated delivery is the blob received, with the sending device's
// name as its client id. Publishing and dropping
// change nothing a hosted device shows and are not sent.
//
// The client answers every line with {"step": i, "devices": {"d0": {"c0":
// {"effective": 10, "live": false}}, "d1": {}}}: per hosted device, its
// contexts that are read or live. The harness compares that with the
// trace's state i and stops at the first difference, reporting the walk,
// the seed, the step, the action and both sides, with the trace cut after
// that step as a replayable witness. A client that exits, answers out of
// turn or writes a line that is not such an answer is reported as an
// error, not as a divergence.
// # Logs
//
// A client can also be checked on what it logged by itself (Validate,
// `explore -validate LOG`). A log is NDJSON, one record per line, written
// with the adapter protocol's own messages: the first line is the init line
// {"step": 0, "init": {"devices": ["d0", "d1"]}} naming the devices the
// client hosts; each later line is one thing a hosted device did:
//
//	{"step": i, "device": "d0", "action": {"action": "mark_read", "ctx": "c0", "value": 10}}
//	{"step": i, "device": "d1", "received": {"client_id": "d0", "contexts": {"c0": 10}}}
//	{"step": i, "device": "d0", "published": {"contexts": {"c0": 10}}}
//
// "received" is the protocol's "deliver" object (client_id, the sending
// device, may be left out); "published" is one blob or a list of them, one
// per coordinate part. Any record may add "state": the device's view after
// it, as the protocol's answer gives it ({"c0": {"effective": 10, "live":
// false}}, contexts read or live only). Steps increase; unknown members,
// a second kind on a line or a device the init line does not host make
// the log malformed, and so does anything past MaxLogBytes or
// MaxLogRecords.
//
// A behaviour explains the log when each record is one transition of the
// model for its device (an action; a receipt is the delivery or duplicate
// of a message in flight to it with exactly the logged entries; a
// publication is the device's canonical publication there) after which
// the device shows the logged state, and between records any number of
// silent steps: every publication (a client need not log them, and the
// protocol does not send them), every drop, and every step of a device the
// log does not host. A hosted device's actions and receipts are never
// silent. The search is breadth-first over the model's concrete states
// consistent with the log so far, to a fixpoint of silent steps, in
// transition order; a record no state allows is reported with what the
// model allows there and the log up to it, and a search past its bound of
// states is unknown. Before it, a guided search looks depth first for one
// behaviour, the log's next record tried before any silent step and the
// silent steps between two records deepened one at a time: it explains a
// log of network-whole, whose unhosted legacy device takes the
// breadth-first search past its bound within a few records, among a few
// thousand states (testdata/guided-network-whole.golden); when it finds
// none within the bound, the breadth-first search decides, and an unknown
// verdict then names the line through which the guided search found a
// behaviour. By default the universe is validate-pair
// (PairUniverse), where the client hosts both devices.
//
// A guided round that saw every state consistent with the log without
// explaining it proves that no behaviour does; the breadth-first search
// then names the line. On the worked client's network-whole logs (seed
// 11, 30 steps) the breadth-first search alone passed its 400,000-state
// bound on 5 of 5 logs (4 of 5 walks of 10 steps, 5 of 5 of 20); guided,
// all 10 logs of the golden file are explained, visiting at most 122,859
// states, half of them under 1,000. go test ./mbt/ -bench
// ValidateNetworkWhole -benchtime 3x -count 3 measured 0.66 to 0.95 s per
// run of the first 5 logs (2 cores, load average 9 to 20).
//
// # Load records
//
// A log may also record a hosted device's full-state loads, one record per
// thing the load did, in the load vectors' vocabulary (vectors/load.json,
// VOCABULARY.md "load"):
//
//	{"step": i, "device": "d0", "load": {"start": {"pubkey": "79be...", "limit": 2, "sub_prefix": "h", "first_until": 4294967291}}}
//	{"step": i, "device": "d0", "load": {"sent": ["REQ", "h-fence", {"kinds": [30078], "authors": ["79be..."], "limit": 2}]}}
//	{"step": i, "device": "d0", "load": {"received": ["EOSE", "h-fence"]}}
//	{"step": i, "device": "d0", "load": {"verdict": {"verdict": "complete", "reason": "none", "coordinates": {...}}}}
//
// "start" is the load's configuration as a load vector's input.config
// spells it (sub_prefix required: the subscription ids are compared as
// sent); "sent" is a frame the client sent (REQ or CLOSE), "received" one
// it handled from the relay (EVENT, EOSE, CLOSED, or ["LOST"] for the
// connection dropping), each in the order the client handled them;
// "verdict" is the load's verdict, reason, plateau_second (with a plateau
// only) and, optionally, the coordinates collected. An optional "relay"
// member in the load object tells apart loads a device runs at once on
// several relays. A load record carries no "state". A load of several
// passes logs {"wait": {}} where it waits its gap, after the frame
// received and before what it sends in reply (the load vectors' waits).
//
// A load is checked against the model's sans-I/O load (model.Load) under
// the rules validated with, which is deterministic in the frames it is
// fed: every "sent" must be the next message the model sends, in order
// (frames compare as JSON values); a "received" or "verdict" record while
// the model still has a message to send is refused with that message as
// what the model allows (a CLOSE left out is reported at the record after
// it), and so is one where the model waits its gap and the log has no
// "wait"; a "sent" after the model's verdict, or while the model waits for
// the relay, is refused; the verdict must be the model's, reached by
// then, and is logged once. Frames received after the verdict are allowed (the load ignores
// them). An event whose signature fails is fed as the transport would
// (evidence against the relay). Load records change no state of the
// universe, so they are no transitions of the search.
package mbt
