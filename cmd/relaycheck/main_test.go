package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/khatrutest"
	"github.com/nip-rs/harness/relaycheck"
)

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"-nosuch", "ws://x"}, {"http://x"}, {"ws://a", "ws://b"}, {"-trials", "0", "ws://x"},
		{"-confidence", "1", "ws://x"}, {"-confidence", "0", "ws://x"}, {"-max-rate", "-0.1", "ws://x"}, {"-max-rate", "1.5", "ws://x"}} {
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

// TestKhatru: against khatru over slicestore the command exits 1 (R1 and
// R3 are violated deterministically), its JSON names them, its progress
// goes to stderr, and -store records the evidence; against the NIP-01
// store every requirement decided by one exchange conforms. The
// sequential checks (barrier, atomic replacement) are samples on a real
// relay: their verdicts are not asserted, but the exit code must be the
// one the report's verdict gives, and the barrier, which the NIP-01
// wrapper closes, must never be violated there.
func TestKhatru(t *testing.T) {
	deterministic := []relaycheck.Requirement{relaycheck.ReqPrefix, relaycheck.ReqCap, relaycheck.ReqFloor, relaycheck.ReqPush, relaycheck.ReqFresh, relaycheck.ReqSubs}
	for _, tc := range []struct {
		opts     khatrutest.Options
		violated []relaycheck.Requirement
	}{
		{khatrutest.Options{MaxLimit: 10}, []relaycheck.Requirement{relaycheck.ReqPrefix, relaycheck.ReqFloor}},
		{khatrutest.Options{MaxLimit: 10, Conforming: true}, nil},
	} {
		r, err := khatrutest.Start(tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		store := filepath.Join(t.TempDir(), "relays.json")
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"-json", "-timeout", "5s", "-store", store, r.URL}, &out, &errb)
		_ = r.Close()
		var rep relaycheck.Report
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("-json output: %v\n%s", err, errb.String())
		}
		want := map[relaycheck.Verdict]int{relaycheck.Conforms: exitOK, relaycheck.Violates: exitViolation, relaycheck.Unknown: exitUnknown}[rep.Verdict()]
		if code != want {
			t.Fatalf("exit %d, want %d for a report that %s\n%s", code, want, rep.Verdict(), errb.String())
		}
		if len(tc.violated) > 0 && code != exitViolation {
			t.Fatalf("exit %d, want %d", code, exitViolation)
		}
		for _, rv := range rep.Requirements {
			if !slices.Contains(deterministic, rv.Requirement) {
				continue
			}
			if bad := slices.Contains(tc.violated, rv.Requirement); (rv.Verdict == relaycheck.Violates) != bad || (!bad && rv.Verdict != relaycheck.Conforms) {
				t.Errorf("%s: %s, violation expected: %v", rv.Requirement, rv.Verdict, bad)
			}
			if rv.Trials == 0 {
				t.Errorf("%s: no trials recorded", rv.Requirement)
			}
		}
		if tc.opts.Conforming {
			for _, rv := range rep.Requirements {
				if rv.Requirement == relaycheck.ReqBarrier && rv.Verdict == relaycheck.Violates {
					t.Errorf("the barrier violated behind the wrapper that closes it")
				}
			}
		}
		if rep.ProbeVersion != relaycheck.ProbeVersion {
			t.Errorf("probe version %q", rep.ProbeVersion)
		}
		if !strings.Contains(errb.String(), "relaycheck: probing barrier") {
			t.Errorf("no progress on stderr: %s", errb.String())
		}
		st := &relaycheck.FileStore{Path: store}
		rec, ok, err := st.Get(r.URL)
		if err != nil || !ok {
			t.Fatalf("store: %v %v", ok, err)
		}
		if got := slices.Contains(rec.Violated, relaycheck.ReqPrefix); got != (len(tc.violated) > 0) {
			t.Errorf("store records R1: %v, want %v: %+v", got, len(tc.violated) > 0, rec)
		}
		if rec.ProbeVersion != relaycheck.ProbeVersion || rec.Date.IsZero() || len(rec.Verdicts) == 0 || rec.SubCapacity != 64 {
			t.Errorf("record lacks version, date, verdicts or capacity: %+v", rec)
		}
	}
}

// TestText: without -json the output is the summary table, then the
// checks.
func TestText(t *testing.T) {
	r, err := khatrutest.Start(khatrutest.Options{MaxLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"-quiet", "-trials", "50", "-confidence", "0.9", "-max-rate", "0.2", r.URL}, &out, &errb); code != exitViolation {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"requirement", "trials/bound", "R8 subscription capacity", "order-ties [R1 newest-first prefix] violates"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if errb.Len() != 0 {
		t.Errorf("-quiet wrote to stderr: %s", errb.String())
	}
}
