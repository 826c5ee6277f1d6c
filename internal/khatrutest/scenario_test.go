package khatrutest_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/nip-rs/harness/internal/khatrutest"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
)

// Sizes of the scenario runs. `make peers` sets PEERS_LOADS for the
// longer run; -short halves the default.
const (
	peerCap       = 8  // every peer's MaxLimit: badger and lmdb answer n=10 with 8/4 = 2, the floor
	scenarioLimit = 10 // each load's n
)

func scenarioLoads(t *testing.T) int {
	if v := os.Getenv("PEERS_LOADS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("PEERS_LOADS=%q: want a positive integer", v)
		}
		return n
	}
	if testing.Short() {
		return 5
	}
	return 10
}

// userKey is a fixed secret key of its own for each run, so that no run
// meets another's events on a relay.
func userKey(parts ...string) string {
	return fmt.Sprintf("%x", sha256.Sum256([]byte(fmt.Sprint(parts))))
}

// runScenarios runs every scenario against one fresh peer of the backend
// and returns the results in Scenarios() order.
func runScenarios(t *testing.T, backend string, loads int, gate func(r *khatrutest.Relay) func(string) (model.LoadConfig, error)) []khatrutest.ScenarioResult {
	t.Helper()
	return runScenariosOn(t, khatrutest.Options{Backend: backend, MaxLimit: peerCap}, loads, gate)
}

// runScenariosOn is runScenarios on a peer started with opts.
func runScenariosOn(t *testing.T, opts khatrutest.Options, loads int, gate func(r *khatrutest.Relay) func(string) (model.LoadConfig, error)) []khatrutest.ScenarioResult {
	t.Helper()
	backend := opts.Backend
	if opts.Conforming {
		backend += "-conforming"
	}
	r := startPeer(t, opts)
	var cfgFn func(string) (model.LoadConfig, error)
	if gate != nil {
		cfgFn = gate(r)
	}
	var out []khatrutest.ScenarioResult
	for _, sc := range khatrutest.Scenarios() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		res, err := khatrutest.RunScenario(ctx, sc, khatrutest.ScenarioConfig{
			URL: r.URL, SecretKey: userKey(backend, string(sc), fmt.Sprint(gate != nil)), Loads: loads,
			Limit: scenarioLimit, Seed: 1, Config: cfgFn,
		})
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", sc, err)
		}
		if res.Loads != loads || res.Complete+res.CannotProve+res.Failed != loads {
			t.Fatalf("%s: %d loads counted (%d+%d+%d), want %d", sc, res.Loads, res.Complete, res.CannotProve, res.Failed, loads)
		}
		out = append(out, res)
	}
	return out
}

// TestScenariosOnPeers measures ungated loads in every dynamic scenario
// on every peer: the false completes are logged, not asserted, since
// whether a replacement lands inside a load's queries is timing. The run
// itself must count every load.
func TestScenariosOnPeers(t *testing.T) {
	loads := scenarioLoads(t)
	for _, backend := range khatrutest.Backends() {
		t.Run(backend, func(t *testing.T) {
			for _, res := range runScenarios(t, backend, loads, nil) {
				t.Logf("ungated %s %s", backend, res)
			}
		})
	}
}

// TestGatedLoadsOnPeers: a client that probes the relay, records the
// report and loads through the evidence gate (an unprobed or unproven
// relay loads with Unproven set) never gets a complete verdict with a
// coordinate missing or stale, in any dynamic scenario, on any peer.
//
// Beside the four stores as they are, the conforming slicestore peer
// (NIP-01 answers, the delivery barrier and atomic replacement added in
// front of khatru) is the relay the gate can admit: on it gated loads may
// say complete, and must be right. Whether the probe admits it is a
// sample of the sequential checks, so it is logged, not asserted.
func TestGatedLoadsOnPeers(t *testing.T) {
	loads := scenarioLoads(t)
	peers := []khatrutest.Options{}
	for _, backend := range khatrutest.Backends() {
		peers = append(peers, khatrutest.Options{Backend: backend, MaxLimit: peerCap})
	}
	peers = append(peers, khatrutest.Options{Backend: khatrutest.Slicestore, MaxLimit: peerCap, Conforming: true})
	for _, opts := range peers {
		backend := opts.Backend
		if opts.Conforming {
			backend += "-conforming"
		}
		t.Run(backend, func(t *testing.T) {
			results := runScenariosOn(t, opts, loads, clientGate(t))
			for _, res := range results {
				t.Logf("gated %s %s", backend, res)
				if res.FalseCompletes != 0 {
					t.Errorf("%s on %s: %d of %d gated loads complete with a coordinate missing or stale (%s)",
						res.Scenario, backend, res.FalseCompletes, res.Loads, res.FirstFalse)
				}
			}
		})
	}
}

// clientGate probes the relay once, stores the report and returns the
// configuration a client loads with.
func clientGate(t *testing.T) func(r *khatrutest.Relay) func(string) (model.LoadConfig, error) {
	return func(r *khatrutest.Relay) func(string) (model.LoadConfig, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		rep, err := relaycheck.Probe(ctx, r.URL, relaycheck.Options{})
		if err != nil {
			t.Fatalf("probe %s: %v", r.Backend, err)
		}
		t.Logf("probe %s: verdict %s, violated %v", r.Backend, rep.Verdict(), rep.Violated())
		st := relaycheck.NewMemStore()
		if err := st.Put(relaycheck.FromReport(rep)); err != nil {
			t.Fatal(err)
		}
		return func(url string) (model.LoadConfig, error) {
			d, err := relaycheck.Gate(st, url, model.LoadConfig{Limit: scenarioLimit}, relaycheck.LoadUnproven)
			if err != nil {
				return model.LoadConfig{}, err
			}
			return d.Config, nil
		}
	}
}
