package gen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/mutants"
)

// histWorld is the history walk's universe (history.World: two relays,
// wraps at created_at 1, 2, ..., relay 0 holding the prior epoch's wrap at
// 1, addressable only after the rekey) run forward under the production
// rules, recording every round's pages as a script of relay messages.
type histWorld struct {
	cfg     history.Config
	held    [2]map[int]bool
	rekeyed bool
	next    int
	store   *history.MemoryStore
	cursor  history.Cursor
	in      histInput
}

func newHistWorld(cfg history.Config) *histWorld {
	w := &histWorld{cfg: cfg, next: 2, store: history.NewMemoryStore(),
		held: [2]map[int]bool{{1: true}, {}}}
	w.in = histInput{Config: histConfig{PageWraps: cfg.PageWraps, CatchUpPages: cfg.CatchUpPages,
		LoadOlderPages: cfg.LoadOlderPages, OverlapMs: cfg.OverlapMs}, Relays: 2, Steps: []histStep{}}
	return w
}

func wrapOf(t int) histWrap { return histWrap{ID: fmt.Sprintf("wrap%02d", t), CreatedAt: int64(t)} }

func (w *histWorld) addressable(t int) bool { return t != 1 || w.rekeyed }

// relayEvents is what relay i stores and can address, newest first.
func (w *histWorld) relayEvents(i int) []history.Event {
	var out []history.Event
	for t := w.next - 1; t >= 1; t-- {
		if w.held[i][t] && w.addressable(t) {
			out = append(out, history.Event{ID: wrapOf(t).ID, CreatedAtMs: int64(t)})
		}
	}
	return out
}

// histBehaviour is one relay's behaviour in a round, from page From on.
type histBehaviour struct {
	mode history.Mode
	from int
}

func parseBehaviour(s string) (histBehaviour, error) {
	name, from, _ := strings.Cut(s, "@")
	b := histBehaviour{}
	if from != "" {
		n, err := strconv.Atoi(from)
		if err != nil {
			return b, fmt.Errorf("behaviour %q", s)
		}
		b.from = n
	}
	for m := history.Answers; m <= history.AuthFails; m++ {
		if m.String() == name {
			b.mode = m
			return b, nil
		}
	}
	return b, fmt.Errorf("behaviour %q: unknown mode", s)
}

func (w *histWorld) publish(targets ...int) {
	for _, r := range targets {
		w.held[r][w.next] = true
	}
	w.next++
}

func (w *histWorld) live() {
	e := wrapOf(w.next)
	w.store.Add(history.Event{ID: e.ID, CreatedAtMs: e.CreatedAt})
	w.in.Steps = append(w.in.Steps, histStep{Do: "live", Wraps: []histWrap{e}})
	w.next++
}

func (w *histWorld) rekey() {
	if w.rekeyed {
		return
	}
	w.rekeyed = true
	w.cursor = history.Spec().Rekey(w.cursor)
	w.in.Steps = append(w.in.Steps, histStep{Do: "rekey"})
}

// round runs one round as history.Drive does, recording each page's
// relay messages; mid makes a wrap arrive during it (on both relays and
// through the live subscription) before the second page is answered, or
// after the round when it has no second page.
func (w *histWorld) round(intent history.Intent, b [2]histBehaviour, mid bool) error {
	r, err := history.NewRound(w.cfg, history.Spec(), w.cursor, intent, 2, w.store)
	if err != nil {
		return err
	}
	step := histStep{Do: "round", Intent: intent.String(), Pages: []histPage{}}
	relays := [2][]history.Event{w.relayEvents(0), w.relayEvents(1)}
	arrived := false
	for k := 0; ; k++ {
		p, ok := r.Next()
		if !ok {
			break
		}
		sp := histPage{Relays: [][]histMsg{{}, {}}}
		if mid && k == 1 && !arrived {
			arrived = true
			e := wrapOf(w.next)
			w.publish(0, 1)
			relays = [2][]history.Event{w.relayEvents(0), w.relayEvents(1)}
			sp.Live = []histWrap{e}
			w.store.Add(history.Event{ID: e.ID, CreatedAtMs: e.CreatedAt})
		}
		for _, i := range p.Relays {
			mode := b[i].mode
			if k < b[i].from {
				mode = history.Answers
			}
			rl := &history.Relay{Events: relays[i]}
			var msgs []histMsg
			answer := func() {
				if es := rl.Answer(p.Window, p.Limit); len(es) > 0 {
					m := histMsg{Type: "events"}
					for _, e := range es {
						m.Wraps = append(m.Wraps, histWrap{ID: e.ID, CreatedAt: e.CreatedAtMs})
					}
					msgs = append(msgs, m)
				}
				msgs = append(msgs, histMsg{Type: "eose"})
			}
			switch mode {
			case history.Answers:
				answer()
			case history.AuthThenAnswers:
				msgs = append(msgs, histMsg{Type: "closed", Reason: "auth-required: this relay serves members only"})
				answer()
			case history.Refuses:
				msgs = append(msgs, histMsg{Type: "closed", Reason: "blocked: not allowed to read"})
			case history.AuthFails:
				msgs = append(msgs, histMsg{Type: "closed", Reason: "auth-required: this relay serves members only"},
					histMsg{Type: "auth_failed", Reason: "authentication failed"})
			}
			sp.Relays[i] = append(sp.Relays[i], msgs...)
		}
		if err := answerPage(r, p, histPage{Relays: sp.Relays}, w.store); err != nil {
			return err
		}
		r.Timeout()
		step.Pages = append(step.Pages, sp)
	}
	w.cursor, _ = r.Result()
	w.in.Steps = append(w.in.Steps, step)
	if mid && !arrived {
		e := wrapOf(w.next)
		w.publish(0, 1)
		w.store.Add(history.Event{ID: e.ID, CreatedAtMs: e.CreatedAt})
		w.in.Steps = append(w.in.Steps, histStep{Do: "live", Wraps: []histWrap{e}})
	}
	return nil
}

