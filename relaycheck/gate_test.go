package relaycheck_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
	"github.com/nip-rs/harness/relaysim"
)

const userSK = "00000000000000000000000000000000000000000000000000000000000000b2"

var userPK = func() string { pk, _ := nostr.GetPublicKey(userSK); return pk }()

// coordinate is a signed read-state event of the user.
func coordinate(slot int, at nostr.Timestamp) *nostr.Event {
	ev := &nostr.Event{CreatedAt: at, Kind: 30078, Content: fmt.Sprintf("blob %d", slot),
		Tags: nostr.Tags{{"d", fmt.Sprintf("read-state:%032x", slot)}, {"t", "read-state"}}}
	_ = ev.Sign(userSK)
	return ev
}

// publishAll writes events over one connection, each acknowledged.
func publishAll(t testing.TB, url string, evs ...*nostr.Event) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := relaycheck.Dial(ctx, relaycheck.DialWebsocket, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, ev := range evs {
		ok, why, err := c.Publish(ctx, ev, nil)
		if err != nil || !ok {
			t.Fatalf("publish %s: %v %s", ev.ID, err, why)
		}
	}
}

// driveLoad runs one full-state load against url over a websocket.
func driveLoad(t testing.TB, url string, cfg model.LoadConfig) model.LoadResult {
	t.Helper()
	l, err := model.NewLoad(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := nostr.NewConnection(ctx, url, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	return model.Drive(ctx, conn, l)
}

// cutHistory: two coordinates share the newest second and two the one
// below; a cap of 3 cuts inside the older second, and only the pinned
// window at it can find the fourth coordinate.
func cutHistory() []*nostr.Event {
	return []*nostr.Event{coordinate(1, 1_700_000_100), coordinate(2, 1_700_000_100), coordinate(3, 1_700_000_090), coordinate(4, 1_700_000_090)}
}

// TestGateKhatru: against khatru over slicestore (cap 3) the ungated load
// reports complete with a coordinate missing (the pinned window is empty
// because since is exclusive); with the probe's evidence in the store the
// gate makes every load cannot-prove-complete and the gated actions
// refuse; with the store answering as NIP-01 says the probe finds no
// violation of the load requirements and the load completes with every
// coordinate.
func TestGateKhatru(t *testing.T) {
	t.Parallel()
	history := cutHistory()
	cfg := model.LoadConfig{PubKey: userPK, Limit: 10}
	t.Run("slicestore", func(t *testing.T) {
		t.Parallel()
		r := startKhatru(t, khatrutest.Options{MaxLimit: 3})
		publishAll(t, r.URL, history...)
		ungated := driveLoad(t, r.URL, cfg)
		if !ungated.Complete() || len(ungated.Events) != len(history)-1 {
			t.Fatalf("ungated: %s with %d of %d coordinates; khatru's exclusive since was expected to hide one", ungated.Verdict, len(ungated.Events), len(history))
		}
		// The gate refuses on R1 and R3, each decided by one exchange;
		// the race checks' verdicts change nothing here, so the quick
		// gate caps their trials.
		trials := 0
		if shortrun.On(t, "the probe's race checks capped at 20 trials, not run to the default stopping rule") {
			trials = 20
		}
		store := relaycheck.NewMemStore()
		if err := store.Put(relaycheck.FromReport(probe(t, r.URL, trials))); err != nil {
			t.Fatal(err)
		}
		d, err := relaycheck.Gate(store, r.URL, cfg, relaycheck.LoadUnproven)
		if err != nil {
			t.Fatal(err)
		}
		res := driveLoad(t, r.URL, d.Config)
		if res.Verdict != model.CannotProveComplete || res.Reason != model.ReasonNonConforming {
			t.Fatalf("gated: %s/%s (%s)", res.Verdict, res.Reason, res.Detail)
		}
		rep := model.NewReplica("phone")
		rep.ApplyLoad(res.Verdict)
		if _, err := rep.PublishCanonical(false); !errors.Is(err, model.ErrLoadIncomplete) {
			t.Fatalf("canonical publish after a gated load: %v", err)
		}
		for _, a := range []model.GatedAction{model.ActDeleteCoordinate, model.ActReportMarkRead} {
			if err := rep.Permit(a); !errors.Is(err, model.ErrLoadIncomplete) {
				t.Fatalf("%s after a gated load: %v", a, err)
			}
		}
	})
	t.Run("NIP-01 queries", func(t *testing.T) {
		t.Parallel()
		r := startKhatru(t, khatrutest.Options{MaxLimit: 3, Conforming: true})
		publishAll(t, r.URL, history...)
		// Unprobed: the load runs, collects every coordinate and says
		// unproven, never complete.
		d, err := relaycheck.Gate(relaycheck.NewMemStore(), r.URL, cfg, relaycheck.LoadUnproven)
		if err != nil || !d.Unproven || d.Config.Unproven == "" || d.Refused {
			t.Fatalf("unprobed relay: %+v %v", d, err)
		}
		res := driveLoad(t, r.URL, d.Config)
		if res.Verdict != model.CannotProveComplete || res.Reason != model.ReasonUnproven || len(res.Events) != len(history) {
			t.Fatalf("unprobed: %s/%s (%s) with %d of %d coordinates", res.Verdict, res.Reason, res.Detail, len(res.Events), len(history))
		}
		if shortrun.On(t, "the unprobed load only; the probed one follows a probe at the default stopping rule") {
			return
		}
		// Probed: the wrapper makes R1-R5 and R7-R8 hold; atomic
		// replacement is a sample on khatru (delete, then save), so the
		// gate's decision follows the report, whichever it is.
		store := relaycheck.NewMemStore()
		rep := probe(t, r.URL, 0)
		if err := store.Put(relaycheck.FromReport(rep)); err != nil {
			t.Fatal(err)
		}
		d, err = relaycheck.Gate(store, r.URL, cfg, relaycheck.ProbeFirst)
		if err != nil || d.Refused {
			t.Fatalf("gate %+v %v", d, err)
		}
		res = driveLoad(t, r.URL, d.Config)
		switch rep.Verdict() {
		case relaycheck.Conforms:
			if d.Unproven || d.Config.KnownNonConforming || !res.Complete() || len(res.Events) != len(history) {
				t.Fatalf("a relay that conforms: gate %+v; %s (%s) with %d of %d coordinates", d, res.Verdict, res.Detail, len(res.Events), len(history))
			}
		case relaycheck.Violates:
			if !d.Config.KnownNonConforming || res.Reason != model.ReasonNonConforming {
				t.Fatalf("a relay seen violating: gate %+v; %s/%s\n%s", d, res.Verdict, res.Reason, rep.Text())
			}
		default:
			if !d.Unproven || res.Reason != model.ReasonUnproven || len(res.Events) != len(history) {
				t.Fatalf("a relay not proven: gate %+v; %s/%s with %d coordinates\n%s", d, res.Verdict, res.Reason, len(res.Events), rep.Text())
			}
		}
	})
}

// TestStore: records are kept per normalised URL; a load's evidence is
// not erased by a later load without any, only by a probe; the file store
// survives a round trip and refuses a file it cannot read.
func TestStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "relays.json")
	for name, s := range map[string]relaycheck.Store{"mem": relaycheck.NewMemStore(), "file": &relaycheck.FileStore{Path: path}} {
		t.Run(name, func(t *testing.T) {
			bad := relaycheck.Record{Relay: "wss://relay.example.com/", Violated: []relaycheck.Requirement{relaycheck.ReqPrefix}, Source: "load", Detail: "x"}
			if err := s.Put(bad); err != nil {
				t.Fatal(err)
			}
			if err := s.Put(relaycheck.Record{Relay: "wss://relay.example.com", Source: "load"}); err != nil {
				t.Fatal(err)
			}
			if r, ok, err := s.Get("wss://RELAY.example.com"); err != nil || !ok || !r.NonConforming() {
				t.Fatalf("after a clean load: %+v %v %v", r, ok, err)
			}
			if err := s.Put(relaycheck.Record{Relay: "wss://relay.example.com", Source: "probe"}); err != nil {
				t.Fatal(err)
			}
			if r, _, _ := s.Get("wss://relay.example.com"); r.NonConforming() {
				t.Fatalf("a clean probe did not withdraw the evidence: %+v", r)
			}
			d, err := relaycheck.Gate(s, "wss://other.example.com", model.LoadConfig{}, relaycheck.ProbeFirst)
			if err != nil || !d.Refused || d.Config.Unproven != "" {
				t.Fatalf("unknown relay under ProbeFirst: %+v %v", d, err)
			}
		})
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	fs := &relaycheck.FileStore{Path: path}
	if _, _, err := fs.Get("wss://a"); err == nil {
		t.Fatal("a corrupt store read without error")
	}
	if err := fs.Put(relaycheck.Record{Relay: "wss://a"}); err == nil {
		t.Fatal("a corrupt store overwritten")
	}
	if data, _ := os.ReadFile(path); string(data) != "{not json" {
		t.Fatal("a corrupt store changed")
	}
}

// TestFromLoad: only a load that ran and ended non-conforming on what the
// relay sent is evidence; the gate's own refusal and other verdicts are
// not.
func TestFromLoad(t *testing.T) {
	for _, tc := range []struct {
		res  model.LoadResult
		want bool
	}{
		{model.LoadResult{Verdict: model.CannotProveComplete, Reason: model.ReasonNonConforming, Stats: model.LoadStats{REQs: 2}}, true},
		{model.LoadResult{Verdict: model.CannotProveComplete, Reason: model.ReasonNonConforming}, false},
		{model.LoadResult{Verdict: model.CannotProveComplete, Reason: model.ReasonPlateau, Stats: model.LoadStats{REQs: 3}}, false},
		{model.LoadResult{Verdict: model.Complete, Stats: model.LoadStats{REQs: 3}}, false},
	} {
		rec, ok := relaycheck.FromLoad("wss://r", tc.res)
		if ok != tc.want || ok != rec.NonConforming() {
			t.Errorf("%s/%s REQs=%d: evidence %v %+v, want %v", tc.res.Verdict, tc.res.Reason, tc.res.Stats.REQs, ok, rec, tc.want)
		}
	}
}

// conformingVerdicts are a probe's verdicts with every load requirement
// conforming, but for the ones named, which get v.
func conformingVerdicts(v relaycheck.Verdict, except ...relaycheck.Requirement) []relaycheck.RequirementVerdict {
	var out []relaycheck.RequirementVerdict
	for _, req := range relaycheck.LoadRequirements {
		rv := relaycheck.RequirementVerdict{Requirement: req, Verdict: relaycheck.Conforms, Trials: 1}
		if slices.Contains(except, req) {
			rv.Verdict = v
		}
		out = append(out, rv)
	}
	return out
}

// TestGateBranches: every branch of the gate's policy. A record is valid
// for this probe version until it expires; a violation bars the load; a
// relay without a valid record loads unproven (LoadUnproven) or not at
// all (ProbeFirst); a valid record admits a complete verdict only when
// every load requirement conforms and the caller's other subscriptions
// and the load's two fit the measured capacity.
func TestGateBranches(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	const relay = "wss://relay.example.com"
	good := relaycheck.Record{Relay: relay, Source: "probe", ProbeVersion: relaycheck.ProbeVersion, Date: now.Add(-24 * time.Hour),
		Verdicts: conformingVerdicts(relaycheck.Conforms), SubCapacity: 20}
	with := func(f func(*relaycheck.Record)) *relaycheck.Record { r := good; f(&r); return &r }
	type want int
	const (
		admit want = iota
		unproven
		refused
		nonConforming
		fails
	)
	tests := []struct {
		name   string
		rec    *relaycheck.Record
		policy relaycheck.Policy
		others int
		want   want
		reason string
	}{
		{"every requirement conforms", &good, relaycheck.LoadUnproven, 0, admit, ""},
		{"under ProbeFirst too", &good, relaycheck.ProbeFirst, 0, admit, ""},
		{"others fit the capacity", &good, relaycheck.LoadUnproven, 18, admit, ""},
		{"others overflow the capacity", &good, relaycheck.LoadUnproven, 19, unproven, "21 subscriptions"},
		{"unknown is not conforms", with(func(r *relaycheck.Record) { r.Verdicts = conformingVerdicts(relaycheck.Unknown, relaycheck.ReqBarrier) }),
			relaycheck.ProbeFirst, 0, unproven, "R5 delivery barrier unknown"},
		{"a requirement not probed", with(func(r *relaycheck.Record) { r.Verdicts = r.Verdicts[:5] }), relaycheck.LoadUnproven, 0, unproven, "R6 atomic replacement not probed"},
		{"no record", nil, relaycheck.LoadUnproven, 0, unproven, "no probe has recorded"},
		{"no record under ProbeFirst", nil, relaycheck.ProbeFirst, 0, refused, "no probe has recorded"},
		{"expired", with(func(r *relaycheck.Record) { r.Expires = now }), relaycheck.LoadUnproven, 0, unproven, "expired on 2026-12-01"},
		{"expired by default validity", with(func(r *relaycheck.Record) { r.Date = now.Add(-relaycheck.DefaultValidity - time.Second) }),
			relaycheck.ProbeFirst, 0, refused, "expired"},
		{"another probe version", with(func(r *relaycheck.Record) { r.ProbeVersion = "relaycheck/1" }), relaycheck.LoadUnproven, 0, unproven, `probe version "relaycheck/1"`},
		{"evidence of a violation", with(func(r *relaycheck.Record) {
			r.Violated, r.Detail = []relaycheck.Requirement{relaycheck.ReqFresh}, "fresh-after-write: stale"
			r.Verdicts = conformingVerdicts(relaycheck.Violates, relaycheck.ReqFresh)
		}), relaycheck.LoadUnproven, 0, nonConforming, "fresh-after-write: stale"},
		{"a load's evidence", &relaycheck.Record{Relay: relay, Source: "load", Violated: []relaycheck.Requirement{relaycheck.ReqLoadEvidence}, Detail: "bad sig", Date: now},
			relaycheck.ProbeFirst, 0, nonConforming, "bad sig"},
		{"an expired violation counts as absent", with(func(r *relaycheck.Record) {
			r.Violated, r.Expires = []relaycheck.Requirement{relaycheck.ReqPrefix}, now.Add(-time.Hour)
		}), relaycheck.LoadUnproven, 0, unproven, "expired"},
		{"a load's record without evidence", &relaycheck.Record{Relay: relay, Source: "load", Date: now}, relaycheck.LoadUnproven, 0, unproven, "only a load's record"},
		{"negative other subscriptions", &good, relaycheck.LoadUnproven, -1, fails, ""},
		{"unknown policy", &good, relaycheck.Policy(7), 0, fails, ""},
	}
	cfg := model.LoadConfig{PubKey: userPK, Limit: 10}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			store := relaycheck.NewMemStore()
			if tc.rec != nil {
				if err := store.Put(*tc.rec); err != nil {
					t.Fatal(err)
				}
			}
			d, err := relaycheck.GateWith(store, relay, cfg, relaycheck.GateOptions{Policy: tc.policy, OtherSubs: tc.others, Now: now})
			if tc.want == fails {
				if err == nil {
					t.Fatalf("no error: %+v", d)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := admit
			switch {
			case d.Refused:
				got = refused
			case d.Config.KnownNonConforming:
				got = nonConforming
			case d.Unproven:
				got = unproven
			}
			if got != tc.want || !strings.Contains(d.Reason, tc.reason) {
				t.Fatalf("decision %+v, want %d with reason containing %q", d, tc.want, tc.reason)
			}
			if (d.Config.Unproven != "") != (got == unproven) || d.Config.PubKey != cfg.PubKey {
				t.Fatalf("config %+v for decision %d", d.Config, got)
			}
		})
	}
	t.Run("store error", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "relays.json")
		if err := os.WriteFile(path, []byte("[]"), 0o600); err != nil {
			t.Fatal(err)
		}
		if d, err := relaycheck.Gate(&relaycheck.FileStore{Path: path}, relay, cfg, relaycheck.LoadUnproven); err == nil {
			t.Fatalf("a store that cannot be read gave %+v", d)
		}
	})
}

