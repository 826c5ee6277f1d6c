package history

// The walk's sizes, the reference client's numbers (community-history-sync.md,
// "A channel round over page subscriptions").
const (
	// PageWraps is the limit of every page REQ, per relay.
	PageWraps = 50
	// CatchUpPages bounds the bridge and the older pass of a catch-up round.
	CatchUpPages = 20
	// LoadOlderPages bounds the older pass of a scroll-up.
	LoadOlderPages = 6
	// CursorOverlapMs is how far below the saved newest a warm open starts,
	// so a wrap that reached a relay late near the seam is asked again.
	CursorOverlapMs int64 = 60_000
	// ClockSkewMs is how far ahead of local time the proposed walk still
	// asks for wraps (Proposed's Ceiling): a member's clock may run ahead
	// by this much; a wrap dated later waits until it is due.
	ClockSkewMs int64 = 600_000
	// MaxTimeMs is the latest created_at the walk reads (the last
	// millisecond of year 9999): a later one is outside every window, and
	// every bound the walk computes stays far from the int64 edges.
	MaxTimeMs int64 = 253_402_300_799_999
)

// Config sizes a round. Production uses Defaults; the exhaustive universe
// uses much smaller pages and budgets so that its bounded histories reach
// every pass.
type Config struct {
	PageWraps      int
	CatchUpPages   int
	LoadOlderPages int
	OverlapMs      int64
	// SkewMs is the clock skew a ceiling allows (rules with a Ceiling).
	SkewMs int64
}

// Defaults is the production configuration.
func Defaults() Config {
	return Config{PageWraps: PageWraps, CatchUpPages: CatchUpPages, LoadOlderPages: LoadOlderPages, OverlapMs: CursorOverlapMs, SkewMs: ClockSkewMs}
}

// Validate reports a configuration a round cannot run with.
func (c Config) Validate() error {
	switch {
	case c.PageWraps < 1:
		return errorf("page size %d: want at least 1", c.PageWraps)
	case c.CatchUpPages < 1 || c.LoadOlderPages < 1:
		return errorf("page budgets %d/%d: want at least 1 each", c.CatchUpPages, c.LoadOlderPages)
	case c.OverlapMs < 0 || c.OverlapMs > MaxTimeMs:
		return errorf("overlap %d: want 0..%d", c.OverlapMs, MaxTimeMs)
	case c.SkewMs < 0 || c.SkewMs > MaxTimeMs:
		return errorf("clock skew %d: want 0..%d", c.SkewMs, MaxTimeMs)
	}
	return nil
}

// Intent is why a round runs.
type Intent int

const (
	// CatchUp opens a channel: the newest page, the bridge, then a bounded
	// older walk.
	CatchUp Intent = iota
	// Older is a scroll-up: the older pass only, LoadOlderPages at most.
	Older
)

func (i Intent) String() string {
	if i == Older {
		return "older"
	}
	return "catch-up"
}
