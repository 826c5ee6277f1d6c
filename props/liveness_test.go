package props

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaysim"
)

// TestSingleCoordinateCompletes: one installation, one coordinate, one
// event: the pinned window delivers 1 < max(C=1, L=2), the second is
// discharged and the empty continuation completes the load, for every
// cap and limit (Full-State Load, the floor). At second 0 there is no
// continuation: the discharged oldest second completes it.
func TestSingleCoordinateCompletes(t *testing.T) {
	for cap := 2; cap <= 6; cap++ {
		for n := 2; n <= 8; n++ {
			for _, at := range []int64{0, 1, StartClock} {
				t.Run(fmt.Sprintf("cap=%d/n=%d/at=%d", cap, n, at), func(t *testing.T) {
					w, v := Quiescent(Config{Profile: "conformant", Cap: cap, N: n}, model.Proposed(), []Step{{Op: OpPublish, When: WhenAt, At: at}})
					if v != nil {
						t.Fatal(v)
					}
					res := w.Results()[0]
					wantQueries := 3
					if at == 0 {
						wantQueries = 2
					}
					if res.Verdict != model.Complete || len(res.Events) != 1 || res.Stats.Queries != wantQueries {
						t.Fatalf("%s (%s), %d events, %d queries", res.Verdict, res.Detail, len(res.Events), res.Stats.Queries)
					}
				})
			}
		}
	}
}

// TestPlateauNeverComplete: a second holding more events than the relay
// delivers at once is unenumerable; whatever else the history holds, the
// load ends cannot-prove-complete at that second, never complete.
func TestPlateauNeverComplete(t *testing.T) {
	withChecks(500, func() {
		rapid.Check(t, func(rt *rapid.T) {
			src := rapidSource{rt}
			cfg := DrawConfig(src, "conformant")
			e := min(cfg.Cap, cfg.N)
			plateau := int64(rapid.IntRange(StartClock-30, StartClock).Draw(rt, "plateau second"))
			k := rapid.IntRange(e+1, e+4).Draw(rt, "plateau size")
			rsIn := rapid.IntRange(0, k).Draw(rt, "read-state in the plateau")
			setup := append(DrawSetup(src), Step{Op: OpForeign, Count: k - rsIn, At: plateau})
			for i := range rsIn {
				setup = append(setup, Step{Op: OpPublish, I: 10 + i, When: WhenAt, At: plateau})
			}
			w, v := Quiescent(cfg, model.Proposed(), setup)
			if v != nil {
				rt.Fatal(v)
			}
			res := w.Results()[0]
			if res.Verdict != model.CannotProveComplete || res.Reason != model.ReasonPlateau {
				rt.Fatalf("plateau of %d at %d with e=%d: %s (%s)", k, plateau, e, res.Verdict, res.Detail)
			}
		})
	})
}

// TestRunMatchesWorld: the library driver relaysim.Run and the scenario
// world agree on a quiescent load's verdict and traffic.
func TestRunMatchesWorld(t *testing.T) {
	withChecks(200, func() {
		rapid.Check(t, func(rt *rapid.T) {
			src := rapidSource{rt}
			cfg := DrawConfig(src, "conformant")
			w, _ := Quiescent(cfg, model.Proposed(), DrawSetup(src))
			prof, _ := relaysim.ByName(cfg.Profile, cfg.Cap)
			r := relaysim.New(prof)
			r.Preload(w.Relay().Events()...)
			l, err := model.NewLoad(model.LoadConfig{PubKey: UserPubKey, Limit: cfg.N})
			if err != nil {
				rt.Fatal(err)
			}
			got, want := relaysim.Run(l, r.Connect()), w.Results()[0]
			if got.Verdict != want.Verdict || got.Stats.Queries != want.Stats.Queries || len(got.Events) != len(want.Events) {
				rt.Fatalf("Run %s/%d queries/%d events, world %s/%d/%d", got.Verdict, got.Stats.Queries, len(got.Events),
					want.Verdict, want.Stats.Queries, len(want.Events))
			}
		})
	})
}
