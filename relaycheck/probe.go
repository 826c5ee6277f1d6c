package relaycheck

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// Options configures a probe run.
type Options struct {
	// Dial opens connections (DialWebsocket if nil).
	Dial Dialer
	// SecretKey signs the probe's events; empty draws a throwaway key.
	// A fixed key and Base make two runs send identical events.
	SecretKey string
	// Base is the second the probe's events are dated around; zero means
	// a day before now (the events must not be taken for live data).
	Base nostr.Timestamp
	// Timeout bounds each exchange (default 5 s); a push not seen within
	// it counts as not delivered.
	Timeout time.Duration
	// BarrierTrials caps the trials of each sequential check (push
	// delivery, the delivery barrier, atomic replacement; default 2000): a check that
	// reaches it before its bound ends unknown.
	BarrierTrials int
	// Confidence (default 0.95) and MaxRate (default DefaultMaxRate) are the
	// sequential checks' stopping rule: trials run until the exercised
	// ones bound the violation rate by MaxRate at Confidence.
	Confidence, MaxRate float64
	// Subscriptions is how many subscriptions the capacity check opens on
	// one connection at most (default 64).
	Subscriptions int
	// CollateralTimeout bounds each exchange of the malformed-d check
	// (default 2 s, at most Timeout): a relay that stalls on such an
	// event (sqlite3: ~35 s) leaves that check unknown.
	CollateralTimeout time.Duration
	// Progress, if set, receives one line per step (the command sends it
	// to stderr).
	Progress io.Writer
}

const kindAppData = 30078

// prober is one run's state: its two connections (a writer and a
// reader, so that pushes and query answers are read on the connection
// they belong to) and everything it published, for the cleanup.
type prober struct {
	opts      Options
	sk, pk    string
	base      nostr.Timestamp
	w, r      *Conn
	published []*nostr.Event
	rep       Report
	salt      int
	seq       sequential
	// answers is what the probe's queries refused to keep (checkAnswers).
	answers answerLog
	// cap is the relay's cap as checkCap measured it (0: not measured);
	// the checks that need events at one second size them to it.
	cap int
}

// Probe runs every check against the relay at url. It returns an error
// only when it cannot start (a connection refused, a bad option); a relay
// that misbehaves later gives unknown or violates verdicts instead.
func Probe(ctx context.Context, url string, opts Options) (Report, error) {
	if opts.Dial == nil {
		opts.Dial = DialWebsocket
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Second
	}
	if opts.BarrierTrials == 0 {
		opts.BarrierTrials = 2000
	}
	if opts.Confidence == 0 {
		opts.Confidence = DefaultConfidence
	}
	if opts.MaxRate == 0 {
		opts.MaxRate = DefaultMaxRate
	}
	if opts.Subscriptions == 0 {
		opts.Subscriptions = 64
	}
	if opts.CollateralTimeout <= 0 {
		opts.CollateralTimeout = min(2*time.Second, opts.Timeout)
	}
	seq := sequential{confidence: opts.Confidence, maxRate: opts.MaxRate, cap: opts.BarrierTrials}
	if err := seq.validate(); err != nil {
		return Report{}, err
	}
	if opts.Subscriptions < 3 || opts.Subscriptions > maxSubscriptions {
		return Report{}, fmt.Errorf("relaycheck: subscriptions %d, want 3 to %d", opts.Subscriptions, maxSubscriptions)
	}
	p := &prober{opts: opts, seq: seq, sk: opts.SecretKey, base: opts.Base,
		rep: Report{Relay: url, ProbeVersion: ProbeVersion, Date: time.Now().UTC().Truncate(time.Second)}}
	if p.sk == "" {
		p.sk = nostr.GeneratePrivateKey()
	}
	pk, err := nostr.GetPublicKey(p.sk)
	if err != nil {
		return Report{}, fmt.Errorf("relaycheck: secret key: %w", err)
	}
	p.pk = pk
	if p.base == 0 {
		p.base = nostr.Timestamp(time.Now().Add(-24 * time.Hour).Unix())
	}
	dctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	if p.w, err = Dial(dctx, opts.Dial, url); err != nil {
		return Report{}, fmt.Errorf("relaycheck: connect %s: %w", url, err)
	}
	defer p.w.Close()
	if p.r, err = Dial(dctx, opts.Dial, url); err != nil {
		return Report{}, fmt.Errorf("relaycheck: connect %s: %w", url, err)
	}
	defer p.r.Close()
	steps := []struct {
		name string
		run  func(context.Context) []Check
		race bool
	}{
		{"cap", p.checkCap, false},
		{"bounds", p.checkBounds, false},
		{"order", p.checkOrder, false},
		{"tags", p.checkTags, false},
		{"replacement", p.checkReplacement, false},
		{"fresh answers", p.checkFresh, false},
		{"push", p.checkPush, true},
		{"push to settled subscriptions", p.checkPushSettled, true},
		{"barrier", p.checkBarrier, true},
		{"atomic replacement", p.checkAtomic, true},
		{"subscriptions", p.checkSubs, false},
		// Last: a relay that stalls on a malformed d tag stalls whatever
		// follows.
		{"malformed d tags", p.checkCollateral, false},
	}
	for _, s := range steps {
		p.progress("probing %s", s.name)
		for _, c := range s.run(ctx) {
			if c.Trials == 0 && c.Verdict != Unknown && !s.race {
				c.Trials = 1 // decided by one exchange
			}
			c.Race = s.race
			p.rep.Checks = append(p.rep.Checks, c)
		}
	}
	p.rep.Checks = append(p.rep.Checks, p.checkAnswers())
	p.progress("deleting %d events", len(p.published))
	p.rep.Cleanup = p.cleanup(ctx)
	p.rep.BarrierTrials = opts.BarrierTrials
	p.rep.Confidence, p.rep.MaxRate, p.rep.Needed = seq.confidence, seq.maxRate, seq.needed()
	p.rep.finish()
	return p.rep, nil
}

