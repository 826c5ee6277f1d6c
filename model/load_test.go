package model

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

const testPK = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"

func slotD(i int) string { return fmt.Sprintf("read-state:%032x", i) }

// mkEv builds an unsigned kind 30078 event whose id is the hash of its
// serialisation; salt varies the content (and so the id).
func mkEv(d string, at int64, salt string) *nostr.Event {
	tags := nostr.Tags{{"d", d}}
	if strings.HasPrefix(d, DTagPrefix) {
		tags = append(tags, nostr.Tag{"t", "read-state"})
	}
	e := &nostr.Event{PubKey: testPK, CreatedAt: nostr.Timestamp(at), Kind: loadKind, Tags: tags, Content: salt}
	e.ID = e.GetID()
	return e
}

// pair returns two events at the same d tag and second, lower id first.
func pair(d string, at int64) (lo, hi *nostr.Event) {
	a, b := mkEv(d, at, "a"), mkEv(d, at, "b")
	if a.ID < b.ID {
		return a, b
	}
	return b, a
}

func newTestLoad(t *testing.T, n int, rules *Rules) *Load {
	t.Helper()
	l, err := NewLoad(LoadConfig{PubKey: testPK, Limit: n, Rules: rules, SubPrefix: "load", Nonce: testNonce})
	if err != nil {
		t.Fatal(err)
	}
	// The explicit prefix is held until the verdict: a test that leaves
	// its load running gives it up when it ends.
	t.Cleanup(func() { l.Abort("test over") })
	return l
}

// testNonce fixes the first band's until in unit tests: MaxCreatedAt-4.
const testNonce = 1

// relayStub answers a load's REQs from a fixed store with a fixed cap,
// newest first (ties by lowest id), in wire order and synchronously: the
// smallest conforming relay, for unit tests of the procedure.
type relayStub struct {
	store []*nostr.Event
	cap   int
	sent  []string // the load's messages, as text
}

func (r *relayStub) answer(o Out) []In {
	r.sent = append(r.sent, o.String())
	if o.Kind != OutREQ {
		return nil
	}
	var match []*nostr.Event
	for _, e := range r.store {
		if o.Filter.Matches(e) {
			match = append(match, e)
		}
	}
	sortNewest(match)
	lim := min(o.Filter.Limit, r.cap)
	if len(match) > lim {
		match = match[:lim]
	}
	var in []In
	for _, e := range match {
		in = append(in, In{Kind: InEvent, SubID: o.SubID, Event: e})
	}
	return append(in, In{Kind: InEOSE, SubID: o.SubID})
}

func sortNewest(es []*nostr.Event) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && newerFirst(es[j], es[j-1]); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

func newerFirst(a, b *nostr.Event) bool {
	if a.CreatedAt != b.CreatedAt {
		return a.CreatedAt > b.CreatedAt
	}
	return a.ID < b.ID
}

// run drives the load against the stub until it stops sending.
func (r *relayStub) run(l *Load) LoadResult {
	queue := l.Start()
	for len(queue) > 0 {
		o := queue[0]
		queue = queue[1:]
		for _, m := range r.answer(o) {
			queue = append(queue, l.Feed(m)...)
		}
	}
	return l.Result()
}

