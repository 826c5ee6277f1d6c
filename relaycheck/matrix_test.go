package relaycheck_test

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/internal/testrelay/peers"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
)

// update rewrites the golden figures under testdata/figures.
var update = flag.Bool("update", false, "rewrite the golden figures under testdata/figures")

// matrixPeer is a column of the conformance matrix: one of the eight
// peers of internal/testrelay/peers at matrixCap, or khatru v0.8.4 over slicestore
// behind the wrapper that makes it conform (NIP-01 answers, the barrier,
// atomic replacement), the one peer the gate can admit.
type matrixPeer struct {
	name   string
	closes bool // closes both races (asserted never to violate them)
	// probe starts the peer for the test and returns its URL and the
	// probe's report (probeOptions(0)).
	probe func(t *testing.T) (string, relaycheck.Report)
}

// matrixCap is every peer's cap in the matrix and the stability runs.
const matrixCap = 10

func matrixPeers() []matrixPeer {
	var out []matrixPeer
	for _, p := range peers.All() {
		probeIt := func(t *testing.T) (string, relaycheck.Report) {
			url, _ := p.Start(t, matrixCap)
			return url, probe(t, url, 0)
		}
		if p.Name == peers.KhatruSlicestore {
			// The peer is khatrutest over slicestore at the cap, whose
			// probe other tests share (probeKhatru).
			probeIt = func(t *testing.T) (string, relaycheck.Report) {
				return probeKhatru(t, khatrutest.Options{Backend: khatrutest.Slicestore, MaxLimit: matrixCap})
			}
		}
		out = append(out, matrixPeer{name: p.Name, probe: probeIt})
	}
	return append(out, matrixPeer{name: "conforming", closes: true, probe: func(t *testing.T) (string, relaycheck.Report) {
		return probeKhatru(t, khatrutest.Options{MaxLimit: matrixCap, Conforming: true})
	}})
}

// sampled are the rows decided by a sequential race (push delivery, the
// barrier, atomic replacement): on a real relay each run is a sample, so
// the note writes "sample" there and the test pins only that the
// conforming peer, which closes every race, is never seen violating them.
var sampled = []relaycheck.Requirement{relaycheck.ReqPush, relaycheck.ReqPushSettled, relaycheck.ReqBarrier, relaycheck.ReqAtomic}

// isSampled reports whether the matrix writes "sample" for req on peer.
func isSampled(_ string, req relaycheck.Requirement) bool {
	return slices.Contains(sampled, req)
}

// TestConformanceMatrix probes every peer once and pins the matrix,
// relay by requirement, in testdata/figures/TestConformanceMatrix.txt:
// every cell but the sampled ones exactly, and the gate's decision per
// peer. The peers run as subprocesses need their tools (`make
// peer-deps`); without them the test skips, unless PEERS_REQUIRE is set.
func TestConformanceMatrix(t *testing.T) {
	shortrun.Skip(t, "probes nine relays")
	t.Parallel()
	ps := matrixPeers()
	// Each peer is probed in a parallel subtest of its own (its own port
	// and data directory): a probe spends most of its time waiting on its
	// relay, so the nine overlap. The matrix is then read in the peers'
	// order, so it does not depend on which probe ended first.
	reps := make([]relaycheck.Report, len(ps))
	urls := make([]string, len(ps))
	skipped := make([]bool, len(ps))
	t.Run("probe", func(t *testing.T) {
		for i, p := range ps {
			t.Run(p.name, func(t *testing.T) {
				t.Parallel()
				// A peer whose tools are absent skips its subtest; the
				// matrix then lacks a column and is not compared.
				defer func() { skipped[i] = t.Skipped() }()
				urls[i], reps[i] = p.probe(t)
				t.Logf("%s:\n%s", p.name, reps[i].Text())
			})
		}
	})
	if t.Failed() {
		t.FailNow()
	}
	for i, p := range ps {
		if skipped[i] {
			t.Skipf("%s was not started, so the matrix is incomplete", p.name)
		}
	}
	cells := map[relaycheck.Requirement][]string{}
	var reqOrder []relaycheck.Requirement
	var admitted []string
	for i, p := range ps {
		url, rep := urls[i], reps[i]
		for _, rv := range rep.Requirements {
			if !slices.Contains(reqOrder, rv.Requirement) {
				reqOrder = append(reqOrder, rv.Requirement)
			}
			cell := string(rv.Verdict)
			if isSampled(p.name, rv.Requirement) {
				t.Logf("%s %s: %s (%d trials, %d exercised)", p.name, rv.Requirement, rv.Verdict, rv.Trials, rv.Exercised)
				if p.closes && rv.Verdict == relaycheck.Violates {
					t.Errorf("%s: %s violated behind the wrapper that closes it:\n%s", p.name, rv.Requirement, rep.Text())
				}
				cell = "sample"
			}
			cells[rv.Requirement] = append(cells[rv.Requirement], cell)
		}
		admitted = append(admitted, gateCell(t, p.name, url, rep, p.closes))
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.name)
	}
	lines := []string{"| requirement | " + strings.Join(names, " | ") + " |"}
	for _, req := range reqOrder {
		lines = append(lines, fmt.Sprintf("| %s | %s |", req, strings.Join(cells[req], " | ")))
	}
	lines = append(lines, "| gate | "+strings.Join(admitted, " | ")+" |")
	t.Logf("matrix:\n%s", strings.Join(lines, "\n"))
	note := figfile.For(t, *update)
	for _, l := range lines {
		note.Line(l)
	}
}

// gateCell is the gate's decision on a probe report as the matrix pins
// it: "refused" when a requirement that is not sampled already refuses
// the relay, otherwise "sample: D", where D is the decision when the
// sampled races conform (a run that sees one violated refuses instead).
func gateCell(t *testing.T, peer, url string, rep relaycheck.Report, closes bool) string {
	t.Helper()
	decide := func(rep relaycheck.Report) string {
		st := relaycheck.NewMemStore()
		if err := st.Put(relaycheck.FromReport(rep)); err != nil {
			t.Fatal(err)
		}
		d, err := relaycheck.Gate(st, url, model.LoadConfig{PubKey: userPK, Limit: 10}, relaycheck.LoadUnproven)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case d.Config.KnownNonConforming:
			return "refused"
		case d.Unproven:
			return "unproven"
		}
		return "admitted"
	}
	if closes {
		return decide(rep)
	}
	forced := rep
	forced.Requirements = slices.Clone(rep.Requirements)
	for i, rv := range forced.Requirements {
		if isSampled(peer, rv.Requirement) {
			forced.Requirements[i].Verdict = relaycheck.Conforms
		}
	}
	if got := decide(forced); got != "refused" {
		return "sample: " + got
	}
	return "refused"
}
