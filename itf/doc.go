// Package itf writes and reads traces in the Informal Trace Format, the
// JSON trace format of the Apalache model checker and the Quint tools, so
// that the harness's model-based traces can be read by those tools and a
// trace they produce can be read here.
//
// A trace is one JSON object: "#meta" (free-form metadata: the format, the
// source, a description, and whatever else the writer records), "vars"
// (the variable names), an optional "params", an optional "loop", and
// "states", an array of objects, one per state, each carrying "#meta"
// {"index": i} and one value per variable. Values are JSON strings and
// booleans, integers (a JSON number where it is exactly representable,
// {"#bigint": "digits"} otherwise; the reader takes either), arrays for
// sequences, plain objects for records, and the tagged objects {"#set":
// [...]}, {"#map": [[k, v], ...]}, {"#tup": [...]} and
// {"#unserializable": "..."}.
//
// The reader rejects what is not such a trace with an error that names
// the place (the state and variable) where it went wrong; it never panics
// and never returns a partial trace. The writer is deterministic: record
// members and metadata are written in name order, set elements in the
// order of their encoding, and map pairs in the order given.
package itf
