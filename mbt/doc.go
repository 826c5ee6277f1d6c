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
// Check).
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
package mbt
