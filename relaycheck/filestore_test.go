package relaycheck_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/nip-rs/harness/relaycheck"
)

// The child process of TestFileStoreProcesses: it writes its share of
// distinct relays into the store named by the environment.
const (
	childStore = "RELAYCHECK_TEST_STORE"
	childIndex = "RELAYCHECK_TEST_CHILD"
)

const perWriter = 15

func writeShare(s relaycheck.Store, writer int) error {
	for i := range perWriter {
		r := relaycheck.Record{Relay: fmt.Sprintf("wss://w%d-r%d.example.com", writer, i), Source: "probe", ProbeVersion: relaycheck.ProbeVersion}
		if err := s.Put(r); err != nil {
			return err
		}
	}
	return nil
}

func TestFileStoreChild(t *testing.T) {
	path := os.Getenv(childStore)
	if path == "" {
		t.Skip("run by TestFileStoreProcesses")
	}
	n, err := strconv.Atoi(os.Getenv(childIndex))
	if err != nil {
		t.Fatal(err)
	}
	if err := writeShare(&relaycheck.FileStore{Path: path}, n); err != nil {
		t.Fatal(err)
	}
}

// checkAll reads the file as it stands: it parses, and holds every
// relay every writer wrote.
func checkAll(t *testing.T, path string, writers int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Relays []relaycheck.Record `json:"relays"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("the store does not parse: %v", err)
	}
	if len(f.Relays) != writers*perWriter {
		t.Fatalf("%d records, want %d", len(f.Relays), writers*perWriter)
	}
	s := &relaycheck.FileStore{Path: path}
	for w := range writers {
		for i := range perWriter {
			if _, ok, err := s.Get(fmt.Sprintf("wss://w%d-r%d.example.com", w, i)); err != nil || !ok {
				t.Fatalf("writer %d relay %d lost: %v", w, i, err)
			}
		}
	}
	if left, _ := filepath.Glob(path + ".*.tmp"); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// TestFileStoreGoroutines: 8 writers, each with its own FileStore value
// on one path (as separate programs would have), plus readers that parse
// the file throughout; no record is lost and the file always parses.
func TestFileStoreGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "relays.json")
	const writers = 8
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers)
	for w := range writers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			errs <- writeShare(&relaycheck.FileStore{Path: path}, w)
		}()
		go func() {
			defer wg.Done()
			s := &relaycheck.FileStore{Path: path}
			for range perWriter {
				if _, _, err := s.Get("wss://w0-r0.example.com"); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	checkAll(t, path, writers)
}

// TestFileStoreProcesses: 6 processes (this test binary, re-run) write
// distinct relays into one file at once; every record is kept.
func TestFileStoreProcesses(t *testing.T) {
	if os.Getenv(childStore) != "" {
		t.Skip("in a child")
	}
	path := filepath.Join(t.TempDir(), "relays.json")
	const writers = 6
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for w := range writers {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFileStoreChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), childStore+"="+path, childIndex+"="+strconv.Itoa(w))
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer %d: %v\n%s", i, err, outs[i])
		}
	}
	checkAll(t, path, writers)
}

// TestFileStoreKeepsUnknownFields: a file of this version with fields
// this one does not know, at the top and in a record, keeps them through
// a Put of another relay; a file of version 0 is refused.
func TestFileStoreKeepsUnknownFields(t *testing.T) {
	path := filepath.Join(t.TempDir(), "relays.json")
	extra := `{"version": 1, "signed_by": "operator", "relays": [{"relay": "wss://a.example.com/", "violated": null, "source": "probe", "detail": "", "probe_version": "relaycheck/9", "html_report": "a.html"}]}`
	if err := os.WriteFile(path, []byte(extra), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &relaycheck.FileStore{Path: path}
	if err := s.Put(relaycheck.Record{Relay: "wss://b.example.com", Source: "probe"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f["version"] != 1.0 || f["signed_by"] != "operator" {
		t.Fatalf("top-level fields lost: %s", data)
	}
	relays, _ := f["relays"].([]any)
	if len(relays) != 2 {
		t.Fatalf("relays: %s", data)
	}
	if a, _ := relays[0].(map[string]any); a["html_report"] != "a.html" || a["probe_version"] != "relaycheck/9" {
		t.Fatalf("a record's fields lost: %s", data)
	}
	if err := os.WriteFile(path, []byte(`{"relays": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(relaycheck.Record{Relay: "wss://c.example.com"}); err == nil {
		t.Fatal("a file of version 0 overwritten")
	}
}
