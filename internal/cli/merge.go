package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// The shard documents -merge reads come from other machines: they are
// evidence, not truth. This file is the one place both commands
// (explore -merge, mutate -merge) validate them, in an order chosen so
// that a hostile file costs little: the number of files and every size
// before anything is read, the header's counts before anything is
// allocated from them, the build before the body is believed, the body
// decoded strictly (no unknown member, nothing after it), then the
// command's own checks of the part against its run line and index, and
// last the parts against each other.

// MaxMergeFile bounds one shard document -merge reads. The largest a run
// writes is a mutate part of the whole catalogue (some hundred KiB, its
// witnesses are not in it) or a simulation part with one witness per tie
// policy (a few KiB); 8 MiB leaves room for a larger catalogue.
const MaxMergeFile = 8 << 20

// MaxMergeTotal bounds all the documents of one -merge together, checked
// from their sizes before any is read: a merge of many large files is
// refused at once rather than after reading them.
const MaxMergeTotal = 32 << 20

// PartHeader is what every shard document carries at its top level: the
// run line (the configuration), the build that wrote it and its part.
type PartHeader struct {
	Run   string `json:"run"`
	Build string `json:"build"`
	Shard *Shard `json:"shard"`
}

// Part is a command's shard document as the merge validates it.
type Part interface {
	// Header is the document's header.
	Header() PartHeader
	// CheckPart says what in the document does not match what its run
	// line and its part index imply (nil: nothing found). It is called
	// after the header is validated, so the shard is in range.
	CheckPart() error
}

// ShardFile is one validated part: its file name and its document.
type ShardFile[D Part] struct {
	Name string
	Doc  D
}

// ReadShards reads the files given to -merge and checks they are the
// parts of one run built by this very executable: each a regular file
// within the bounds, a shard document of the command's type (decoded
// strictly into what newDoc returns), passing its CheckPart, with the
// same run line and count as the others, each part exactly once, none
// missing. The files come back in part order. An error names the file or
// the part at fault.
func ReadShards[D Part](names []string, newDoc func() D) ([]ShardFile[D], error) {
	if len(names) == 0 {
		return nil, errors.New("-merge: name the shard files to merge")
	}
	if len(names) > MaxShards {
		return nil, fmt.Errorf("-merge: %d files, more than a run has parts (%d)", len(names), MaxShards)
	}
	// Every size first: nothing is read when the whole is too large.
	var total int64
	for _, name := range names {
		st, err := os.Stat(name)
		if err != nil {
			return nil, fmt.Errorf("-merge: %v", err)
		}
		if !st.Mode().IsRegular() {
			// A FIFO or a device would block or never end.
			return nil, fmt.Errorf("-merge: %s: not a regular file (%s)", name, st.Mode().Type())
		}
		if st.Size() > MaxMergeFile {
			return nil, fmt.Errorf("-merge: %s: %d bytes, more than a shard document can be (%d)", name, st.Size(), MaxMergeFile)
		}
		total += st.Size()
		if total > MaxMergeTotal {
			return nil, fmt.Errorf("-merge: the files up to %s hold %d bytes, more than the parts of a run can (%d)", name, total, MaxMergeTotal)
		}
	}
	build := BuildID()
	var out []ShardFile[D]
	for _, name := range names {
		data, err := readBounded(name, MaxMergeFile)
		if err != nil {
			return nil, fmt.Errorf("-merge: %s: %v", name, err)
		}
		var h PartHeader
		if err := json.Unmarshal(data, &h); err != nil {
			return nil, fmt.Errorf("-merge: %s: not a shard document: %v", name, err)
		}
		switch s := h.Shard; {
		case s == nil || h.Run == "":
			return nil, fmt.Errorf("-merge: %s: not a shard document (no run line or no \"shard\" member; run with -shard i/n -json)", name)
		case s.Count < 1 || s.Count > MaxShards:
			return nil, fmt.Errorf("-merge: %s: \"shard\" count %d, not 1..%d", name, s.Count, MaxShards)
		case s.Index < 1 || s.Index > s.Count:
			return nil, fmt.Errorf("-merge: %s: \"shard\" index %d, not 1..%d", name, s.Index, s.Count)
		case h.Build != build:
			return nil, fmt.Errorf("-merge: %s: written by another build than this one (its \"build\" %q, this one %q); merge with the executable that ran the parts", name, h.Build, build)
		}
		// The header's parse above already refused data after the
		// document; this one refuses members the command does not know.
		d := newDoc()
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(d); err != nil {
			return nil, fmt.Errorf("-merge: %s: not a shard document of this command: %v", name, err)
		}
		if err := d.CheckPart(); err != nil {
			return nil, fmt.Errorf("-merge: %s: %v", name, err)
		}
		out = append(out, ShardFile[D]{Name: name, Doc: d})
	}
	first := out[0].Doc.Header()
	byPart := make([]string, first.Shard.Count+1) // bounded by MaxShards above
	for _, f := range out {
		h := f.Doc.Header()
		switch {
		case h.Run != first.Run:
			return nil, fmt.Errorf("-merge: %s is of another run than %s:\n  %s\n  %s", f.Name, out[0].Name, h.Run, first.Run)
		case h.Shard.Count != first.Shard.Count:
			return nil, fmt.Errorf("-merge: %s is part of %d, %s part of %d", f.Name, h.Shard.Count, out[0].Name, first.Shard.Count)
		}
		if prev := byPart[h.Shard.Index]; prev != "" {
			return nil, fmt.Errorf("-merge: %s and %s are both part %s", prev, f.Name, h.Shard)
		}
		byPart[h.Shard.Index] = f.Name
	}
	var missing []string
	for i := 1; i <= first.Shard.Count; i++ {
		if byPart[i] == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", i, first.Shard.Count))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("-merge: missing part %s", strings.Join(missing, ", "))
	}
	sorted := make([]ShardFile[D], len(out))
	for _, f := range out {
		sorted[f.Doc.Header().Shard.Index-1] = f
	}
	return sorted, nil
}

// readBounded reads a regular file of at most limit bytes. The size was
// checked before; this holds the bound even if the file grew since, or
// was replaced by something that is not a regular file.
func readBounded(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("more than %d bytes", limit)
	}
	return data, nil
}
