package main

import "github.com/nip-rs/harness/exhaustive"

// progressLine is one progress snapshot headed by the run it belongs to
// (exhaustive.RunProgressLine). It goes to stderr only.
var progressLine = exhaustive.RunProgressLine
