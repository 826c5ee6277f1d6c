package relaycheck_test

import (
	"context"
	"testing"
	"time"

	"github.com/nip-rs/harness/internal/khatrutest"
	"github.com/nip-rs/harness/relaycheck"
)

func TestTryKhatru(t *testing.T) {
	for _, o := range []khatrutest.Options{{MaxLimit: 10}, {MaxLimit: 10, Conforming: true}} {
		r := startKhatru(t, o)
		start := time.Now()
		rep, err := relaycheck.Probe(context.Background(), r.URL, relaycheck.Options{SecretKey: probeSK, Base: probeBase, Timeout: 3 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s\n%s", time.Since(start), rep.Text())
	}
}
