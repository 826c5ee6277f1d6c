package history

import "slices"

// Mode is how a simulated relay treats the page REQs of a round.
type Mode int

const (
	Answers         Mode = iota // replays its stored wraps, then EOSE
	AuthThenAnswers             // CLOSED auth-required, then (after AUTH) answers the re-issued REQ
	Refuses                     // CLOSED with a reason other than auth-required
	Silent                      // never settles: the page's deadline passes
	AuthFails                   // CLOSED auth-required, then the AUTH handshake fails
	IgnoresWindow               // replays its newest wraps whatever the page's since and until
)

var modeNames = [...]string{"answers", "auth-then-answers", "refuses", "silent", "auth-fails", "ignores-window"}

func (m Mode) String() string {
	if m < 0 || int(m) >= len(modeNames) {
		return "mode?"
	}
	return modeNames[m]
}

// Fails reports whether the mode drops the relay out of a round.
func (m Mode) Fails() bool { return m == Refuses || m == Silent || m == AuthFails }

// FailKind is the failure a round must report for the mode.
func (m Mode) FailKind() string {
	switch m {
	case Refuses, AuthFails:
		return FailRefused
	case Silent:
		return FailSilent
	}
	return ""
}

// Relay is a simulated capped relay: the wraps it stores, the most it
// returns for one REQ (Cap, 0 for no cap below the REQ's limit), and how it
// treats a round's pages from page FromPage on (earlier pages it answers).
// Record, when set, is the capability record Drive gives the round (the
// largest limit the relay is known to answer in full). Strayed is set when
// the relay sent a wrap outside a page's window.
type Relay struct {
	Events   []Event
	Cap      int
	Mode     Mode
	FromPage int
	Record   int
	Strayed  bool
}

// Answer is what the relay replays for a filter: its newest wraps in w,
// at most min(limit, Cap).
func (rl *Relay) Answer(w Window, limit int) []Event {
	if rl.Cap > 0 {
		limit = min(limit, rl.Cap)
	}
	es := rl.Events
	if !slices.IsSortedFunc(es, newestFirst) {
		es = slices.Clone(es)
		SortNewestFirst(es)
	}
	return query(es, w, limit)
}

// Drive runs a round to its end against simulated relays. before, if set,
// runs after each page is planned and before its relays answer (index from
// 0): the place where wraps arrive during a round.
func Drive(r *Round, relays []*Relay, before func(page int)) (Cursor, Progress) {
	for i, rl := range relays {
		if rl.Record > 0 {
			_ = r.Record(i, rl.Record) // refused only once the round started: then the round runs without it
		}
	}
	for k := 0; ; k++ {
		p, ok := r.Next()
		if !ok {
			break
		}
		if before != nil {
			before(k)
		}
		for _, i := range p.Relays {
			if i < 0 || i >= len(relays) {
				continue
			}
			rl := relays[i]
			mode := rl.Mode
			if k < rl.FromPage {
				mode = Answers
			}
			switch mode {
			case Answers:
				r.Deliver(i, rl.Answer(p.Window, p.Limit))
				r.EOSE(i)
			case IgnoresWindow:
				es := rl.Answer(Window{}, p.Limit)
				for _, e := range es {
					rl.Strayed = rl.Strayed || !p.Window.Contains(e.CreatedAtMs)
				}
				r.Deliver(i, es)
				r.EOSE(i)
			case AuthThenAnswers:
				r.Closed(i, "auth-required: this relay serves members only")
				r.Deliver(i, rl.Answer(p.Window, p.Limit))
				r.EOSE(i)
			case Refuses:
				r.Closed(i, "blocked: not allowed to read")
			case AuthFails:
				r.Closed(i, "auth-required: this relay serves members only")
				r.AuthFailed(i, "authentication failed")
			}
		}
		r.Timeout()
	}
	return r.Result()
}
