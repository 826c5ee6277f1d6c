package search

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// A long run can write a checkpoint at every depth boundary and a later run
// can continue from it (Config.Checkpoint). A checkpoint directory holds:
//
//	level-DDD.states   the states first reached at depth DDD: row, parent
//	                   and transition of each, in store order
//	level-DDD.tables   the World's interned values made up to that
//	                   boundary and not in an earlier level's file (Tables)
//	boundary-DDD.tally the figures at the boundary: the tally, the states
//	                   checked and the time spent
//	boundary-DDD.sleep with POR, the sleep sets of the states at depth DDD
//	boundary-DDD.final once the run has finished: its final figures, and
//	boundary-DDD.final-tables the values its last checks interned
//	manifest.json      what run this is, the depth it reached and the size
//	                   and SHA-256 of every file above it refers to
//
// The checkpoint of depth d is taken once the states at depth d are all
// stored and before any of them is checked or expanded: it is everything
// an uninterrupted run knows at that moment. Level files never change once
// written, so the checkpoint of depth d+1 adds two level files and a new
// boundary. The manifest is written last, to a temporary file that is
// synced and renamed over the old one: a run killed at any moment leaves
// the previous checkpoint whole (files of a later, unfinished boundary are
// not in its manifest and are overwritten when that boundary is written
// again). Boundary files of earlier depths are removed once the new
// manifest is in place. A run that finishes also records its final
// figures: resumed with the same depth bound, it then reports them without
// checking its last level again (a deeper run resumes from the boundary).

// Checkpoint configures writing checkpoints and resuming from one.
type Checkpoint struct {
	// Dir is the checkpoint's directory; it must exist.
	Dir string
	// Identity names everything besides the depth bound and the state
	// limit that decides a run's results (the World, its rules, the
	// reductions, the program's version): a resume refuses a checkpoint
	// whose identity differs. The engine adds its own fields (row width,
	// transitions, invariants, POR, TerminalOnly, StopAtFirst).
	Identity []Field
	// Tables saves and restores the World's interned values.
	Tables Tables
	// Resume continues the run checkpointed in Dir instead of starting
	// from the initial state; the run keeps checkpointing there. The
	// depth bound must be at least the checkpoint's depth, and a state
	// limit at least the states it holds (a run with those bounds would
	// have stopped before the boundary).
	Resume bool
	// Stop, when set, is called after each checkpoint is written, with its
	// depth; returning true ends the run there, unknown, as an interrupt
	// at that moment would.
	Stop func(depth int) bool
}

// Field is one named part of a checkpoint's identity.
type Field struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Tables is the part of a World that rows refer to: values interned by id
// on first sight. Ids depend on which worker saw a value first, so a
// resumed run must load the very ids the stored rows use.
type Tables interface {
	// AppendTables encodes every value interned since the previous call
	// (since the World was made, on the first), in an order LoadTables
	// can replay. The engine calls it only between levels, when no worker
	// runs.
	AppendTables(e *Enc) error
	// LoadTables restores what one AppendTables call encoded, into a
	// World just made, giving every value the id it had: calls come in
	// the order the encodings were made. Input is untrusted.
	LoadTables(d *Dec) error
	// ValidRow reports an error when a loaded row refers to a value that
	// is not in the tables.
	ValidRow(row []int32) error
}

// checkpointFormat names the layout above; a manifest of any other format
// is refused.
const checkpointFormat = "nip-rs search checkpoint 1"

const manifestName = "manifest.json"

// maxManifestBytes bounds what is read of a manifest.
const maxManifestBytes = 1 << 20

// manifest is manifest.json.
type manifest struct {
	Format   string  `json:"format"`
	Identity []Field `json:"identity"`
	// Depth is the depth whose states were stored last: stored, not yet
	// checked or expanded.
	Depth int `json:"depth"`
	// Levels is the number of states first reached at each depth
	// 0..Depth.
	Levels []int     `json:"levels"`
	Files  []fileSum `json:"files"`
	// Final, once the run has finished, holds its final figures.
	Final *final `json:"final,omitempty"`
	// MAC seals the rest under this user's key (checkpoint_mac.go).
	MAC string `json:"mac"`
}

// final is a finished run's figures: the tally after its last checks, for
// a resume with the same depth bound.
type final struct {
	Bound  int     `json:"bound"`
	Tables fileSum `json:"tables"`
	File   fileSum `json:"file"`
}

// fileSum is one file of a checkpoint: its name in the directory, its size
// and its SHA-256.
type fileSum struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

func levelFile(d int, kind string) string    { return fmt.Sprintf("level-%03d.%s", d, kind) }
func boundaryFile(d int, kind string) string { return fmt.Sprintf("boundary-%03d.%s", d, kind) }

// fileNames are the files the checkpoint of depth d consists of, in
// manifest order.
func fileNames(d int, por bool) []string {
	var names []string
	for l := 0; l <= d; l++ {
		names = append(names, levelFile(l, "states"), levelFile(l, "tables"))
	}
	names = append(names, boundaryFile(d, "tally"))
	if por {
		names = append(names, boundaryFile(d, "sleep"))
	}
	return names
}

