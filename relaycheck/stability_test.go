package relaycheck_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nip-rs/harness/internal/peers"
	"github.com/nip-rs/harness/relaycheck"
)

// StabilityEnv, set to a run count, makes TestProbeStability probe every
// peer that many times (a fresh start each time, the default trial cap).
const stabilityEnv = "PROBE_RUNS"

// TestProbeStability probes each of the eight peers PROBE_RUNS times and
// tabulates, per requirement, how many runs gave each verdict. A verdict
// that differs between runs on the same relay is a defect of the probe:
// a statistical check must either reach its stated bound in every run or
// say unknown in every run. Run by hand (it takes minutes per peer).
func TestProbeStability(t *testing.T) {
	v := os.Getenv(stabilityEnv)
	if v == "" {
		t.Skip("set " + stabilityEnv + " to probe every peer that many times")
	}
	runs, err := strconv.Atoi(v)
	if err != nil || runs < 1 {
		t.Fatalf("%s=%q: want a positive integer", stabilityEnv, v)
	}
	only := os.Getenv("PROBE_PEERS")
	var lines []string
	for _, p := range peers.All() {
		if only != "" && !slices.Contains(strings.Split(only, ","), p.Name) {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			counts := map[relaycheck.Requirement]map[relaycheck.Verdict]int{}
			var order []relaycheck.Requirement
			for i := range runs {
				url, stop := p.Start(t, matrixCap)
				ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
				start := time.Now()
				rep, err := relaycheck.Probe(ctx, url, relaycheck.Options{})
				cancel()
				stop()
				if err != nil {
					t.Fatal(err)
				}
				var row []string
				for _, rv := range rep.Requirements {
					if counts[rv.Requirement] == nil {
						counts[rv.Requirement] = map[relaycheck.Verdict]int{}
						order = append(order, rv.Requirement)
					}
					counts[rv.Requirement][rv.Verdict]++
					if rv.Requirement == relaycheck.ReqBarrier || rv.Requirement == relaycheck.ReqAtomic {
						row = append(row, fmt.Sprintf("%s=%s %d/%d <=%.4f", rv.Requirement, rv.Verdict, rv.Exercised, rv.Trials, rv.RateBound))
					}
				}
				t.Logf("run %d (%.1f s): %s", i+1, time.Since(start).Seconds(), strings.Join(row, "; "))
				for _, c := range rep.Checks {
					if c.Requirement == relaycheck.ReqBarrier || c.Requirement == relaycheck.ReqAtomic || c.Verdict != relaycheck.Conforms {
						t.Logf("  %s %s: %s", c.ID, c.Verdict, c.Detail)
					}
				}
			}
			for _, req := range order {
				var cell []string
				for _, vd := range []relaycheck.Verdict{relaycheck.Conforms, relaycheck.Violates, relaycheck.Unknown} {
					if n := counts[req][vd]; n > 0 {
						cell = append(cell, fmt.Sprintf("%s %d", vd, n))
					}
				}
				line := fmt.Sprintf("%s | %s | %s", p.Name, req, strings.Join(cell, ", "))
				lines = append(lines, line)
				if len(cell) > 1 {
					t.Errorf("unstable: %s", line)
				}
			}
		})
	}
	t.Logf("verdict counts over %d runs:\n%s", runs, strings.Join(lines, "\n"))
}
