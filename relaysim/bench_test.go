package relaysim_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
	"github.com/nip-rs/harness/internal/shortrun"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaysim"
)

// update rewrites the golden figures under testdata/figures.
var update = flag.Bool("update", false, "rewrite the golden figures under testdata/figures")

const (
	benchPK      = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
	benchCoords  = 50
	benchForeign = 10_000
	benchDeleted = 1_000
	benchLimit   = 500 // the production loader's n
	benchCap     = 500
	benchSeed    = 7
)

// benchHistory is a user's kind 30078 history: 50 read-state coordinates
// among 10,000 foreign application events over about 23 days, of which
// 1,000 foreign events were later deleted. Seeded, so every figure is
// reproducible.
func benchHistory() (events []*nostr.Event, deleted []string) {
	rng := rand.New(rand.NewPCG(benchSeed, benchSeed))
	const top = 1_700_000_000
	mk := func(d string, tags nostr.Tags, i int) *nostr.Event {
		ev := &nostr.Event{PubKey: benchPK, CreatedAt: nostr.Timestamp(top - rng.IntN(2_000_000)), Kind: 30078,
			Tags: append(nostr.Tags{{"d", d}}, tags...), Content: fmt.Sprintf("payload %d", i)}
		ev.ID = ev.GetID()
		return ev
	}
	for i := range benchCoords {
		events = append(events, mk(fmt.Sprintf("read-state:%032x", i+1), nostr.Tags{{"t", "read-state"}}, i))
	}
	for i := range benchForeign {
		ev := mk(fmt.Sprintf("app:%d", i), nil, i)
		events = append(events, ev)
		if i%(benchForeign/benchDeleted) == 0 {
			deleted = append(deleted, ev.ID)
		}
	}
	return events, deleted
}

type benchFigures struct {
	verdict model.Verdict
	queries int
	events  int
	coords  int
}

func benchRelay(p relaysim.Profile, events []*nostr.Event, deleted []string) *relaysim.Relay {
	r := relaysim.New(p)
	r.Preload(events...)
	for _, id := range deleted {
		r.Delete(id)
	}
	return r
}

func benchLoad(b testing.TB, r *relaysim.Relay) benchFigures {
	l, err := model.NewLoad(model.LoadConfig{PubKey: benchPK, Limit: benchLimit})
	if err != nil {
		b.Fatal(err)
	}
	res := relaysim.Run(l, r.Connect())
	return benchFigures{res.Verdict, res.Stats.Queries, res.Stats.Received, len(res.Events)}
}

// BenchmarkLoad50Among10k: one full-state load per profile over the same
// history (building the relay is not timed); reports queries issued,
// events transferred and coordinates collected per load.
func BenchmarkLoad50Among10k(b *testing.B) {
	events, deleted := benchHistory()
	for _, p := range relaysim.All(benchCap) {
		b.Run(p.Name, func(b *testing.B) {
			var f benchFigures
			for b.Loop() {
				b.StopTimer()
				r := benchRelay(p, events, deleted)
				b.StartTimer()
				f = benchLoad(b, r)
			}
			b.ReportMetric(float64(f.queries), "queries/op")
			b.ReportMetric(float64(f.events), "events/op")
			b.ReportMetric(float64(f.coords), "coords/op")
		})
	}
}

// TestBenchFigures pins the benchmark's counts: the verdict, queries,
// events and coordinates each profile gives, in testdata/figures.
//
// Each row is one profile's load, whatever else runs, so the quick gate
// loads one profile in four and holds each row to that profile's pinned
// row.
func TestBenchFigures(t *testing.T) {
	profiles := relaysim.All(benchCap)
	var pinned map[string]bool
	figs := &figfile.Figures{}
	if shortrun.On(t, "one profile in four, each row held to its pinned row") {
		var some []relaysim.Profile
		for i := 0; i < len(profiles); i += 4 {
			some = append(some, profiles[i])
		}
		profiles = some
		pinned = figfile.Pinned(t, t.Name())
	} else {
		figs = figfile.For(t, *update)
	}
	events, deleted := benchHistory()
	for _, p := range profiles {
		f := benchLoad(t, benchRelay(p, events, deleted))
		row := fmt.Sprintf("| `%s` | %s | %d | %d | %d |", p.Name, f.verdict, f.queries, f.events, f.coords)
		figs.Line(row)
		if pinned != nil && !pinned[row] {
			t.Errorf("%s is not the row pinned in %s", row, figfile.Path(t.Name()))
		}
	}
}
