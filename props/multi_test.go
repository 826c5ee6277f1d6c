package props

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
	"pgregory.net/rapid"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaysim"
)

// TestMultiRelay: a load over two conformant relays with different
// histories is complete exactly when both relays' loads are, and then it
// holds, for every coordinate on either relay, the newer of the two
// versions. A relay whose connection drops makes the whole load
// potentially incomplete (Full-State Load step 8).
func TestMultiRelay(t *testing.T) {
	seen := map[model.Verdict]int{}
	dropped := 0
	withChecks(300, func() {
		rapid.Check(t, func(rt *rapid.T) {
			src := rapidSource{rt}
			cfg := DrawConfig(src, "conformant")
			relays := []string{"wss://a", "wss://b"}
			conns := map[string]*relaysim.Conn{}
			truth := map[string]*nostr.Event{} // d tag -> the newest version on either relay
			for _, name := range relays {
				w, err := NewWorld(cfg, model.Proposed())
				if err != nil {
					rt.Fatal(err)
				}
				for _, s := range DrawSetup(src) {
					w.Apply(s)
				}
				for d, ev := range w.Relay().Coordinates() {
					if held, ok := truth[d]; !ok || relaysim.Newer(ev, held) {
						truth[d] = ev
					}
				}
				conns[name] = w.Relay().Connect()
			}
			dropAfter := rapid.IntRange(0, 30).Draw(rt, "drop b after (0: never)")
			m, err := model.NewMultiLoad(relays, model.LoadConfig{PubKey: UserPubKey, Limit: cfg.N}, nil)
			if err != nil {
				rt.Fatal(err)
			}
			for _, o := range m.Start() {
				conns[o.Relay].Send(o.Out)
			}
			// lost: b's connection dropped while its load was running (a
			// drop after its verdict changes nothing).
			delivered, lost := 0, false
			for progress := true; progress; {
				progress = false
				for _, name := range relays {
					c := conns[name]
					for c.Inbound() > 0 && !c.Lost() {
						_ = c.Process(0)
					}
					for msg, ok := c.Next(); ok; msg, ok = c.Next() {
						progress = true
						c.Send(m.Feed(name, msg)...)
						if delivered++; name == "wss://b" && delivered == dropAfter && m.Load(name).Running() {
							c.Lose()
							lost = true
						}
					}
				}
			}
			res := m.Result()
			a, b := m.Load("wss://a").Verdict(), m.Load("wss://b").Verdict()
			if (res.Verdict == model.Complete) != (a == model.Complete && b == model.Complete) || res.Verdict == model.Running {
				rt.Fatalf("aggregate %s from %s and %s", res.Verdict, a, b)
			}
			if lost && b == model.Complete {
				rt.Fatal("a dropped relay reported complete")
			}
			seen[res.Verdict]++
			if lost {
				dropped++
			}
			if res.Verdict != model.Complete {
				return
			}
			got := map[string]string{}
			for _, ev := range res.Events {
				got[ev.Tags.GetD()] = ev.ID
			}
			for d, ev := range truth {
				if got[d] != ev.ID {
					rt.Fatalf("%s: merged %q, newest on either relay %q", d, got[d], ev.ID)
				}
			}
		})
	})
	if seen[model.Complete] == 0 || seen[model.CannotProveComplete] == 0 || dropped == 0 {
		t.Fatalf("the cases did not reach both outcomes: %v, %d dropped", seen, dropped)
	}
}
