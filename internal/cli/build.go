package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"sync"
)

// BuildID names the running program for what it writes and later reads
// back (checkpoints, shard documents): its Version and the SHA-256 of its
// own executable. The version alone cannot tell two builds apart (every
// -buildvcs=false build reads "(devel)", two dirty trees read the same
// "<commit>+dirty"); the executable's bytes can. Under `go run` the
// executable is the binary go run linked, the same bytes for the same
// tree and toolchain, so parts written and merged by `go run` of one
// tree still agree. When the executable cannot be read the ID is the
// version alone, and Digest says so by being empty.
var BuildID = sync.OnceValue(func() string {
	if d := Digest(); d != "" {
		return Version() + " " + d
	}
	return Version()
})

// Digest is "sha256:<hex>" of the running executable, or "" when it
// cannot be read.
var Digest = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
})
