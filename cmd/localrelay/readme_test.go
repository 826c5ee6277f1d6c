package main

import (
	"os"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/cli"
)

// readmeSection is the README's "Try relaycheck on a local relay" section:
// its lines up to the next heading.
func readmeSection(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "\n### Try relaycheck on a local relay\n")
	if !ok {
		t.Fatal("README.md has no section \"Try relaycheck on a local relay\"")
	}
	if i := strings.Index(rest, "\n#"); i >= 0 {
		rest = rest[:i]
	}
	return strings.Split(rest, "\n")
}

// TestReadmeLocalRelay: the section's localrelay command, comment
// removed, serves a relay that stores and answers an event, and stops on
// an interrupt with exit 0. (cmd/relaycheck's tests run the section's
// probe line against the same relay.)
func TestReadmeLocalRelay(t *testing.T) {
	n := 0
	for _, l := range readmeSection(t) {
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
		t.Fatalf("%d localrelay commands in the section, want 1", n)
	}
}
