package relaycheck_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/internal/testrelay/probeshare"
	"github.com/nip-rs/harness/relaycheck"
)

// probeOptions are the options probe runs with: the fixed key and base,
// trials capping each sequential check (0: the default).
func probeOptions(trials int) relaycheck.Options {
	return relaycheck.Options{SecretKey: probeSK, Base: probeBase, Timeout: 3 * time.Second, BarrierTrials: trials}
}

// khatruProbes holds one probe report per khatru configuration.
// TestProbeKhatru, TestProbeKhatruMatchesProfile, TestPatchedKhatruAdmitted
// and the conformance matrix each probe a fresh khatru over slicestore at
// cap 10, bare and behind the conforming wrapper, with the same options
// (probeOptions(0)): the same probe, and most of what each test costs. The
// first test to ask probes the relay it started; the others read that
// report, re-keyed to the URL of their own start. A test that asks again
// (-count) probes afresh (internal/testrelay/probeshare).
var khatruProbes probeshare.Cache[relaycheck.Report]

// probeKhatru starts khatru with opts for the test and returns its URL
// and the probe report of a fresh start of that configuration, each
// slice of it the caller's own.
func probeKhatru(t *testing.T, opts khatrutest.Options) (string, relaycheck.Report) {
	t.Helper()
	if opts.RejectEvent != nil || opts.Addr != "" || opts.Dir != "" {
		t.Fatal("probeKhatru shares probes of fresh relays configured by backend, cap and wrapper only")
	}
	r := startKhatru(t, opts)
	backend := opts.Backend
	if backend == "" {
		backend = khatrutest.Slicestore
	}
	key := fmt.Sprintf("%s cap %d conforming %t", backend, opts.MaxLimit, opts.Conforming)
	rep, err := khatruProbes.Get(t, key, func() (relaycheck.Report, error) {
		return relaycheck.Probe(context.Background(), r.URL, probeOptions(0))
	})
	if err != nil {
		t.Fatalf("probe of khatru (%s): %v", key, err)
	}
	rep.Relay = r.URL
	rep.Requirements = slices.Clone(rep.Requirements)
	rep.Checks = slices.Clone(rep.Checks)
	return r.URL, rep
}