// TestUnprovenLoadOverProfile: a load the gate marks unproven collects
// every coordinate of a conformant relay and ends cannot-prove-complete
// (unproven), never complete; the same load admitted says complete.
//
// The admitted load rests on a probe of the profile at the default
// stopping rule (seconds of signing): the quick gate runs the unproven
// load only.
func TestUnprovenLoadOverProfile(t *testing.T) {
	t.Parallel()
	const relay = "ws://relaysim"
	type loadCase struct {
		store  relaycheck.Store
		reason model.Reason
	}
	cases := []loadCase{{relaycheck.NewMemStore(), model.ReasonUnproven}}
	if !shortrun.On(t, "the unproven load only, not the one admitted on a probe's record") {
		store := relaycheck.NewMemStore()
		rep := simProbe(t, relaysim.Conformant(3), nil)
		rep.Relay = relay
		if err := store.Put(relaycheck.FromReport(rep)); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, loadCase{store, 0})
	}
	cfg := model.LoadConfig{PubKey: userPK, Limit: 10}
	for _, tc := range cases {
		d, err := relaycheck.Gate(tc.store, relay, cfg, relaycheck.LoadUnproven)
		if err != nil {
			t.Fatal(err)
		}
		srv := relaysim.NewServer(relaysim.New(relaysim.Conformant(3)))
		w, _ := srv.Dial(context.Background(), relay)
		for _, ev := range cutHistory() {
			data, _ := (&nostr.EventEnvelope{Event: *ev}).MarshalJSON()
			if err := w.WriteMessage(context.Background(), data); err != nil {
				t.Fatal(err)
			}
		}
		l, err := model.NewLoad(d.Config)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := srv.Dial(context.Background(), relay)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		res := model.Drive(ctx, c, l)
		cancel()
		if len(res.Events) != len(cutHistory()) {
			t.Fatalf("%d of %d coordinates collected", len(res.Events), len(cutHistory()))
		}
		if tc.reason == model.ReasonUnproven && (res.Verdict != model.CannotProveComplete || res.Reason != model.ReasonUnproven) {
			t.Fatalf("unproven load: %s/%s", res.Verdict, res.Reason)
		}
		if tc.reason != model.ReasonUnproven && !res.Complete() {
			t.Fatalf("admitted load: %s/%s (%s)", res.Verdict, res.Reason, res.Detail)
		}
	}
}

