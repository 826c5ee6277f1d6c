package relaysim

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// TestQueryPush: under QueryPush a query's end-of-stored-events waits in
// the push queue, and an event accepted meanwhile goes out on every open
// subscription it matches, the query's own included, ahead of it; without
// the knob the query's answer is whole before any push.
func TestQueryPush(t *testing.T) {
	for _, tc := range []struct {
		prof Profile
		want string
	}{
		{ConformantQueryPush(5), "EVENT fence a, EOSE fence, EVENT q a, EVENT fence b, EVENT q b, EOSE q"},
		{Conformant(5), "EVENT fence a, EOSE fence, EVENT q a, EOSE q, EVENT fence b, EVENT q b"},
	} {
		r := New(tc.prof)
		r.Publish(ev(slot(1), 100, "a"))
		c := r.Connect()
		c.Send(model.Out{Kind: model.OutREQ, SubID: "fence", Filter: filter(10, nil, nil)})
		_ = c.Process(0)
		c.Flush(c.Pushes())
		c.Send(model.Out{Kind: model.OutREQ, SubID: "q", Filter: filter(10, nil, nil)})
		_ = c.Process(0)
		r.Publish(ev(slot(2), 50, "b"))
		c.Flush(c.Pushes())
		var got []string
		for {
			m, ok := c.Next()
			if !ok {
				break
			}
			s := m.Kind.String() + " " + m.SubID
			if m.Event != nil {
				s += " " + m.Event.Content
			}
			got = append(got, s)
		}
		if strings.Join(got, ", ") != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.prof.Name, strings.Join(got, ", "), tc.want)
		}
	}
}