func (p *prober) progress(format string, args ...any) {
	if p.opts.Progress != nil {
		fmt.Fprintf(p.opts.Progress, "relaycheck: "+format+"\n", args...)
	}
}

// event builds and signs a kind 30078 event of the probe's key.
func (p *prober) event(d string, at nostr.Timestamp, extra ...nostr.Tag) *nostr.Event {
	p.salt++
	ev := &nostr.Event{CreatedAt: at, Kind: kindAppData, Tags: append(nostr.Tags{{"d", d}}, extra...),
		Content: fmt.Sprintf("relaycheck %d", p.salt)}
	_ = ev.Sign(p.sk)
	return ev
}

// publish writes events and waits for each OK. It returns the accepted
// ones and, for the first refusal or failure, why.
func (p *prober) publish(ctx context.Context, evs ...*nostr.Event) ([]*nostr.Event, string) {
	return p.publishWithin(ctx, p.opts.Timeout, evs...)
}

// publishSettled is publish, then a wait of PushSettle: the checks that
// judge stored answers (cap, bounds, order, tags) must not meet a late
// broadcast of their own setup events. rely, whose broadcaster runs
// behind its acknowledgements, was seen to deliver a just-accepted event
// to a subscription opened right after it, inside the answer, which read
// as a tie order and a limit broken (1 run in 10).
func (p *prober) publishSettled(ctx context.Context, evs ...*nostr.Event) ([]*nostr.Event, string) {
	acc, why := p.publish(ctx, evs...)
	if why != "" {
		return acc, why
	}
	select {
	case <-time.After(PushSettle):
	case <-ctx.Done():
		return acc, ctx.Err().Error()
	}
	return acc, ""
}

// publishWithin is publish with each OK awaited at most d.
func (p *prober) publishWithin(ctx context.Context, d time.Duration, evs ...*nostr.Event) ([]*nostr.Event, string) {
	var ok []*nostr.Event
	for _, ev := range evs {
		c, cancel := context.WithTimeout(ctx, d)
		accepted, reason, err := p.w.Publish(c, ev, nil)
		cancel()
		p.published = append(p.published, ev)
		switch {
		case err != nil:
			return ok, fmt.Sprintf("publishing %s: %v", ev.ID[:8], err)
		case !accepted:
			return ok, fmt.Sprintf("relay refused %s: %s", ev.ID[:8], reason)
		}
		ok = append(ok, ev)
	}
	return ok, ""
}

// queryWithin runs one REQ on the reader connection within d and closes
// it.
func (p *prober) queryWithin(ctx context.Context, d time.Duration, sub string, f nostr.Filter) (Answer, error) {
	c, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	a, err := p.r.Query(c, sub, f, nil)
	if err == nil {
		p.note(sub, f, a, true)
	}
	if err == nil && !a.Refused {
		err = p.r.Unsub(c, sub)
	}
	return a, err
}

// query runs one REQ on the reader connection and closes it.
func (p *prober) query(ctx context.Context, sub string, f nostr.Filter) (Answer, error) {
	return p.queryWithin(ctx, p.opts.Timeout, sub, f)
}

func (p *prober) filter(limit int, since, until *nostr.Timestamp) nostr.Filter {
	return nostr.Filter{Kinds: []int{kindAppData}, Authors: []string{p.pk}, Limit: limit, Since: since, Until: until}
}

func ts(t nostr.Timestamp) *nostr.Timestamp { return &t }

// reqText is the REQ as sent, for evidence.
func reqText(sub string, f nostr.Filter) string {
	data, _ := (&nostr.ReqEnvelope{SubscriptionID: sub, Filters: nostr.Filters{f}}).MarshalJSON()
	return string(data)
}

func unknown(id string, req Requirement, why string) Check {
	return Check{ID: id, Requirement: req, Verdict: Unknown, Detail: why}
}

// failed is why an exchange gave no answer: an error or a CLOSED reason.
func failed(err error, a Answer) string {
	if err != nil {
		return err.Error()
	}
	return "CLOSED: " + a.Closed
}

// nip01Order sorts newest first, ties by lowest id.
func nip01Order(evs []*nostr.Event) []*nostr.Event {
	out := slices.Clone(evs)
	slices.SortFunc(out, func(a, b *nostr.Event) int {
		if a.CreatedAt != b.CreatedAt {
			return int(b.CreatedAt) - int(a.CreatedAt)
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

func ids(evs []*nostr.Event) []string {
	out := make([]string, 0, len(evs))
	for _, ev := range evs {
		out = append(out, ev.ID)
	}
	return out
}

func sameSet(a, b []*nostr.Event) bool {
	x, y := ids(a), ids(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}
