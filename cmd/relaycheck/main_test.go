package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/relaycheck"
)

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"-nosuch", "ws://x"}, {"http://x"}, {"ws://a", "ws://b"}, {"-trials", "0", "ws://x"},
		{"-confidence", "1", "ws://x"}, {"-confidence", "0", "ws://x"}, {"-max-rate", "-0.1", "ws://x"}, {"-max-rate", "1.5", "ws://x"},
		{"ws://[::1"}, {"ws://exa mple.com"}, {"ws://"}, {"wss://:443"}, {"ws://u:p@host"}, {"ws://host:99999"}, {"ws://host/#frag"},
		{"-html", "/nonexistent-dir/page.html", "ws://127.0.0.1:1"}, {"-store", "/nonexistent-dir/x/relays.json/", "ws://127.0.0.1:1"}} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, cli.ExitUsage, errb.String())
		}
		if errb.Len() == 0 {
			t.Errorf("%v: no message on stderr", args)
		}
	}
}

// TestContract: -h prints what the command does, examples and the exit
// codes on stdout and exits 0; -version and -list exit 0; nothing else
// runs.
func TestContract(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-h"}, []string{"relaycheck: probes a relay", "examples", "exit codes", "-max-rate"}},
		{[]string{"-help"}, []string{"R6 atomic replacement"}},
		{[]string{"-version"}, []string{"go1."}},
		{[]string{"-list"}, []string{"R8 subscription capacity (gated)", "collateral-d", "relay deletes only what is replaced (reported)"}},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), tc.args, &out, &errb); code != cli.ExitOK {
			t.Errorf("%v: exit %d, want 0 (%s)", tc.args, code, errb.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: stdout lacks %q:\n%s", tc.args, w, out.String())
			}
		}
	}
}

// TestUnreachable: a relay that cannot be reached is exit 3, and -json
// still prints a JSON object saying so.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"-quiet", "-timeout", "1s", "ws://127.0.0.1:1"}, &out, &errb); code != cli.ExitUnknown {
		t.Fatalf("exit %d, want %d (%s)", code, cli.ExitUnknown, errb.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"-quiet", "-json", "-timeout", "1s", "ws://127.0.0.1:1"}, &out, &errb); code != cli.ExitUnknown {
		t.Fatalf("-json: exit %d, want %d", code, cli.ExitUnknown)
	}
	var got struct{ Relay, Verdict, Error string }
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Verdict != "unknown" || got.Error == "" || got.Relay != "ws://127.0.0.1:1" {
		t.Fatalf("-json on a failed dial: %v %+v\n%s", err, got, out.String())
	}
}

