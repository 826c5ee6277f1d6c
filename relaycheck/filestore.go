package relaycheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/nbd-wtf/go-nostr"
)

// FileStore is a Store in one JSON file (relays sorted by URL, so the
// file is stable), shared safely by goroutines and processes: every Put
// reads, merges and rewrites the file under an exclusive lock on a lock
// file beside it (Path + ".lock"), writing a uniquely named temporary
// file in the same directory and renaming it over the old one, so a
// reader sees the old file or the new, never a partial one, and no
// writer loses another's record. A missing file is an empty store; a file
// that does not parse is an error, never overwritten. Fields this
// version does not know, in a file of its own version, are kept; a file
// of another version is refused, read or written, and never rewritten
// (a newer format's records may not mean what this one's do, and a
// rewrite would label this version's record with the newer number).
// The file must be a regular file of at most MaxStoreBytes: the store
// is read whole on every Get and Put, and a FIFO or a device would block
// or never end.
type FileStore struct {
	Path string
	mu   sync.Mutex
}

// storeVersion is the file format this package reads and writes.
const storeVersion = 1

// MaxStoreBytes bounds the store file. A record is some hundred bytes
// (the relay, the verdict, the source, a short detail), so 16 MiB holds
// tens of thousands of relays; a larger file is not one this package
// wrote, and reading it whole on every Get would cost seconds and
// hundreds of MB.
const MaxStoreBytes = 16 << 20

type storeFile struct {
	Version int      `json:"version"`
	Relays  []Record `json:"relays"`
}

// storeContents is a parsed file: its records by relay, its version and
// the top-level fields this version does not know.
type storeContents struct {
	version int
	relays  map[string]Record
	unknown map[string]json.RawMessage
}

// lock takes the lock file (exclusive or shared) and returns its release.
func (s *FileStore) lock(how int) (func(), error) {
	f, err := os.OpenFile(s.Path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("relaycheck: evidence store lock: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("relaycheck: evidence store lock: %w", err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

func (s *FileStore) read() (storeContents, error) {
	c := storeContents{version: storeVersion, relays: map[string]Record{}}
	data, err := readStore(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("relaycheck: evidence store %s: %w", s.Path, err)
	}
	var f storeFile
	if c.unknown, err = splitUnknown(data, &f); err != nil {
		return c, fmt.Errorf("relaycheck: evidence store %s: %w", s.Path, err)
	}
	if f.Version != storeVersion {
		return c, fmt.Errorf("relaycheck: evidence store %s: version %d, this harness reads and writes version %d only (the file is left as it is)", s.Path, f.Version, storeVersion)
	}
	c.version = f.Version
	for _, r := range f.Relays {
		c.relays[nostr.NormalizeURL(r.Relay)] = r
	}
	return c, nil
}

func (s *FileStore) Get(relay string) (Record, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.lock(syscall.LOCK_SH)
	if err != nil {
		return Record{}, false, err
	}
	defer unlock()
	c, err := s.read()
	if err != nil {
		return Record{}, false, err
	}
	r, ok := c.relays[nostr.NormalizeURL(relay)]
	return r, ok, nil
}

func (s *FileStore) Put(r Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.lock(syscall.LOCK_EX)
	if err != nil {
		return err
	}
	defer unlock()
	c, err := s.read()
	if err != nil {
		return err
	}
	r.Relay = nostr.NormalizeURL(r.Relay)
	merged, ok := merge(c.relays[r.Relay], r)
	if !ok {
		return nil
	}
	c.relays[r.Relay] = merged
	return s.write(c)
}

// write replaces the file with c; the caller holds the exclusive lock.
func (s *FileStore) write(c storeContents) error {
	f := storeFile{Version: c.version}
	for _, rec := range c.relays {
		f.Relays = append(f.Relays, rec)
	}
	slices.SortFunc(f.Relays, func(a, b Record) int { return strings.Compare(a.Relay, b.Relay) })
	flat, err := joinUnknown(f, c.unknown)
	if err != nil {
		return err
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, flat, "", "  "); err != nil {
		return err
	}
	data := append(indented.Bytes(), '\n')
	tmp, err := os.CreateTemp(filepath.Dir(s.Path), filepath.Base(s.Path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("relaycheck: evidence store: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("relaycheck: evidence store: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("relaycheck: evidence store: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("relaycheck: evidence store: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return fmt.Errorf("relaycheck: evidence store: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.Path); err != nil {
		return fmt.Errorf("relaycheck: evidence store: %w", err)
	}
	return nil
}

// readStore reads the store file: a regular file of at most MaxStoreBytes.
// It is opened without blocking, so that a FIFO given as the store is
// refused rather than waited on, and read through a limit, so that a
// file growing after the check is still bounded.
func readStore(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("not a regular file (%s)", st.Mode().Type())
	case st.Size() > MaxStoreBytes:
		return nil, fmt.Errorf("%d bytes, more than a store can hold (%d)", st.Size(), MaxStoreBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxStoreBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxStoreBytes {
		return nil, fmt.Errorf("more than %d bytes", MaxStoreBytes)
	}
	return data, nil
}
