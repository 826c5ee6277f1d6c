// Package witnessfile is the witness file format: a violation that can be
// replayed, as JSON, for every kind of check the harness runs (an explorer
// trace through a universe, a directed check's parameter point, a
// full-state load scenario). It holds data, its parsing and the writing
// of files (write.go); replaying a witness is the business of the package
// whose check wrote it (exhaustive.Replay, directed.Replay, props.Replay),
// dispatched by kind in package catalog. A kind whose fields this package
// does not lay out keeps its file in Witness.Raw for its replayer to read
// strictly.
package witnessfile
