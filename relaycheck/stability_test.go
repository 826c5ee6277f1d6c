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

	"github.com/nip-rs/harness/internal/testrelay/peers"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
)

// StabilityEnv, set to a run count, makes TestProbeStability probe every
// peer that many times (a fresh start each time, the default trial cap).
const stabilityEnv = "PROBE_RUNS"

// TestProbeStability probes each of the eight peers PROBE_RUNS times and
// tabulates, per requirement, how many runs gave each verdict, and the
// gate's decision for a client loading with two passes and a gap of
// twice PushSettle. A verdict that differs between runs on the same
// relay is a defect of the probe, with one exception the policy for
// statistical evidence states (NOTE.md, "The policy for races"):
// the sampled races (R4 right after the answer, R5, R6), whose seen
// violation is a proof and whose conformance is a bound, flip on a relay
// whose race rate lies near the bound, and no finite sample avoids that;
// the two-pass gate rests on none of them, so its decision must not
// flip. Run by hand (it takes minutes per peer).
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
			gates := map[string]int{}
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
				gates[twoPassGate(t, url, rep)]++
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
				switch {
				case len(cell) > 1 && slices.Contains(sampledRaces, req):
					t.Logf("sampled race, flips: %s", line)
				case len(cell) > 1:
					t.Errorf("unstable: %s", line)
				}
			}
			var decisions []string
			for d, n := range gates {
				decisions = append(decisions, fmt.Sprintf("%s %d", d, n))
			}
			slices.Sort(decisions)
			line := fmt.Sprintf("%s | gate, two passes, %s gap | %s", p.Name, 2*relaycheck.PushSettle, strings.Join(decisions, "; "))
			lines = append(lines, line)
			if len(decisions) > 1 {
				t.Errorf("unstable: %s", line)
			}
		})
	}
	t.Logf("verdict counts over %d runs:\n%s", runs, strings.Join(lines, "\n"))
}

// sampledRaces are the race checks whose verdict may flip between runs
// on a relay whose race rate lies near the stated bound.
var sampledRaces = []relaycheck.Requirement{relaycheck.ReqPush, relaycheck.ReqBarrier, relaycheck.ReqAtomic}

// twoPassGate is the gate's decision on a report for a client loading
// with two passes and a gap of twice PushSettle: "admitted", "unproven:
// why" or "refused: why".
func twoPassGate(t *testing.T, url string, rep relaycheck.Report) string {
	t.Helper()
	st := relaycheck.NewMemStore()
	if err := st.Put(relaycheck.FromReport(rep)); err != nil {
		t.Fatal(err)
	}
	d, err := relaycheck.GateWith(st, url, model.LoadConfig{PubKey: userPK, Limit: 10},
		relaycheck.GateOptions{Passes: 2, PassGap: 2 * relaycheck.PushSettle})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case d.Config.KnownNonConforming:
		return "refused: " + fmt.Sprint(d.Violated)
	case d.Unproven:
		return "unproven: " + d.Reason
	}
	return "admitted"
}