func TestLoadVerdicts(t *testing.T) {
	x := mkEv(slotD(1), 100, "x")
	y := mkEv(slotD(2), 90, "y")
	z := mkEv(slotD(3), 0, "z")
	lo, hi := pair(slotD(4), 50)
	foreign := func(at int64, i int) *nostr.Event { return mkEv(fmt.Sprintf("app:%d", i), at, "f") }
	plateau := []*nostr.Event{mkEv(slotD(5), 70, "p"), mkEv(slotD(6), 70, "p"), mkEv(slotD(7), 70, "p")}
	tests := []struct {
		name    string
		store   []*nostr.Event
		cap, n  int
		verdict Verdict
		reason  Reason
		second  nostr.Timestamp
		queries int
		coords  int
	}{
		{"empty relay", nil, 5, 10, Complete, ReasonNone, 0, 1, 0},
		{"single coordinate, single event: L=2 discharges it", []*nostr.Event{x}, 5, 10, Complete, ReasonNone, 0, 3, 1},
		{"single event at cap 2", []*nostr.Event{x}, 2, 2, Complete, ReasonNone, 0, 3, 1},
		{"two coordinates in one second, all delivered: C equals the pinned count", []*nostr.Event{lo, mkEv(slotD(9), 50, "q")}, 5, 10, CannotProveComplete, ReasonPlateau, 50, 2, 2},
		{"plateau above the cap", plateau, 2, 10, CannotProveComplete, ReasonPlateau, 70, 2, 2},
		{"plateau below the oldest band, cap bound mid-second", append([]*nostr.Event{x, y}, plateau...), 2, 10, CannotProveComplete, ReasonPlateau, 70, 4, 4},
		{"distinct seconds over several bands", []*nostr.Event{x, y, lo, foreign(80, 1), foreign(60, 2), foreign(40, 3)}, 2, 10, Complete, ReasonNone, 0, 7, 3},
		{"foreign page moves the cursor", []*nostr.Event{foreign(200, 1), foreign(150, 2), x}, 2, 10, Complete, ReasonNone, 0, 5, 1},
		{"second 0 discharged without until:-1", []*nostr.Event{x, z}, 5, 10, Complete, ReasonNone, 0, 2, 2},
		{"stale same-second version kept by the relay", []*nostr.Event{hi, lo, x}, 5, 10, Complete, ReasonNone, 0, 3, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &relayStub{store: tc.store, cap: tc.cap}
			res := r.run(newTestLoad(t, tc.n, nil))
			if res.Verdict != tc.verdict || res.Reason != tc.reason || res.Second != tc.second {
				t.Fatalf("verdict %s/%s second %d, want %s/%s second %d\n%s\n%s", res.Verdict, res.Reason, res.Second,
					tc.verdict, tc.reason, tc.second, res.Detail, strings.Join(r.sent, "\n"))
			}
			if res.Stats.Queries != tc.queries {
				t.Errorf("queries %d, want %d\n%s", res.Stats.Queries, tc.queries, strings.Join(r.sent, "\n"))
			}
			if len(res.Events) != tc.coords {
				t.Errorf("collected %d coordinates, want %d", len(res.Events), tc.coords)
			}
			for _, s := range r.sent {
				if strings.Contains(s, `"#`) || strings.Contains(s, `"until":-1`) {
					t.Errorf("forbidden query %s", s)
				}
			}
		})
	}
}

func TestLoadRetention(t *testing.T) {
	lo, hi := pair(slotD(1), 50)
	newer := mkEv(slotD(1), 51, "n")
	for _, order := range [][]*nostr.Event{{lo, hi, newer}, {newer, hi, lo}, {hi, newer, lo}} {
		l := newTestLoad(t, 10, nil)
		l.Start()
		for _, e := range order {
			l.Feed(In{Kind: InEvent, SubID: l.FenceID(), Event: e})
		}
		if got := l.Result().Events; len(got) != 1 || got[0] != newer {
			t.Fatalf("kept %v, want the newest", got)
		}
		l.Abort("next order") // gives up the explicit prefix for the next load
	}
	for _, order := range [][]*nostr.Event{{lo, hi}, {hi, lo}} {
		l := newTestLoad(t, 10, nil)
		l.Start()
		for _, e := range order {
			l.Feed(In{Kind: InEvent, SubID: l.FenceID(), Event: e})
		}
		if got := l.Result().Events; len(got) != 1 || got[0] != lo {
			t.Fatalf("kept %s, want the lowest id %s", got[0].ID, lo.ID)
		}
		l.Abort("next order")
	}
}

// script feeds messages and returns every message the load sent.
func script(l *Load, in ...In) []string {
	var out []string
	for _, o := range l.Start() {
		out = append(out, o.String())
	}
	for _, m := range in {
		for _, o := range l.Feed(m) {
			out = append(out, o.String())
		}
	}
	return out
}

func evIn(sub string, e *nostr.Event) In { return In{Kind: InEvent, SubID: sub, Event: e} }
func eoseIn(sub string) In               { return In{Kind: InEOSE, SubID: sub} }

func TestLoadFenceFirst(t *testing.T) {
	l := newTestLoad(t, 10, nil)
	out := l.Start()
	if len(out) != 1 || out[0].SubID != "load-fence" || out[0].Kind != OutREQ {
		t.Fatalf("start sent %v, want the fence REQ alone", out)
	}
	want := `{"kinds":[30078],"authors":["` + testPK + `"],"limit":10}`
	if got := out[0].Filter.String(); got != want {
		t.Fatalf("fence filter %s, want %s", got, want)
	}
	if l.Established() {
		t.Fatal("fence established before its EOSE")
	}
	got := l.Feed(eoseIn("load-fence"))
	first := `{"kinds":[30078],"authors":["` + testPK + `"],"until":4294967291,"limit":10}`
	if len(got) != 1 || got[0].SubID != "load-q1" || got[0].Filter.String() != first {
		t.Fatalf("after fence EOSE sent %v, want the first query on the fence's filter under the nonce's until", got)
	}
}

