package history

// What a round asks for and what it reports: pages, relay failures and
// its progress.

// Pass names the part of a round a page belongs to.
type Pass int

const (
	PassNewest Pass = iota // one page at Opening
	PassBridge             // down from the newest page to the saved newest
	PassRepair             // down a recorded pending region (Healing only)
	PassOlder              // below the saved oldest
)

var passNames = [...]string{"newest", "bridge", "repair", "older"}

func (p Pass) String() string { return passNames[p] }

// Passes lists every Pass in order (the vectors' vocabulary is generated
// from it).
func Passes() []Pass {
	ps := make([]Pass, len(passNames))
	for i := range ps {
		ps[i] = Pass(i)
	}
	return ps
}

// Page is one page REQ: its window and limit, sent to Relays.
type Page struct {
	Pass   Pass
	Window Window
	Limit  int
	Relays []int // shared with the round: read, do not change
	// Pinned: the window is one second, the oldest of the pass's previous
	// page, asked again (rules with Pin).
	Pinned bool
	// Probe: the pass's previous page asked again at a pinned page's
	// limit, to learn the relays' caps (rules with ProveCap).
	Probe bool
}

// Failure kinds of a relay in a round.
const (
	FailRefused = "refused" // a CLOSED the rules do not wait on
	FailSilent  = "silent"  // never settled before the page's deadline
	FailStray   = "stray"   // delivered a wrap outside the page's window
)

// FailKinds lists every failure kind a round reports, in the order above.
func FailKinds() []string { return []string{FailRefused, FailSilent, FailStray} }

// RelayError is one relay that dropped out of a round.
type RelayError struct {
	Relay  int
	Kind   string // FailRefused, FailSilent or FailStray
	Reason string
}

// Progress is a round's account of itself.
type Progress struct {
	Pages     []Page
	Fetched   int // wraps delivered by relays
	Stored    int // wraps new to the store
	Failed    bool
	Exhausted bool
	Errors    []RelayError
	// Unproven counts the seconds a pinned page could not prove complete
	// (a relay capped inside the second): the page they end is incomplete.
	Unproven int
	// UnprovenSeconds are those seconds, in the order reported.
	UnprovenSeconds []UnprovenSecond
}

// UnprovenSecond is a second a round could not prove complete, and the
// window of the page whose oldest second it was.
type UnprovenSecond struct {
	SecondMs int64
	Origin   Window
}
