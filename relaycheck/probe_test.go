package relaycheck_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nip-rs/harness/internal/khatrutest"
	"github.com/nip-rs/harness/internal/notefig"
	"github.com/nip-rs/harness/relaycheck"
	"github.com/nip-rs/harness/relaysim"
)

const (
	probeSK   = "00000000000000000000000000000000000000000000000000000000000000a1"
	probeBase = 1_700_000_000
)

func startKhatru(t testing.TB, opts khatrutest.Options) *khatrutest.Relay {
	t.Helper()
	r, err := khatrutest.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Error(err)
		}
	})
	return r
}

func probe(t testing.TB, url string, trials int) relaycheck.Report {
	t.Helper()
	rep, err := relaycheck.Probe(context.Background(), url, relaycheck.Options{SecretKey: probeSK, Base: probeBase, Timeout: 3 * time.Second, BarrierTrials: trials})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func verdicts(rep relaycheck.Report) map[string]relaycheck.Verdict {
	out := map[string]relaycheck.Verdict{}
	for _, c := range rep.Checks {
		out[c.ID] = c.Verdict
	}
	return out
}

// TestProbeKhatru: against khatru v0.8.4 over slicestore the probe names
// the requirements it breaks (R1: ties by descending id and an empty
// pinned window; R3: the pinned window delivers nothing) and the
// replacement that keeps two versions; with the store answering as NIP-01
// says, the load requirements conform. 20 barrier trials each.
func TestProbeKhatru(t *testing.T) {
	before := runtime.NumGoroutine()
	tests := []struct {
		name     string
		opts     khatrutest.Options
		violated []relaycheck.Requirement
		checks   map[string]relaycheck.Verdict
	}{
		{"slicestore", khatrutest.Options{MaxLimit: 10}, []relaycheck.Requirement{relaycheck.ReqPrefix, relaycheck.ReqFloor, relaycheck.ReqReplacement},
			map[string]relaycheck.Verdict{"bounds-pinned": relaycheck.Violates, "bounds-since": relaycheck.Violates, "bounds-until": relaycheck.Conforms,
				"floor-pinned": relaycheck.Violates, "order-ties": relaycheck.Violates, "order-newest": relaycheck.Conforms,
				"cap-stable": relaycheck.Conforms, "push": relaycheck.Conforms, "replace-newer": relaycheck.Conforms,
				"replace-older": relaycheck.Violates, "replace-same-high-first": relaycheck.Conforms, "replace-same-low-first": relaycheck.Violates,
				"tags": relaycheck.Conforms}},
		{"NIP-01 queries", khatrutest.Options{MaxLimit: 10, Conforming: true}, []relaycheck.Requirement{relaycheck.ReqReplacement},
			map[string]relaycheck.Verdict{"bounds-pinned": relaycheck.Conforms, "floor-pinned": relaycheck.Conforms, "order-ties": relaycheck.Conforms}},
	}
	rows := map[relaycheck.Requirement][]relaycheck.Verdict{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := startKhatru(t, tc.opts)
			rep := probe(t, r.URL, 20)
			for _, rv := range rep.Requirements {
				rows[rv.Requirement] = append(rows[rv.Requirement], rv.Verdict)
			}
			if got := rep.Violated(); !slices.Equal(got, tc.violated) {
				t.Errorf("violated %v, want %v\n%s", got, tc.violated, rep.Text())
			}
			got := verdicts(rep)
			for id, want := range tc.checks {
				if got[id] != want {
					t.Errorf("%s: %s, want %s", id, got[id], want)
				}
			}
			t.Log(rep.Text())
		})
	}
	if n := settle(before); n > before {
		t.Errorf("%d goroutines after the probes, %d before", n, before)
	}
	// The note's table, the barrier's row excepted (statistical).
	note := notefig.Section(t, "## Real relays")
	for req, vs := range rows {
		if req != relaycheck.ReqBarrier && len(vs) == 2 {
			notefig.RequireLine(t, note, fmt.Sprintf("| %s | %s | %s |", req, vs[0], vs[1]))
		}
	}
}

func settle(want int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 200 && n > want; i++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// TestProbeKhatruMatchesProfile: the probe's report against khatru over
// slicestore and against relaysim's khatru-slice-like profile at the same
// cap is the same, check for check, evidence included (same key, same
// seconds, so the same events); only the barrier's trial count in which
// the query read the event may differ, since it is statistical. This
// cross-checks the profile against the real relay rather than against
// what the profile claims.
func TestProbeKhatruMatchesProfile(t *testing.T) {
	r := startKhatru(t, khatrutest.Options{MaxLimit: 10})
	real := probe(t, r.URL, 10)
	srv := relaysim.NewServer(relaysim.New(relaysim.KhatruSliceLike(10)))
	simRep, err := relaycheck.Probe(context.Background(), "ws://relaysim", relaycheck.Options{SecretKey: probeSK, Base: probeBase,
		Timeout: 3 * time.Second, BarrierTrials: 10,
		Dial: func(ctx context.Context, url string) (relaycheck.Transport, error) { return srv.Dial(ctx, url) }})
	if err != nil {
		t.Fatal(err)
	}
	real.Relay, simRep.Relay = "", ""
	for _, rep := range []*relaycheck.Report{&real, &simRep} {
		for i := range rep.Checks {
			if rep.Checks[i].ID == "barrier" {
				rep.Checks[i].Detail = ""
			}
		}
	}
	if diff := cmp.Diff(real, simRep); diff != "" {
		t.Fatalf("khatru (-) and relaysim's profile (+) differ:\n%s", diff)
	}
}