func TestLoadFenceNeverMovesCursorOrC(t *testing.T) {
	x := mkEv(slotD(1), 100, "x")
	w := mkEv(slotD(2), 95, "w")
	low := mkEv(slotD(3), 10, "low") // pushed below the cursor
	l := newTestLoad(t, 10, nil)
	out := script(l,
		eoseIn("load-fence"),
		evIn("load-q1", x), evIn("load-q1", w),
		evIn("load-fence", low), evIn("load-fence", mkEv("app:1", 5, "f")), evIn("load-fence", mkEv("app:2", 4, "f")),
		eoseIn("load-q1"),
	)
	if l.C() != 2 {
		t.Errorf("C = %d, want 2 (fence deliveries do not count)", l.C())
	}
	if ts, _ := l.Cursor(); ts != 95 {
		t.Errorf("T = %d, want 95 (fence deliveries do not move it)", ts)
	}
	last := out[len(out)-1]
	if !strings.Contains(last, `"since":95`) || !strings.Contains(last, `"until":95`) {
		t.Errorf("pinned window %s, want since=until=95", last)
	}
	if n := len(l.Result().Events); n != 3 {
		t.Errorf("collected %d coordinates, want 3 (fence deliveries are collected)", n)
	}
	if st := l.Result().Stats; st.Ignored != 2 || st.Fence != 3 || st.Received != 5 {
		t.Errorf("stats %+v", st)
	}
}

func TestLoadEndings(t *testing.T) {
	x := mkEv(slotD(1), 100, "x")
	other := x.CreatedAt - 1
	tests := []struct {
		name    string
		in      []In
		verdict Verdict
		reason  Reason
	}{
		{"connection lost before the fence EOSE", []In{{Kind: InConnectionLost}}, Failed, ReasonRelayFailure},
		{"fence refused", []In{{Kind: InClosed, SubID: "load-fence", Reason: "auth-required: x"}}, Failed, ReasonRelayFailure},
		{"connection lost after establishment", []In{eoseIn("load-fence"), {Kind: InConnectionLost}}, CannotProveComplete, ReasonFenceLapsed},
		{"fence closed mid-load", []In{eoseIn("load-fence"), evIn("load-q1", x), {Kind: InClosed, SubID: "load-fence", Reason: "error: shutting down"}}, CannotProveComplete, ReasonFenceLapsed},
		{"query refused", []In{eoseIn("load-fence"), {Kind: InClosed, SubID: "load-q1", Reason: "rate-limited:"}}, Failed, ReasonRelayFailure},
		{"query delivers outside its until", []In{eoseIn("load-fence"), evIn("load-q1", x), eoseIn("load-q1"), evIn("load-q2", x), eoseIn("load-q2"),
			evIn("load-q3", x)}, CannotProveComplete, ReasonNonConforming},
		{"pinned window delivers another second", []In{eoseIn("load-fence"), evIn("load-q1", x), eoseIn("load-q1"),
			evIn("load-q2", mkEv(slotD(2), int64(other), "o"))}, CannotProveComplete, ReasonNonConforming},
		{"more than the requested limit", []In{eoseIn("load-fence"), evIn("load-q1", x), evIn("load-q1", mkEv("a", 1, "1")), evIn("load-q1", mkEv("a", 1, "2")), eoseIn("load-q1")}, CannotProveComplete, ReasonNonConforming},
		{"id not the hash of the content", []In{evIn("load-fence", &nostr.Event{ID: x.ID, PubKey: testPK, Kind: loadKind, Content: "forged"})}, CannotProveComplete, ReasonNonConforming},
		{"short id", []In{evIn("load-fence", &nostr.Event{ID: "ab", PubKey: testPK, Kind: loadKind})}, CannotProveComplete, ReasonNonConforming},
		{"nil event", []In{evIn("load-fence", nil)}, CannotProveComplete, ReasonNonConforming},
		{"fence delivers another author", []In{evIn("load-fence", func() *nostr.Event {
			e := mkEv("a", 1, "1")
			e.PubKey = strings.Repeat("1", 64)
			e.ID = e.GetID()
			return e
		}())}, CannotProveComplete, ReasonNonConforming},
		{"events for unknown subscriptions are discarded", []In{evIn("other", x), eoseIn("other"), eoseIn("load-fence"), eoseIn("load-q1")}, Complete, ReasonNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newTestLoad(t, 2, nil)
			script(l, tc.in...)
			if r := l.Result(); r.Verdict != tc.verdict || r.Reason != tc.reason {
				t.Fatalf("%s/%s (%s), want %s/%s", r.Verdict, r.Reason, r.Detail, tc.verdict, tc.reason)
			}
			// No later observation changes a verdict.
			before := l.Result()
			if out := l.Feed(eoseIn("load-q9")); out != nil || l.Result().Verdict != before.Verdict {
				t.Fatal("a message after the verdict changed it")
			}
		})
	}
}

