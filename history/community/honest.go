package community

// Progress is what a channel's last round and fold counted: wraps fetched,
// opened (readable under a held key), whether the round failed by the
// walk's verdict (an all-empty round is failed), and the relays that
// refused or stayed silent.
type Progress struct {
	Fetched, Opened int
	Failed          bool
	Errors          int
}

// Panel is what a channel with no rows to show tells the reader instead of
// "No messages yet": how many rows it shows, how many wraps it holds but
// cannot read, and whether relays could not be reached.
type Panel struct {
	Rows       int
	Unreadable int
	Unreached  bool
}

// State is the panel's one line: messages, "N can't be read yet",
// "couldn't reach the relays", or the empty room.
func (p Panel) State() string {
	switch {
	case p.Rows > 0:
		return "messages"
	case p.Unreadable > 0:
		return "unreadable"
	case p.Unreached:
		return "failed"
	}
	return "empty"
}

// honest is the document's phase 4: unreadable history is counted from
// what was fetched and not opened, a failed round is one where a relay
// could not be reached, and only what remains is an empty room. The walk's
// own failed verdict is not a reachability verdict (an all-empty round is
// failed), so it is not what the panel reads.
func honest(p Progress) Panel {
	return Panel{Rows: p.Opened, Unreadable: max(p.Fetched-p.Opened, 0), Unreached: p.Errors > 0}
}
