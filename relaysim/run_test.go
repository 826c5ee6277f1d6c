package relaysim

import (
	"testing"

	"github.com/nip-rs/harness/model"
)

func TestRunConformant(t *testing.T) {
	r := New(Conformant(3))
	for i := range 5 {
		r.Publish(ev(slot(i), int64(100+i), ""))
		r.Publish(ev("app:"+slot(i), int64(200+i), ""))
	}
	l, err := model.NewLoad(model.LoadConfig{PubKey: pk, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Connect()
	res := Run(l, c)
	if res.Verdict != model.Complete || len(res.Events) != 5 {
		t.Fatalf("%s (%s), %d coordinates", res.Verdict, res.Detail, len(res.Events))
	}
	// Foreign events at 200..204 are ignored but counted wherever they are
	// delivered: 3 by the fence's stored part, 3 by the first band, 1 by
	// the pinned window at 202 and 2 by the continuation below it.
	if res.Stats.Ignored != 9 {
		t.Fatalf("ignored %d, want 9", res.Stats.Ignored)
	}
	if c.Stats.REQs != res.Stats.REQs || c.Stats.Events != res.Stats.Received {
		t.Fatalf("relay saw %+v, load %+v", c.Stats, res.Stats)
	}
	if c.Inbound() != 0 || c.Outbound() != 0 {
		t.Fatal("Run left messages")
	}
}