func TestLoadTerminalIgnoresLaterMessages(t *testing.T) {
	plateau := []*nostr.Event{mkEv(slotD(5), 70, "p"), mkEv(slotD(6), 70, "p")}
	l := newTestLoad(t, 2, nil)
	script(l, eoseIn("load-fence"), evIn("load-q1", plateau[0]), evIn("load-q1", plateau[1]), eoseIn("load-q1"),
		evIn("load-q2", plateau[0]), evIn("load-q2", plateau[1]), eoseIn("load-q2"))
	if l.Verdict() != CannotProveComplete {
		t.Fatalf("verdict %s", l.Verdict())
	}
	if out := l.Feed(eoseIn("load-q3")); len(out) != 0 || l.Verdict() != CannotProveComplete {
		t.Fatal("an empty continuation after a plateau upgraded the verdict")
	}
	if l.Feed(evIn("load-fence", mkEv(slotD(8), 1, "late"))); len(l.Result().Events) != 2 {
		t.Fatal("a delivery after the verdict was collected")
	}
}

func TestLoadKnownNonConforming(t *testing.T) {
	l, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 500, KnownNonConforming: true})
	if err != nil {
		t.Fatal(err)
	}
	if out := l.Start(); len(out) != 0 {
		t.Fatalf("sent %v to a relay known not to conform", out)
	}
	if r := l.Result(); r.Verdict != CannotProveComplete || r.Reason != ReasonNonConforming {
		t.Fatalf("%s/%s", r.Verdict, r.Reason)
	}
}

func TestNewLoadRejects(t *testing.T) {
	for _, tc := range []struct {
		pk   string
		n    int
		want error
	}{
		{testPK, 1, ErrLoadLimit},
		{testPK, 0, ErrLoadLimit},
		{strings.ToUpper(testPK), 10, ErrLoadPubKey},
		{testPK[:63], 10, ErrLoadPubKey},
	} {
		if _, err := NewLoad(LoadConfig{PubKey: tc.pk, Limit: tc.n}); !errors.Is(err, tc.want) {
			t.Errorf("NewLoad(%q, %d) = %v, want %v", tc.pk, tc.n, err, tc.want)
		}
	}
}

func TestLoadAbort(t *testing.T) {
	l := newTestLoad(t, 10, nil)
	script(l, eoseIn("load-fence"))
	out := l.Abort("timeout")
	if len(out) != 2 || out[0].String() != "CLOSE load-q1" || out[1].String() != "CLOSE load-fence" {
		t.Fatalf("abort sent %v", out)
	}
	if l.Verdict() != Failed || l.Running() {
		t.Fatalf("verdict %s", l.Verdict())
	}
}

func TestLoadWire(t *testing.T) {
	l := newTestLoad(t, 10, nil)
	out := l.Start()
	frame, err := out[0].Wire()
	if err != nil {
		t.Fatal(err)
	}
	want := `["REQ","load-fence",{"kinds":[30078],"authors":["` + testPK + `"],"limit":10}]`
	if string(frame) != want {
		t.Fatalf("frame %s, want %s", frame, want)
	}
	if f, _ := (Out{Kind: OutCLOSE, SubID: "s"}).Wire(); string(f) != `["CLOSE","s"]` {
		t.Fatalf("close frame %s", f)
	}
	x := mkEv(slotD(1), 100, "x")
	evFrame, _ := nostr.EventEnvelope{SubscriptionID: ptr("load-fence"), Event: *x}.MarshalJSON()
	for _, tc := range []struct {
		frame string
		want  In
		ok    bool
	}{
		{string(evFrame), In{Kind: InEvent, SubID: "load-fence", Event: x}, true},
		{`["EOSE","load-q1"]`, In{Kind: InEOSE, SubID: "load-q1"}, true},
		{`["CLOSED","load-q1","error: no"]`, In{Kind: InClosed, SubID: "load-q1", Reason: "error: no"}, true},
		{`["NOTICE","hi"]`, In{}, false},
		{`["EVENT"`, In{}, false},
		{`garbage`, In{}, false},
	} {
		got, ok := ParseIn([]byte(tc.frame))
		if ok != tc.ok || got.Kind != tc.want.Kind || got.SubID != tc.want.SubID || got.Reason != tc.want.Reason {
			t.Errorf("ParseIn(%s) = %v %v, want %v %v", tc.frame, got, ok, tc.want, tc.ok)
		}
		if tc.want.Event != nil && (got.Event == nil || got.Event.ID != tc.want.Event.ID) {
			t.Errorf("ParseIn(%s) event %v", tc.frame, got.Event)
		}
	}
}

func ptr[T any](v T) *T { return &v }
