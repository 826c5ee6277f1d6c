package relaycheck_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/relaycheck"
	"github.com/nip-rs/harness/relaysim"
)

// unreadConn hides every event delivered to the barrier's by-id queries:
// no query ever reads the racing write, so no barrier trial is exercised.
type unreadConn struct{ relaycheck.Transport }

func (c unreadConn) ReadMessage(ctx context.Context, buf io.Writer) error {
	for {
		var b bytes.Buffer
		if err := c.Transport.ReadMessage(ctx, &b); err != nil {
			return err
		}
		if e, ok := nostr.ParseMessage(b.Bytes()).(*nostr.EventEnvelope); ok && e.SubscriptionID != nil && strings.HasPrefix(*e.SubscriptionID, "bar-") {
			continue
		}
		_, err := buf.Write(b.Bytes())
		return err
	}
}

// TestBarrierNeverExercisedIsUnknown: a relay whose by-id queries never
// read the racing write gives the barrier check no exercised trial; every
// trial up to the cap ran, and the check says unknown with no rate bound,
// never conforms.
func TestBarrierNeverExercisedIsUnknown(t *testing.T) {
	const trials = 3
	srv := relaysim.NewServer(relaysim.New(relaysim.Conformant(10)))
	rep, err := relaycheck.Probe(context.Background(), "ws://relaysim", relaycheck.Options{SecretKey: probeSK, Base: probeBase,
		Timeout: time.Second, BarrierTrials: trials,
		Dial: func(ctx context.Context, url string) (relaycheck.Transport, error) {
			c, err := srv.Dial(ctx, url)
			if err != nil {
				return nil, err
			}
			return unreadConn{c}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range rep.Checks {
		if c.ID != "barrier" {
			continue
		}
		found = true
		if c.Verdict != relaycheck.Unknown || c.Trials != trials || c.Exercised != 0 || c.RateBound != 0 || !strings.Contains(c.Detail, "never exercised") {
			t.Fatalf("barrier: %s, %d trials, %d exercised, rate bound %v (%s); want unknown after %d trials, none exercised, no bound",
				c.Verdict, c.Trials, c.Exercised, c.RateBound, c.Detail, trials)
		}
	}
	if !found {
		t.Fatal("the probe ran no barrier check")
	}
}
