package peers_test

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/internal/testrelay/peers"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
)

const testSK = "00000000000000000000000000000000000000000000000000000000000000a7"

// TestEveryPeerServes: each of the eight peers starts on loopback over an
// empty store, acknowledges a publication, answers a query with it
// (a fresh store answered nothing before), and once stopped no longer
// accepts connections.
func TestEveryPeerServes(t *testing.T) {
	if got := len(peers.All()); got != 8 {
		t.Fatalf("%d peers, want 8: %v", got, peers.Names())
	}
	pk, _ := nostr.GetPublicKey(testSK)
	for _, p := range peers.All() {
		t.Run(p.Name, func(t *testing.T) {
			url, stop := p.Start(t, 10)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c, err := relaycheck.Dial(ctx, relaycheck.DialWebsocket, url)
			if err != nil {
				t.Fatal(err)
			}
			// A limit of its own: the JS relay's filter-result cache would
			// answer the same filter again from this empty snapshot.
			empty, err := c.Query(ctx, "empty", model.Spec().Load.EnumerationFilter(pk, 4), nil)
			if err != nil || empty.Refused || len(empty.Events) != 0 {
				t.Fatalf("a fresh store answered %d events (%v %s)", len(empty.Events), err, empty.Closed)
			}
			_ = c.Unsub(ctx, "empty")
			ev := &nostr.Event{CreatedAt: 1_700_000_000, Kind: model.KindReadState,
				Tags: nostr.Tags{{"d", "app:peers"}}, Content: p.Name}
			if err := ev.Sign(testSK); err != nil {
				t.Fatal(err)
			}
			if ok, why, err := c.Publish(ctx, ev, nil); err != nil || !ok {
				t.Fatalf("publish: %v %s", err, why)
			}
			a, err := c.Query(ctx, "mine", model.Spec().Load.EnumerationFilter(pk, 5), nil)
			if err != nil || a.Refused {
				t.Fatalf("query: %v %s", err, a.Closed)
			}
			if len(a.Events) != 1 || a.Events[0].ID != ev.ID {
				t.Fatalf("query answered %d events, want the one published", len(a.Events))
			}
			_ = c.Close()
			stop()
			stop() // a second stop does nothing
			host := strings.TrimPrefix(url, "ws://")
			if conn, err := net.DialTimeout("tcp", host, time.Second); err == nil {
				_ = conn.Close()
				t.Fatalf("%s still accepts connections at %s after stop", p.Name, host)
			}
		})
	}
}

// TestLookup: every name is found, in All's order, and an unknown one is
// not.
func TestLookup(t *testing.T) {
	want := []string{peers.KhatruSlicestore, peers.KhatruBadger, peers.KhatruLMDB, peers.KhatruSQLite3,
		peers.Rely, peers.KhatruNext, peers.JSRelay, peers.JSRelayNoCache}
	if !slices.Equal(peers.Names(), want) {
		t.Fatalf("names %v, want %v", peers.Names(), want)
	}
	for _, n := range want {
		if p, ok := peers.Lookup(n); !ok || p.Name != n || p.About == "" {
			t.Errorf("Lookup(%q) = %+v, %v", n, p, ok)
		}
	}
	if _, ok := peers.Lookup("strfry"); ok {
		t.Error("Lookup found a peer that does not exist")
	}
}

// TestNestedModulesStayOut: the nested modules (their own go.mod, a
// go-nostr the harness cannot share) are not packages of the root
// module, so `go vet ./...` and `go test ./...` never build them.
func TestNestedModulesStayOut(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH")
	}
	out, err := exec.Command(gotool, "list", "github.com/nip-rs/harness/internal/testrelay/peers/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	got := strings.Fields(string(out))
	want := []string{"github.com/nip-rs/harness/internal/testrelay/peers", "github.com/nip-rs/harness/internal/testrelay/peers/prepare"}
	if !slices.Equal(got, want) {
		t.Fatalf("the root module's packages under internal/testrelay/peers: %v, want %v", got, want)
	}
	for _, m := range []string{"rely", "khatrunext"} {
		cmd := exec.Command(gotool, "list", "-m", "-f", "{{.Path}}")
		cmd.Dir = m
		mod, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if got, want := strings.TrimSpace(string(mod)), fmt.Sprintf("github.com/nip-rs/harness/internal/testrelay/peers/%s", m); got != want {
			t.Errorf("%s is module %q, want %q", m, got, want)
		}
	}
}
