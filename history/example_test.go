package history_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nip-rs/harness/history"
)

// ExampleRound opens a channel cold over one relay holding 120 wraps, then
// warm after 30 more arrived.
func ExampleRound() {
	relay := &history.Relay{}
	for i := range 120 {
		relay.Events = append(relay.Events, history.Event{ID: fmt.Sprintf("w%03d", i), CreatedAtMs: int64(i+1) * 1000})
	}
	store := history.NewMemoryStore()
	var saved history.Cursor // nothing held: a cold open
	round, err := history.NewRound(history.Defaults(), history.Spec(), saved, history.CatchUp, 1, store)
	if err != nil {
		panic(err)
	}
	for {
		page, ok := round.Next() // one page REQ: page.Window, page.Limit
		if !ok {
			break
		}
		for _, r := range page.Relays {
			round.Deliver(r, relay.Answer(page.Window, page.Limit)) // the relay's replay
			round.EOSE(r)
		}
		round.Timeout() // the page deadline: a relay still open is silent
	}
	saved, progress := round.Result() // persist saved
	fmt.Println(saved, len(progress.Pages), "pages")

	for i := range 30 {
		relay.Events = append(relay.Events, history.Event{ID: fmt.Sprintf("n%03d", i), CreatedAtMs: int64(200+i) * 1000})
	}
	round, _ = history.NewRound(history.Defaults(), history.Spec(), saved, history.CatchUp, 1, store)
	saved, progress = history.Drive(round, []*history.Relay{relay}, nil)
	fmt.Println(saved, progress.Pages[0].Window, store.Len(), "held")
	// Output:
	// newest=120000 oldest=1000 exhausted 3 pages
	// newest=229000 oldest=1000 exhausted [60000, -] 150 held
}

// TestReadmeSnippet: every line of the README's history snippet is in
// ExampleRound (blank runs squashed).
func TestReadmeSnippet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "### Paging a channel's history")
	_, code, ok2 := strings.Cut(section, "```go\n")
	code, _, ok3 := strings.Cut(code, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README.md has no history section with a go code block")
	}
	squash := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	lines := 0
	for _, line := range strings.Split(code, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		lines++
		if !strings.Contains(squash(string(self)), squash(line)) {
			t.Errorf("README line %q is not in example_test.go", line)
		}
	}
	if lines < 5 {
		t.Fatalf("the snippet has only %d lines", lines)
	}
}