// TestGatePasses: a relay whose record shows R5, R6 (and R1's tie clause)
// violated and everything else conforming is refused to a one-pass load
// and admitted to a two-pass one, whose configuration then carries the
// passes and the gap and whose reason states the timing assumption; any
// other violation still refuses it.
func TestGatePasses(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	const relay = "wss://relay.example.com"
	split := relaycheck.Record{Relay: relay, Source: "probe", ProbeVersion: relaycheck.ProbeVersion, Date: now.Add(-24 * time.Hour),
		Verdicts: conformingVerdicts(relaycheck.Violates, relaycheck.ReqAtomic, relaycheck.ReqTieOrder), SubCapacity: 20,
		Violated: []relaycheck.Requirement{relaycheck.ReqAtomic, relaycheck.ReqTieOrder}}
	gate := func(rec relaycheck.Record, passes int, gap ...time.Duration) relaycheck.Decision {
		st := relaycheck.NewMemStore()
		if err := st.Put(rec); err != nil {
			t.Fatal(err)
		}
		d, err := relaycheck.GateWith(st, relay, model.LoadConfig{PubKey: userPK, Limit: 10}, relaycheck.GateOptions{Now: now, Passes: passes, PassGap: append(gap, 0)[0]})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := gate(split, 1); !d.Config.KnownNonConforming {
		t.Errorf("one pass: %+v, want refused", d)
	}
	d := gate(split, 2)
	if d.Config.KnownNonConforming || d.Unproven || d.Config.Passes != 2 || !strings.Contains(d.Reason, "assuming a replacement the relay splits finishes within a pass") {
		t.Errorf("two passes: %+v, want admitted with 2 passes and the assumption stated", d)
	}
	late := split
	late.Verdicts = conformingVerdicts(relaycheck.Violates, relaycheck.ReqAtomic, relaycheck.ReqBarrier)
	late.Violated = []relaycheck.Requirement{relaycheck.ReqAtomic, relaycheck.ReqBarrier}
	if d := gate(late, 1); !d.Config.KnownNonConforming {
		t.Errorf("one pass, R5 and R6 violated: %+v, want refused", d)
	}
	d = gate(late, 2, 100*time.Millisecond)
	if d.Config.KnownNonConforming || d.Unproven || d.Config.PassGap != 100*time.Millisecond || !strings.Contains(d.Reason, "within the 100ms gap") {
		t.Errorf("two passes, R5 and R6 violated, a gap: %+v, want admitted with the gap stated", d)
	}
	// A relay that registers subscriptions late (rely): R4 violated,
	// R4 to a settled subscription conforms. Two passes with a gap of at
	// least PushSettle admit it; a shorter gap, one pass, or R4 violated
	// even after settling do not.
	lateReg := split
	lateReg.Verdicts = conformingVerdicts(relaycheck.Violates, relaycheck.ReqPush, relaycheck.ReqBarrier)
	lateReg.Violated = []relaycheck.Requirement{relaycheck.ReqPush, relaycheck.ReqBarrier}
	if d := gate(lateReg, 1); !d.Config.KnownNonConforming {
		t.Errorf("one pass, R4 violated: %+v, want refused", d)
	}
	if d := gate(lateReg, 2, relaycheck.PushSettle-time.Millisecond); !d.Config.KnownNonConforming {
		t.Errorf("two passes, R4 violated, a gap shorter than the probe's settling: %+v, want refused", d)
	}
	d = gate(lateReg, 2, relaycheck.PushSettle)
	if d.Config.KnownNonConforming || d.Unproven || !strings.Contains(d.Reason, string(relaycheck.ReqPushSettled)) {
		t.Errorf("two passes, R4 violated, R4 settled conforms, a gap of %s: %+v, want admitted naming %s", relaycheck.PushSettle, d, relaycheck.ReqPushSettled)
	}
	never := lateReg
	never.Verdicts = conformingVerdicts(relaycheck.Violates, relaycheck.ReqPush, relaycheck.ReqPushSettled)
	never.Violated = []relaycheck.Requirement{relaycheck.ReqPush, relaycheck.ReqPushSettled}
	if d := gate(never, 2, time.Second); !d.Config.KnownNonConforming {
		t.Errorf("two passes, R4 violated after settling too: %+v, want refused", d)
	}
	unsettled := lateReg
	unsettled.Verdicts = conformingVerdicts(relaycheck.Unknown, relaycheck.ReqPushSettled)
	unsettled.Violated = nil
	if d := gate(unsettled, 2, time.Second); !d.Unproven || !strings.Contains(d.Reason, string(relaycheck.ReqPushSettled)) {
		t.Errorf("two passes, R4 settled unknown: %+v, want unproven naming it", d)
	}
	other := split
	other.Verdicts = conformingVerdicts(relaycheck.Violates, relaycheck.ReqAtomic, relaycheck.ReqFresh)
	other.Violated = []relaycheck.Requirement{relaycheck.ReqAtomic, relaycheck.ReqFresh}
	if d := gate(other, 2); !d.Config.KnownNonConforming || !slices.Equal(d.Violated, []relaycheck.Requirement{relaycheck.ReqFresh}) {
		t.Errorf("two passes, R7 violated too: %+v, want refused on R7 alone", d)
	}
}

// TestEveryRequirementHasARemedy: every requirement the probe reports has
// the sentence an operator reads beside its evidence, and a report says
// it for each violated requirement and for no other.
func TestEveryRequirementHasARemedy(t *testing.T) {
	for _, c := range relaycheck.Checks {
		if relaycheck.Remedies[c.Requirement] == "" {
			t.Errorf("%s (%s): no remedy", c.Requirement, c.ID)
		}
	}
	rep := relaycheck.Report{Requirements: []relaycheck.RequirementVerdict{
		{Requirement: relaycheck.ReqAtomic, Verdict: relaycheck.Violates},
		{Requirement: relaycheck.ReqBarrier, Verdict: relaycheck.Unknown},
		{Requirement: relaycheck.ReqPrefix, Verdict: relaycheck.Conforms},
	}}
	text := rep.RemedyText()
	if !strings.Contains(text, "R6 atomic replacement: replace an addressable event in one step") ||
		strings.Contains(text, string(relaycheck.ReqBarrier)) || strings.Contains(text, string(relaycheck.ReqPrefix)) {
		t.Errorf("remedies:\n%s", text)
	}
	if (relaycheck.Report{}).RemedyText() != "" {
		t.Error("a report with nothing violated names a remedy")
	}
}

// TestGateSubsWithinCapacity: a relay that evicts silently past a
// capacity the probe measured (R8 violated) is admitted to a client whose
// subscriptions and the load's fit that capacity, with the capacity in
// the load's configuration (which then refuses to start beyond it), and
// refused to one whose do not.
func TestGateSubsWithinCapacity(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	const relay = "wss://relay.example.com"
	rec := relaycheck.Record{Relay: relay, Source: "probe", ProbeVersion: relaycheck.ProbeVersion, Date: now.Add(-24 * time.Hour),
		Verdicts: conformingVerdicts(relaycheck.Violates, relaycheck.ReqSubs), SubCapacity: 20, SubEvicts: true,
		Violated: []relaycheck.Requirement{relaycheck.ReqSubs}}
	st := relaycheck.NewMemStore()
	if err := st.Put(rec); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		others   int
		admitted bool
	}{{0, true}, {18, true}, {19, false}} {
		d, err := relaycheck.GateWith(st, relay, model.LoadConfig{PubKey: userPK, Limit: 10}, relaycheck.GateOptions{Now: now, OtherSubs: tc.others})
		if err != nil {
			t.Fatal(err)
		}
		admitted := !d.Config.KnownNonConforming && !d.Unproven && !d.Refused
		if admitted != tc.admitted || (admitted && (d.Config.RelayMaxSubs != 20 || d.Config.OtherSubs != tc.others)) {
			t.Errorf("%d others: %+v, want admitted %t with the capacity configured", tc.others, d, tc.admitted)
		}
		if !admitted {
			continue
		}
		if _, err := model.NewLoad(d.Config); err != nil {
			t.Fatalf("%d others: the admitted configuration does not start: %v", tc.others, err)
		}
	}
	noEvict := rec
	noEvict.SubEvicts = false
	if err := st.Put(noEvict); err != nil {
		t.Fatal(err)
	}
	if d, _ := relaycheck.GateWith(st, relay, model.LoadConfig{PubKey: userPK, Limit: 10}, relaycheck.GateOptions{Now: now}); !d.Config.KnownNonConforming {
		t.Errorf("R8 violated without a measured eviction: %+v, want refused", d)
	}
}
