package search

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
)

// checkedFile reads one checkpoint file and checks, once the reader is
// done with it, that it held exactly what the manifest says: its size and
// SHA-256, with nothing left unread.
type checkedFile struct {
	f    *os.File
	r    *bufio.Reader
	h    hash.Hash
	want fileSum
	dir  string
}

func (s *Saved) open(fs fileSum) (*checkedFile, error) {
	f, err := os.Open(filepath.Join(s.dir, fs.Name))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.dir, err)
	}
	c := &checkedFile{f: f, h: sha256.New(), want: fs, dir: s.dir}
	// One byte beyond the manifest's size is let through, so that a file
	// grown since is noticed.
	c.r = bufio.NewReaderSize(io.TeeReader(io.LimitReader(f, fs.Bytes+1), c.h), 1<<16)
	return c, nil
}

func (c *checkedFile) Read(p []byte) (int, error) { return c.r.Read(p) }

// ReadByte lets binary.ReadUvarint read from the file.
func (c *checkedFile) ReadByte() (byte, error) { return c.r.ReadByte() }

// readAll is the rest of the file; the manifest's size (checked against
// the file when it was opened) bounds it.
func (c *checkedFile) readAll() ([]byte, error) {
	b, err := io.ReadAll(c.r)
	if err != nil {
		return nil, c.fail(err)
	}
	return b, nil
}

// Close checks that the file was read to its end and matches its
// checksum, and closes it.
func (c *checkedFile) Close() error {
	defer c.f.Close()
	if _, err := c.r.ReadByte(); !errors.Is(err, io.EOF) {
		if err != nil {
			return c.fail(err)
		}
		return c.fail(errors.New("bytes after its last record"))
	}
	return c.check()
}

// check compares what was read with the manifest.
func (c *checkedFile) check() error {
	// The tee has hashed everything the buffer read, and the buffer is
	// empty once EOF was seen.
	if got := hex.EncodeToString(c.h.Sum(nil)); got != c.want.SHA256 {
		return c.fail(errors.New("checksum mismatch (corrupt or changed since it was written)"))
	}
	return nil
}

// failRead reports a file whose records do not decode: as damaged when its
// checksum says so (the likelier cause), else as malformed.
func (c *checkedFile) failRead(err error) error {
	if _, cerr := io.Copy(io.Discard, c.r); cerr == nil {
		if sumErr := c.check(); sumErr != nil {
			return sumErr
		}
	}
	return c.fail(err)
}

func (c *checkedFile) fail(err error) error {
	c.f.Close()
	return fmt.Errorf("%s: checkpoint file %s: %w", c.dir, c.want.Name, err)
}

// sumWriter writes one checkpoint file and records its size and SHA-256.
type sumWriter struct {
	f    *os.File
	w    *bufio.Writer
	h    hash.Hash
	n    int64
	name string
}

// createFile starts writing file name in dir, replacing any file of that
// name (one no manifest refers to: see checkpoint.go).
func createFile(dir, name string) (*sumWriter, error) {
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	s := &sumWriter{f: f, h: sha256.New(), name: name}
	s.w = bufio.NewWriterSize(io.MultiWriter(f, s.h), 1<<16)
	return s, nil
}

func (s *sumWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	s.n += int64(n)
	return n, err
}

// finish flushes, syncs and closes the file and returns its manifest
// entry.
func (s *sumWriter) finish() (fileSum, error) {
	err := s.w.Flush()
	if err == nil {
		err = s.f.Sync()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fileSum{}, fmt.Errorf("checkpoint file %s: %w", s.name, err)
	}
	return fileSum{Name: s.name, Bytes: s.n, SHA256: hex.EncodeToString(s.h.Sum(nil))}, nil
}

// abort closes a file whose writing failed; it is in no manifest.
func (s *sumWriter) abort() { s.f.Close() }

// writeWhole writes a file of the bytes b.
func writeWhole(dir, name string, b []byte) (fileSum, error) {
	s, err := createFile(dir, name)
	if err != nil {
		return fileSum{}, err
	}
	if _, err := s.Write(b); err != nil {
		s.abort()
		return fileSum{}, err
	}
	return s.finish()
}

// replaceFile makes b the content of dir/name atomically: a reader sees the
// old file or the new one, also after a crash.
func replaceFile(dir, name string, b []byte) error {
	tmp := filepath.Join(dir, name+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	// The rename is durable once the directory is synced.
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
