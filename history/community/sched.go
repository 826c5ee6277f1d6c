package community

// ChannelClock is the scheduler's state for one channel: whether a round
// runs, whether a request arrived during it, and the times of its last
// start and its last complete round (nil: never).
type ChannelClock struct {
	Running, Dirty bool
	LastStart      *int
	LastOK         *int
}

// Scheduler coalesces a community's round requests per channel and polls
// stale channels on an injected clock (seconds). It starts rounds by
// returning the channels to start; the caller runs them and reports Done.
type Scheduler struct {
	Chans []ChannelClock
}

func (s *Scheduler) start(ch, now int) {
	c := &s.Chans[ch]
	c.Running, c.Dirty = true, false
	t := now
	c.LastStart = &t
}

// Request is the panel asking for a round of ch (opening it, scrolling,
// an adoption): it reports whether a round starts now. A request during a
// round is remembered, not run beside it.
func (s *Scheduler) Request(r *Rules, ch, now int) bool {
	if ch < 0 || ch >= len(s.Chans) {
		return false
	}
	start, dirty := r.OnRequest(s.Chans[ch].Running)
	if dirty {
		s.Chans[ch].Dirty = true
	}
	if start {
		s.start(ch, now)
	}
	return start
}

// Done is ch's round ending at now, complete or not: it reports whether
// the coalesced follow-up starts now.
func (s *Scheduler) Done(r *Rules, ch, now int, complete bool) bool {
	if ch < 0 || ch >= len(s.Chans) {
		return false
	}
	c := &s.Chans[ch]
	c.Running = false
	if complete {
		t := now
		c.LastOK = &t
	}
	if r.FollowUp(c.Dirty) {
		s.start(ch, now)
		return true
	}
	c.Dirty = false
	return false
}

// Poll is the scheduler's timer at now: it starts every channel the rules
// pick among those idle, stale and past the minimum interval, and returns
// them in channel order.
func (s *Scheduler) Poll(r *Rules, now int) []int {
	var due []int
	for ch, c := range s.Chans {
		if !c.Running && r.Stale(now, c.LastOK) && r.Gate(now, c.LastStart) {
			due = append(due, ch)
		}
	}
	var out []int
	for _, ch := range r.Pick(due) {
		if ch >= 0 && ch < len(s.Chans) {
			s.start(ch, now)
			out = append(out, ch)
		}
	}
	return out
}