// action applies one action of the universe's witness alphabet.
func (w *histWorld) action(name, ctx string, value int64) error {
	switch name {
	case "publish":
		switch ctx {
		case "relay0":
			w.publish(0)
		case "relay1":
			w.publish(1)
		case "both":
			w.publish(0, 1)
		default:
			return fmt.Errorf("publish to %q", ctx)
		}
	case "live":
		w.live()
	case "rekey":
		w.rekey()
	case history.CatchUp.String(), history.Older.String():
		intent, _ := intentOf(name)
		var b [2]histBehaviour
		fields := strings.Fields(ctx)
		if len(fields) != 2 {
			return fmt.Errorf("round behaviours %q", ctx)
		}
		for i, f := range fields {
			_, v, ok := strings.Cut(f, "=")
			if !ok {
				return fmt.Errorf("round behaviours %q", ctx)
			}
			var err error
			if b[i], err = parseBehaviour(v); err != nil {
				return err
			}
		}
		return w.round(intent, b, value == 1)
	default:
		return fmt.Errorf("unknown action %q", name)
	}
	return nil
}

// histWitness is the part of a stored history witness the vectors read.
type histWitness struct {
	Invariant string `json:"invariant"`
	Detail    string `json:"detail"`
	Actions   []struct {
		Action string `json:"action"`
		Ctx    string `json:"ctx"`
		Value  int64  `json:"value"`
	} `json:"actions"`
	Point map[string]int64 `json:"point"`
}

func historyKind() Kind {
	return Kind{
		Name:           "history",
		Description:    "The paged history walk of community-history-sync over scripted relays: a channel's rounds (catch-up and older), live-subscription wraps and rekeys -> the pages each round asks, in order, its account (wraps fetched and stored, failed, exhausted, each relay that dropped out and how) and the cursor persisted after every step. From the walk's exhaustive universe and from every walk mutant's witness.",
		HowToRun:       "Start a channel with an empty store and no saved cursor, sized by input.config (page limit, page budgets of a catch-up's bridge and older pass and of a scroll-up, the warm open's overlap), with input.relays relays. Replay input.steps: live stores the wraps as the live subscription would; rekey adopts a rekey (the cursor's rekey rule); round runs one round of the intent. For a round, answer its k-th page from pages[k]: store pages[k].live first, then for each relay the page asks, in relay order, feed that relay's messages (events: wraps delivered; eose; closed with its reason; auth_failed: the AUTH handshake failed), then let the page's deadline pass (a relay still unsettled is silent). A page past the script gets no answer. After step i compare expected[i]: the cursor (newest, oldest, exhausted, pending), and for a round every page asked (pass newest, bridge, repair or older; since and until, inclusive; limit; relays asked), wraps fetched and newly stored, failed, exhausted, and the relays that dropped out (refused or silent, with the reason).",
		Cases:          historyCases,
		ComputeHistory: computeHistory,
	}
}

