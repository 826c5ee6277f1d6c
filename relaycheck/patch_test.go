package relaycheck_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
)

// TestPatchedKhatruAdmitted: khatru v0.8.4 over slicestore, refused as
// deployed, is admitted once patched (khatrutest.Options.Conforming: the
// store answers by NIP-01, pushes an event before a query can read it,
// and keeps a replaced version answered until its replacement is saved).
// The probe's verdict before and after, and the remedy the report gives
// for the races points to that patch.
func TestPatchedKhatruAdmitted(t *testing.T) {
	shortrun.Skip(t, "probes two relays")
	t.Parallel()
	decide := func(rep relaycheck.Report, url string) relaycheck.Decision {
		st := relaycheck.NewMemStore()
		if err := st.Put(relaycheck.FromReport(rep)); err != nil {
			t.Fatal(err)
		}
		d, err := relaycheck.Gate(st, url, model.LoadConfig{PubKey: userPK, Limit: 10}, relaycheck.LoadUnproven)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	beforeURL, rep := probeKhatru(t, khatrutest.Options{MaxLimit: matrixCap})
	d := decide(rep, beforeURL)
	if !d.Config.KnownNonConforming || rep.Verdict() != relaycheck.Violates {
		t.Fatalf("unpatched khatru: verdict %s, gate %+v; want violates and refused:\n%s", rep.Verdict(), d, rep.Text())
	}
	// The exclusive since (R1) and the empty pinned window (R3) are the
	// store's, decided by one exchange each: violated in every run.
	for _, req := range []relaycheck.Requirement{relaycheck.ReqPrefix, relaycheck.ReqFloor} {
		if !slices.Contains(rep.Violated(), req) {
			t.Errorf("unpatched khatru: %s not violated:\n%s", req, rep.Text())
		}
	}
	remedy := rep.RemedyText()
	for _, req := range rep.Violated() {
		if !strings.Contains(remedy, string(req)+": "+relaycheck.Remedies[req]) {
			t.Errorf("remedy text lacks %s:\n%s", req, remedy)
		}
	}
	for _, req := range []relaycheck.Requirement{relaycheck.ReqBarrier, relaycheck.ReqAtomic} {
		if !strings.Contains(relaycheck.Remedies[req], "khatrutest Options.Conforming") {
			t.Errorf("the remedy for %s does not point to the patch: %s", req, relaycheck.Remedies[req])
		}
	}
	t.Logf("before:\n%s", rep.Text())

	afterURL, rep := probeKhatru(t, khatrutest.Options{MaxLimit: matrixCap, Conforming: true})
	d = decide(rep, afterURL)
	if d.Config.KnownNonConforming || d.Unproven || rep.Verdict() != relaycheck.Conforms {
		t.Fatalf("patched khatru: verdict %s, gate %+v; want conforms and admitted:\n%s", rep.Verdict(), d, rep.Text())
	}
	if rem := rep.RemedyText(); rem != "" {
		t.Errorf("patched khatru still has remedies:\n%s", rem)
	}
	if !strings.Contains(rep.Text(), "barrier  [R5 delivery barrier] conforms") || !strings.Contains(rep.Text(), "exercised, rate <= ") {
		t.Errorf("the report does not print the race checks' bounds:\n%s", rep.Text())
	}
	t.Logf("after:\n%s", rep.Text())
}
