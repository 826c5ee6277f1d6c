package main

import (
	"os"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/cli"
)

// TestReadmeLocalRelay: the README's localrelay command (its "Try
// relaycheck on a local relay" section), comment removed, serves a relay
// that stores and answers an event, and stops on an interrupt with exit
// 0. (cmd/relaycheck's tests run the section's probe line against the
// same relay.)
func TestReadmeLocalRelay(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "go run ./cmd/localrelay")
		if !ok {
			continue
		}
		rest, _, _ = strings.Cut(rest, "#")
		n++
		s := serve(t, strings.Fields(rest)...)
		if !wsURL.MatchString(s.url) {
			t.Fatalf("README %q: URL line %q", l, s.url)
		}
		publishAndRead(t, s.url, event(t, "readme"))
		if code := s.halt(t); code != cli.ExitOK {
			t.Fatalf("README %q: exit %d: %s", l, code, s.stderr)
		}
	}
	if n != 1 {
		t.Fatalf("%d localrelay commands in README.md, want 1", n)
	}
}
