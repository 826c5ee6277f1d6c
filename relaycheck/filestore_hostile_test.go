package relaycheck_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nip-rs/harness/relaycheck"
)

// A store file of a version this package does not know (issue 34 row 11)
// is refused by Get and Put, and Put leaves it byte for byte as it was:
// it used to write a version-1 record into it, still labelled 2, the old
// signature kept over changed contents.
func TestFileStoreNeverRewritesAnotherVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "relays.json")
	newer := []byte(`{"version": 2, "signature": "over the contents below", "relays": [{"relay": "wss://a.example.com/", "violated": null, "source": "probe", "detail": ""}]}`)
	if err := os.WriteFile(path, newer, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &relaycheck.FileStore{Path: path}
	want := "version 2, this harness reads and writes version 1 only"
	if err := s.Put(relaycheck.Record{Relay: "wss://b.example.com", Source: "probe"}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Put: %v, want %q", err, want)
	}
	if _, _, err := s.Get("wss://a.example.com"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Get: %v, want %q", err, want)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, newer) {
		t.Errorf("the file changed: %s (%v)", got, err)
	}
}

// The store reader is bounded (issue 34 row 12): a FIFO given as the store
// is refused at once (it blocked forever), and a file over MaxStoreBytes
// is refused from its size without being read (a sparse file here, so the
// test itself costs nothing).
func TestFileStoreRefusesSpecialAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, []byte(`{"version": 1, "relays": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, relaycheck.MaxStoreBytes+1); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "not a regular file", huge: "more than a store can hold"} {
		s := &relaycheck.FileStore{Path: path}
		if _, _, err := s.Get("wss://a.example.com"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Get %s: %v, want %q", filepath.Base(path), err, want)
		}
		if err := s.Put(relaycheck.Record{Relay: "wss://a.example.com"}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Put %s: %v, want %q", filepath.Base(path), err, want)
		}
	}
	if st, err := os.Stat(huge); err != nil || st.Size() != relaycheck.MaxStoreBytes+1 {
		t.Errorf("the huge file changed: %v %v", st, err)
	}
}