// variantWitness reports whether a walk witness's point names one of the
// universe variants' knobs: its relays or members do what the default
// universe's cannot, so its script would not be the one found.
func variantWitness(point map[string]int64) bool {
	for _, k := range []string{"tick", "cap", "future", "strays", "backdate", "absurd", "unrecorded"} {
		if point[k] != 0 {
			return true
		}
	}
	return false
}

// Random walks of the universe: how many, how long, and their seed.
const (
	historyWalks    = 48
	historyWalkSeed = 4242
)

func historyCases() ([]Case, error) {
	var cs []Case
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	for _, m := range mutants.History() {
		b, err := os.ReadFile(filepath.Join(root, "mutants", "testdata", m.ID+".clear.json"))
		if err != nil {
			return nil, err
		}
		var head struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(b, &head) == nil && head.Kind == history.KindWalkLiveness {
			// A walk that never ends: a lasso, not a finding these
			// scripted relays replay as one walk.
			continue
		}
		var hw histWitness
		if err := json.Unmarshal(b, &hw); err != nil {
			return nil, fmt.Errorf("%s witness: %w", m.ID, err)
		}
		p := hw.Point
		if variantWitness(p) {
			// Found in a universe variant (ties in one second, a capped
			// relay, wraps from the future, stray answers, backdated
			// wraps) these scripted relays do not model.
			continue
		}
		w := newHistWorld(history.Config{PageWraps: int(p["page"]), CatchUpPages: int(p["catch-up-pages"]),
			LoadOlderPages: int(p["load-older-pages"]), OverlapMs: p["overlap"]})
		var acts []string
		for _, a := range hw.Actions {
			if err := w.action(a.Action, a.Ctx, a.Value); err != nil {
				return nil, fmt.Errorf("%s witness: %w", m.ID, err)
			}
			acts = append(acts, strings.TrimSpace(fmt.Sprintf("%s %s", a.Action, a.Ctx))+map[bool]string{true: " (a wrap arrives during it)"}[a.Value == 1])
		}
		cs = append(cs, Case{ID: "history/witness-" + m.ID, Section: m.Section, Input: w.in,
			Description: fmt.Sprintf("the walk that exposes %s (%s): %s; the walk as the rules decide it", m.ID, m.Rule, strings.Join(acts, ", "))})
	}
	u := history.DefaultUniverse()
	for i := range historyWalks {
		rng := rand.New(rand.NewPCG(uint64(i), historyWalkSeed))
		cfg := u.Round
		if i%4 == 3 {
			// Larger pages and budgets, and an overlap: the seam of a warm open.
			cfg = history.Config{PageWraps: 2, CatchUpPages: 2, LoadOlderPages: 3, OverlapMs: 1}
		}
		w := newHistWorld(cfg)
		desc, err := randomWalk(rng, w)
		if err != nil {
			return nil, err
		}
		cs = append(cs, Case{ID: fmt.Sprintf("history/walk-%02d", i), Section: secHistory, Input: w.in,
			Description: fmt.Sprintf("a seeded walk (page %d, budgets %d/%d, overlap %d): %s", cfg.PageWraps, cfg.CatchUpPages, cfg.LoadOlderPages, cfg.OverlapMs, desc)})
	}
	return cs, nil
}

// randomWalk draws 5 to 10 actions of the universe's alphabet, rounds
// most often, each relay behaviour drawn as the universe's combinations
// are (at most one relay other than answering).
func randomWalk(rng *rand.Rand, w *histWorld) (string, error) {
	modes := []string{"auth-then-answers", "refuses", "silent", "auth-fails", "silent@1"}
	var acts []string
	for range 5 + rng.IntN(6) {
		var name, ctx string
		var value int64
		switch k := rng.IntN(10); {
		case k < 2:
			name, ctx = "publish", []string{"relay0", "relay1", "both"}[rng.IntN(3)]
		case k == 2:
			name = "live"
		case k == 3:
			name = "rekey"
		default:
			name = []string{"catch-up", "older"}[rng.IntN(3)/2]
			b := []string{"answers", "answers"}
			if rng.IntN(2) == 0 {
				b[rng.IntN(2)] = modes[rng.IntN(len(modes))]
			}
			ctx = fmt.Sprintf("relay0=%s relay1=%s", b[0], b[1])
			value = int64(rng.IntN(3) / 2)
		}
		if err := w.action(name, ctx, value); err != nil {
			return "", err
		}
		a := strings.TrimSpace(name + " " + ctx)
		if value == 1 {
			a += " (a wrap arrives during it)"
		}
		acts = append(acts, a)
	}
	return strings.Join(acts, ", "), nil
}