// HasCheckpoint reports whether dir holds a checkpoint manifest (valid or
// not): a new run must not write over it.
func HasCheckpoint(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, manifestName))
	return err == nil
}

// Saved is a checkpoint read from its directory.
type Saved struct {
	dir string
	m   manifest
}

// Depth is the depth whose states the checkpoint stored last.
func (s *Saved) Depth() int { return s.m.Depth }

// States is the number of states the checkpoint holds.
func (s *Saved) States() int {
	n := 0
	for _, c := range s.m.Levels {
		n += c
	}
	return n
}

// ErrNoCheckpoint is returned when a directory holds no checkpoint.
var ErrNoCheckpoint = errors.New("no checkpoint")

// OpenCheckpoint reads the manifest of the checkpoint in dir and checks
// that it is one and that every file it names is there with its size. It
// reads no other file and changes nothing; Verify checks the contents.
func OpenCheckpoint(dir string) (*Saved, error) {
	f, err := os.Open(filepath.Join(dir, manifestName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w (no %s)", dir, ErrNoCheckpoint, manifestName)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxManifestBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxManifestBytes {
		return nil, fmt.Errorf("%s: manifest larger than %d bytes: not a checkpoint", dir, maxManifestBytes)
	}
	s := &Saved{dir: dir}
	if err := json.Unmarshal(b, &s.m); err != nil || s.m.Format != checkpointFormat {
		return nil, fmt.Errorf("%s: %s is not a checkpoint manifest of this program (format %q)", dir, manifestName, checkpointFormat)
	}
	if err := verifySeal(s.m); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if err := s.m.wellFormed(); err != nil {
		return nil, fmt.Errorf("%s: malformed manifest: %w", dir, err)
	}
	for _, fs := range s.m.files() {
		fi, err := os.Lstat(filepath.Join(dir, fs.Name))
		switch {
		case err != nil:
			return nil, fmt.Errorf("%s: checkpoint file missing: %w", dir, err)
		case !fi.Mode().IsRegular():
			return nil, fmt.Errorf("%s: checkpoint file %s is not a regular file", dir, fs.Name)
		case fi.Size() != fs.Bytes:
			return nil, fmt.Errorf("%s: checkpoint file %s has %d bytes, the manifest says %d (truncated or changed)", dir, fs.Name, fi.Size(), fs.Bytes)
		}
	}
	return s, nil
}

// wellFormed checks the manifest's own consistency: the files are exactly
// those of its depth, with sane sizes and checksums.
func (m *manifest) wellFormed() error {
	if m.Depth < 0 || m.Depth > 1<<16 || len(m.Levels) != m.Depth+1 {
		return fmt.Errorf("depth %d with %d levels", m.Depth, len(m.Levels))
	}
	for d, n := range m.Levels {
		if n < 1 || n > 1<<40 || (d == 0 && n != 1) {
			return fmt.Errorf("%d states at depth %d", n, d)
		}
	}
	por := len(m.Files) > 0 && m.Files[len(m.Files)-1].Name == boundaryFile(m.Depth, "sleep")
	names := fileNames(m.Depth, por)
	if len(names) != len(m.Files) {
		return fmt.Errorf("%d files listed, a checkpoint of depth %d has %d", len(m.Files), m.Depth, len(names))
	}
	for i, fs := range m.Files {
		if fs.Name != names[i] || fs.Bytes < 0 || len(fs.SHA256) != 64 {
			return fmt.Errorf("file entry %d (%q) is not %q with a size and a SHA-256", i, fs.Name, names[i])
		}
	}
	if f := m.Final; f != nil && (f.Bound < m.Depth || f.File.Name != boundaryFile(m.Depth, "final") || f.Tables.Name != boundaryFile(m.Depth, "final-tables") ||
		f.File.Bytes < 0 || f.Tables.Bytes < 0 || len(f.File.SHA256) != 64 || len(f.Tables.SHA256) != 64) {
		return fmt.Errorf("final figures %q of a run to depth %d", f.File.Name, f.Bound)
	}
	return nil
}

// files is every file the manifest refers to.
func (m *manifest) files() []fileSum {
	if m.Final == nil {
		return m.Files
	}
	return append(slices.Clone(m.Files), m.Final.Tables, m.Final.File)
}

// Match checks that the checkpoint is of the run named by identity (the
// caller's fields; the engine's own are checked when the run resumes).
func (s *Saved) Match(identity []Field) error {
	have := map[string]string{}
	for _, f := range s.m.Identity {
		have[f.Key] = f.Value
	}
	for _, f := range identity {
		v, ok := have[f.Key]
		if !ok {
			return fmt.Errorf("%s is a checkpoint of another kind of run (it does not record %s)", s.dir, f.Key)
		}
		if v != f.Value {
			return fmt.Errorf("%s is a checkpoint of another run: %s %s there, %s here", s.dir, f.Key, strconv.Quote(v), strconv.Quote(f.Value))
		}
	}
	return nil
}

// Verify reads every file of the checkpoint and checks its checksum.
func (s *Saved) Verify() error {
	for _, fs := range s.m.files() {
		f, err := s.open(fs)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, f)
		if err == nil {
			err = f.Close()
		}
		if err != nil {
			return err
		}
	}
	return nil
}
