package gen

import (
	"encoding/json"
	"fmt"

	"github.com/nip-rs/harness/history"
)

const secHistory = "community-history-sync (a channel round over page subscriptions, failure semantics, cursors)"

// histInput is a channel's history walk over scripted relays: rounds,
// wraps the live subscription stores, and rekeys, in order, starting from
// an empty store and no saved cursor.
type histInput struct {
	Config histConfig `json:"config"`
	Relays int        `json:"relays"`
	Steps  []histStep `json:"steps"`
}

type histConfig struct {
	PageWraps      int   `json:"page_wraps"`
	CatchUpPages   int   `json:"catch_up_pages"`
	LoadOlderPages int   `json:"load_older_pages"`
	OverlapMs      int64 `json:"overlap_ms"`
}

// histStep is live (the live subscription stores Wraps), rekey (a rekey
// adoption changed the channel's planes) or round (Intent catch-up or
// older, each page answered as Pages says, page by page).
type histStep struct {
	Do     string     `json:"do"`
	Wraps  []histWrap `json:"wraps,omitempty"`
	Intent string     `json:"intent,omitempty"`
	Pages  []histPage `json:"pages,omitempty"`
}

type histWrap struct {
	ID        string `json:"id"`
	CreatedAt int64  `json:"created_at"`
}

// histPage is how the relays answer one page: wraps the live
// subscription stores before they answer, then each relay's messages by
// relay number (a relay not asked ignores its own), then the page's
// deadline passes.
type histPage struct {
	Live   []histWrap  `json:"live,omitempty"`
	Relays [][]histMsg `json:"relays"`
}

// histMsg is one relay message about the page: events (wraps), eose,
// closed (a CLOSED with Reason) or auth_failed (the AUTH handshake
// failed with Reason).
type histMsg struct {
	Type   string     `json:"type"`
	Wraps  []histWrap `json:"wraps,omitempty"`
	Reason string     `json:"reason,omitempty"`
}

type histWindow struct {
	Since *int64 `json:"since,omitempty"`
	Until *int64 `json:"until,omitempty"`
}

type histCursor struct {
	Newest    *int64      `json:"newest,omitempty"`
	Oldest    *int64      `json:"oldest,omitempty"`
	Exhausted bool        `json:"exhausted,omitempty"`
	Pending   *histWindow `json:"pending,omitempty"`
}

type histPageOut struct {
	Pass string `json:"pass"`
	histWindow
	Limit  int   `json:"limit"`
	Relays []int `json:"relays"`
}

type histError struct {
	Relay  int    `json:"relay"`
	Kind   string `json:"kind"`
	Reason string `json:"reason,omitempty"`
}

// histAfter is a step's outcome: the cursor to persist, and for a round
// the pages it asked and its account of itself.
type histAfter struct {
	Cursor    histCursor    `json:"cursor"`
	Pages     []histPageOut `json:"pages,omitempty"`
	Fetched   int           `json:"fetched,omitempty"`
	Stored    int           `json:"stored,omitempty"`
	Failed    bool          `json:"failed,omitempty"`
	Exhausted bool          `json:"exhausted,omitempty"`
	Errors    []histError   `json:"errors,omitempty"`
	// Truncated: the round asked more pages than maxHistPages.
	Truncated bool `json:"truncated,omitempty"`
}

// maxHistPages bounds a round's pages when replaying under a rule set
// that would not stop.
const maxHistPages = 200

func ptr(v int64) *int64 { return &v }

func windowOut(w history.Window) histWindow {
	var o histWindow
	if w.HasSince {
		o.Since = ptr(w.SinceMs)
	}
	if w.HasUntil {
		o.Until = ptr(w.UntilMs)
	}
	return o
}

func cursorOut(c history.Cursor) histCursor {
	o := histCursor{Exhausted: c.Exhausted}
	if c.HasNewest {
		o.Newest = ptr(c.NewestMs)
	}
	if c.HasOldest {
		o.Oldest = ptr(c.OldestMs)
	}
	if c.Pending != nil {
		w := windowOut(*c.Pending)
		o.Pending = &w
	}
	return o
}