// TestInterrupted: a run whose context ends (SIGINT) prints the report so
// far, records nothing and exits 3.
func TestInterrupted(t *testing.T) {
	// The tests that probe a relay start one of their own (a port of its
	// own, a store in memory) and mostly wait on it, so they overlap.
	t.Parallel()
	r, err := khatrutest.Start(khatrutest.Options{MaxLimit: 10, Conforming: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	store := filepath.Join(t.TempDir(), "relays.json")
	var out, errb bytes.Buffer
	progress := &cancelOn{w: &errb, on: "probing push", cancel: cancel}
	code := run(ctx, []string{"-store", store, r.URL}, &out, progress)
	if code != cli.ExitUnknown {
		t.Fatalf("exit %d, want %d\n%s", code, cli.ExitUnknown, errb.String())
	}
	if !strings.Contains(errb.String(), "interrupted") || !strings.Contains(out.String(), "cap-stable") {
		t.Errorf("no report so far or no word of the interruption:\n%s\n%s", out.String(), errb.String())
	}
	if _, err := os.Stat(store); err == nil {
		t.Error("an interrupted run recorded evidence")
	}
}

// cancelOn passes writes to w and cancels once one contains on.
type cancelOn struct {
	w      *bytes.Buffer
	on     string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(c.on)) {
		c.cancel()
	}
	return c.w.Write(p)
}

// lighterRule are the flags of TestText's stopping rule for the race
// checks (11 exercised trials, at most 50): the quick gate probes with
// them where a test asserts nothing that rests on the default rule's
// bound, which takes hundreds of paced trials a check.
var lighterRule = []string{"-trials", "50", "-confidence", "0.9", "-max-rate", "0.2"}

// quickRule is lighterRule under -short, nothing otherwise.
func quickRule(t *testing.T) []string {
	if shortrun.On(t, "the race checks at TestText's lighter stopping rule, not the default one") {
		return slices.Clone(lighterRule)
	}
	return nil
}

// TestHTML: -html writes one self-contained page with the verdict, the
// gate's decision, every requirement and every check, and no script or
// outside resource.
func TestHTML(t *testing.T) {
	t.Parallel()
	r, err := khatrutest.Start(khatrutest.Options{MaxLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	page := filepath.Join(t.TempDir(), "report.html")
	var out, errb bytes.Buffer
	args := append(quickRule(t), "-quiet", "-html", page, r.URL)
	if code := run(context.Background(), args, &out, &errb); code != cli.ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", code, cli.ExitFailed, errb.String())
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(data)
	for _, w := range []string{`id="verdict">violates`, `Evidence gate, a client loading with one pass: <span class="verdict refused">refused`, `Evidence gate, a client loading with two passes and a gap: <span class="verdict refused">refused`, `id="order-ties"`, "R8 subscription capacity", "bounds-pinned"} {
		if !strings.Contains(html, w) {
			t.Errorf("page lacks %q", w)
		}
	}
	for _, bad := range []string{"<script", "src=", "http://", "https://"} {
		if strings.Contains(html, bad) {
			t.Errorf("page is not self-contained: %q", bad)
		}
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
	t.Parallel()
	deterministic := []relaycheck.Requirement{relaycheck.ReqPrefix, relaycheck.ReqCap, relaycheck.ReqFloor, relaycheck.ReqPush, relaycheck.ReqFresh, relaycheck.ReqSubs}
	for _, tc := range []struct {
		opts     khatrutest.Options
		violated []relaycheck.Requirement
	}{
		{khatrutest.Options{MaxLimit: 10}, []relaycheck.Requirement{relaycheck.ReqPrefix, relaycheck.ReqFloor}},
		{khatrutest.Options{MaxLimit: 10, Conforming: true}, nil},
	} {
		t.Run(fmt.Sprintf("conforming=%t", tc.opts.Conforming), func(t *testing.T) {
			t.Parallel()
			khatruRun(t, tc.opts, tc.violated, deterministic)
		})
	}
}

// khatruRun is one relay of TestKhatru.
func khatruRun(t *testing.T, opts khatrutest.Options, violated, deterministic []relaycheck.Requirement) {
	r, err := khatrutest.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(t.TempDir(), "relays.json")
	var out, errb bytes.Buffer
	code := run(context.Background(), append(quickRule(t), "-json", "-timeout", "5s", "-store", store, r.URL), &out, &errb)
	_ = r.Close()
	var rep relaycheck.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("-json output: %v\n%s", err, errb.String())
	}
	want := map[relaycheck.Verdict]int{relaycheck.Conforms: cli.ExitOK, relaycheck.Violates: cli.ExitFailed, relaycheck.Unknown: cli.ExitUnknown}[rep.Verdict()]
	if code != want {
		t.Fatalf("exit %d, want %d for a report that %s\n%s", code, want, rep.Verdict(), errb.String())
	}
	if len(violated) > 0 && code != cli.ExitFailed {
		t.Fatalf("exit %d, want %d", code, cli.ExitFailed)
	}
	for _, rv := range rep.Requirements {
		if !slices.Contains(deterministic, rv.Requirement) {
			continue
		}
		if bad := slices.Contains(violated, rv.Requirement); (rv.Verdict == relaycheck.Violates) != bad || (!bad && rv.Verdict != relaycheck.Conforms) {
			t.Errorf("%s: %s, violation expected: %v", rv.Requirement, rv.Verdict, bad)
		}
		if rv.Trials == 0 {
			t.Errorf("%s: no trials recorded", rv.Requirement)
		}
	}
	if opts.Conforming {
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
	if got := slices.Contains(rec.Violated, relaycheck.ReqPrefix); got != (len(violated) > 0) {
		t.Errorf("store records R1: %v, want %v: %+v", got, len(violated) > 0, rec)
	}
	if rec.ProbeVersion != relaycheck.ProbeVersion || rec.Date.IsZero() || len(rec.Verdicts) == 0 || rec.SubCapacity != 64 {
		t.Errorf("record lacks version, date, verdicts or capacity: %+v", rec)
	}
}

// TestText: without -json the output is the summary table, then the
// checks.
func TestText(t *testing.T) {
	t.Parallel()
	r, err := khatrutest.Start(khatrutest.Options{MaxLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"-quiet", "-trials", "50", "-confidence", "0.9", "-max-rate", "0.2", r.URL}, &out, &errb); code != cli.ExitFailed {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"requirement", "trials/bound", "R8 subscription capacity", "order-ties [R1 ties by lowest id] violates"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if errb.Len() != 0 {
		t.Errorf("-quiet wrote to stderr: %s", errb.String())
	}
}

// TestReadmeLocalRelay: the probe line of the README's "Try relaycheck on
// a local relay" section, its URL placeholder replaced by the address of
// the relay localrelay serves by default (khatru over badger), runs and
// exits 1 as the section says: khatru v0.8.4 keeps an older version of an
// address that arrives second, so NIP-01 replacement is violated on every
// run, whatever the races give.
func TestReadmeLocalRelay(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n### Try relaycheck on a local relay\n")
	if !ok {
		t.Fatal("README.md has no section \"Try relaycheck on a local relay\"")
	}
	if i := strings.Index(sec, "\n#"); i >= 0 {
		sec = sec[:i]
	}
	var args []string
	for _, l := range strings.Split(sec, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "go run ./cmd/relaycheck "); ok {
			rest, _, _ = strings.Cut(rest, "#")
			args = strings.Fields(rest)
		}
	}
	const placeholder = "ws://127.0.0.1:PORT"
	if len(args) == 0 || args[len(args)-1] != placeholder {
		t.Fatalf("the section's relaycheck line ends in %v, want the URL %s", args, placeholder)
	}
	r, err := khatrutest.Start(khatrutest.Options{Backend: khatrutest.Badger})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	args[len(args)-1] = r.URL
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, &out, &errb); code != cli.ExitFailed {
		t.Fatalf("relaycheck %v: exit %d, want %d\n%s\n%s", args, code, cli.ExitFailed, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "violates") || !strings.Contains(out.String(), "replace-older [NIP-01 addressable replacement] violates") {
		t.Fatalf("the report does not show the replacement violation:\n%s", out.String())
	}
}
