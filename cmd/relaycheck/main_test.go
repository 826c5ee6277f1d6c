package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/khatrutest"
	"github.com/nip-rs/harness/relaycheck"
)

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"-nosuch", "ws://x"}, {"http://x"}, {"ws://a", "ws://b"}, {"-trials", "0", "ws://x"}} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, errb.String())
		}
		if errb.Len() == 0 {
			t.Errorf("%v: no message on stderr", args)
		}
	}
}

func TestUnreachable(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"-quiet", "-timeout", "1s", "ws://127.0.0.1:1"}, &out, &errb); code != exitUnknown {
		t.Fatalf("exit %d, want %d (%s)", code, exitUnknown, errb.String())
	}
}

// TestKhatru: against khatru over slicestore the command exits 1, its
// JSON names R1 and R3, its progress goes to stderr, and -store records
// the evidence; against the NIP-01 store it exits 0.
func TestKhatru(t *testing.T) {
	for _, tc := range []struct {
		opts khatrutest.Options
		code int
	}{{khatrutest.Options{MaxLimit: 10}, exitViolation}, {khatrutest.Options{MaxLimit: 10, Conforming: true}, exitOK}} {
		r, err := khatrutest.Start(tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		store := filepath.Join(t.TempDir(), "relays.json")
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"-json", "-trials", "5", "-store", store, r.URL}, &out, &errb)
		_ = r.Close()
		if code != tc.code {
			t.Fatalf("exit %d, want %d\n%s\n%s", code, tc.code, out.String(), errb.String())
		}
		var rep relaycheck.Report
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("-json output: %v", err)
		}
		if !strings.Contains(errb.String(), "relaycheck: probing barrier") {
			t.Errorf("no progress on stderr: %s", errb.String())
		}
		data, err := os.ReadFile(store)
		if err != nil {
			t.Fatal(err)
		}
		if bad := strings.Contains(string(data), string(relaycheck.ReqPrefix)); bad != (tc.code == exitViolation) {
			t.Errorf("store records R1: %v, want %v\n%s", bad, tc.code == exitViolation, data)
		}
	}
}