func wrapsIn(ws []histWrap) []history.Event {
	out := make([]history.Event, len(ws))
	for i, w := range ws {
		out[i] = history.Event{ID: w.ID, CreatedAtMs: w.CreatedAt}
	}
	return out
}

func intentOf(s string) (history.Intent, error) {
	switch s {
	case history.CatchUp.String():
		return history.CatchUp, nil
	case history.Older.String():
		return history.Older, nil
	}
	return 0, fmt.Errorf("intent %q: want catch-up or older", s)
}

// runHistory replays a walk under rules.
func runHistory(rules *history.Rules, in histInput) ([]histAfter, error) {
	cfg := history.Config{PageWraps: in.Config.PageWraps, CatchUpPages: in.Config.CatchUpPages,
		LoadOlderPages: in.Config.LoadOlderPages, OverlapMs: in.Config.OverlapMs}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	store := history.NewMemoryStore()
	var cur history.Cursor
	var out []histAfter
	for i, s := range in.Steps {
		var a histAfter
		switch s.Do {
		case "live":
			for _, e := range wrapsIn(s.Wraps) {
				store.Add(e)
			}
		case "rekey":
			cur = rules.Rekey(cur)
		case "round":
			intent, err := intentOf(s.Intent)
			if err != nil {
				return nil, fmt.Errorf("step %d: %w", i, err)
			}
			r, err := history.NewRound(cfg, rules, cur, intent, in.Relays, store)
			if err != nil {
				return nil, fmt.Errorf("step %d: %w", i, err)
			}
			for k := 0; ; k++ {
				p, ok := r.Next()
				if !ok {
					break
				}
				if k == maxHistPages {
					a.Truncated = true
					break
				}
				if k < len(s.Pages) {
					if err := answerPage(r, p, s.Pages[k], store); err != nil {
						return nil, fmt.Errorf("step %d page %d: %w", i, k, err)
					}
				}
				r.Timeout()
			}
			var prog history.Progress
			cur, prog = r.Result()
			for _, p := range prog.Pages {
				a.Pages = append(a.Pages, histPageOut{Pass: p.Pass.String(), histWindow: windowOut(p.Window), Limit: p.Limit, Relays: append([]int{}, p.Relays...)})
			}
			a.Fetched, a.Stored, a.Failed, a.Exhausted = prog.Fetched, prog.Stored, prog.Failed, prog.Exhausted
			for _, e := range prog.Errors {
				a.Errors = append(a.Errors, histError{Relay: e.Relay, Kind: e.Kind, Reason: e.Reason})
			}
		default:
			return nil, fmt.Errorf("step %d: unknown step %q", i, s.Do)
		}
		a.Cursor = cursorOut(cur)
		out = append(out, a)
	}
	return out, nil
}

// answerPage feeds one page's script to the round: the live wraps, then
// each asked relay's messages in relay order.
func answerPage(r *history.Round, p history.Page, sp histPage, store history.Store) error {
	for _, e := range wrapsIn(sp.Live) {
		store.Add(e)
	}
	for _, i := range p.Relays {
		if i >= len(sp.Relays) {
			continue
		}
		for _, m := range sp.Relays[i] {
			switch m.Type {
			case "events":
				r.Deliver(i, wrapsIn(m.Wraps))
			case "eose":
				r.EOSE(i)
			case "closed":
				r.Closed(i, m.Reason)
			case "auth_failed":
				r.AuthFailed(i, m.Reason)
			default:
				return fmt.Errorf("relay %d: unknown message %q", i, m.Type)
			}
		}
	}
	return nil
}

func computeHistory(rules *history.Rules, raw json.RawMessage) (any, error) {
	var in histInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	if in.Relays < 1 || in.Relays > 16 {
		return nil, fmt.Errorf("relays %d: want 1..16", in.Relays)
	}
	return runHistory(rules, in)
}
