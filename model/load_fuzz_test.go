package model

import (
	"bytes"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// FuzzLoadFrames feeds arbitrary relay frames, one per line, to a load:
// nothing panics, every message the load answers with is well formed, and
// once it has a verdict the verdict never changes.
func FuzzLoadFrames(f *testing.F) {
	x := mkEv(slotD(1), 100, "x")
	evFrame, _ := nostr.EventEnvelope{SubscriptionID: ptr("load-q1"), Event: *x}.MarshalJSON()
	f.Add([]byte(`["EOSE","load-fence"]` + "\n" + string(evFrame) + "\n" + `["EOSE","load-q1"]` + "\n" + `["EOSE","load-q2"]` + "\n" + `["EOSE","load-q3"]`))
	f.Add([]byte(`["EOSE","load-fence"]` + "\n" + `["CLOSED","load-fence","error: x"]`))
	f.Add([]byte(`["EVENT","load-fence",{"id":"00","kind":30078}]` + "\n" + `["EOSE","load-fence"]`))
	f.Add([]byte(`["NOTICE","x"]` + "\n" + `[` + "\n" + `["EOSE"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2, SubPrefix: "load"})
		if err != nil {
			t.Fatal(err)
		}
		check := func(outs []Out) {
			for _, o := range outs {
				if _, err := o.Wire(); err != nil {
					t.Fatalf("malformed outgoing %v: %v", o, err)
				}
				if o.Kind == OutREQ && (o.Filter.Limit != 2 || len(o.Filter.Tags) != 0) {
					t.Fatalf("query %s", o.Filter)
				}
			}
		}
		check(l.Start())
		final := Running
		for _, line := range bytes.Split(data, []byte("\n")) {
			if m, ok := ParseIn(line); ok {
				check(l.Feed(m))
			}
			if final != Running && l.Verdict() != final {
				t.Fatalf("verdict changed from %s to %s", final, l.Verdict())
			}
			final = l.Verdict()
		}
		l.Feed(In{Kind: InConnectionLost})
		if l.Verdict() == Running {
			t.Fatal("a lost connection left the load running")
		}
	})
}
