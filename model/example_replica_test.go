package model_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// Two installations: a mark-unread travels as a live group, a mark-read on
// the other device travels back as a tombstone floor.
func ExampleReplica() {
	phone := model.NewReplica("phone")
	desk := model.NewReplica("desktop")

	phone.Advance("chan-1", 100) // natural read
	if err := phone.MarkUnread("chan-1"); err != nil {
		fmt.Println("refused:", err) // at the uint32 ceiling
	}
	desk.Receive(phone.Publish())    // live group: ov_s, ov_c, ov_b
	fmt.Println(desk.Live("chan-1")) // true

	if err := desk.MarkRead("chan-1", 150); err != nil {
		fmt.Println("failed:", err)
	}
	phone.Receive(desk.Publish()) // dead: the floor ov_c:chan-1 = 2
	fmt.Println(phone.Live("chan-1"), phone.Reg("chan-1"))
	// Output:
	// true
	// false (1,2,100)
}

// TestReadmeUsingTheCore keeps the README's "Using the core" snippet true:
// every line of it must appear in ExampleReplica, which runs as a test.
func TestReadmeUsingTheCore(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("example_replica_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Using the core")
	if !ok {
		t.Fatal(`README.md has no "## Using the core" section`)
	}
	_, code, ok := strings.Cut(section, "```go\n")
	code, _, ok2 := strings.Cut(code, "```")
	if !ok || !ok2 {
		t.Fatal("the section has no go code block")
	}
	lines := 0
	for _, line := range strings.Split(code, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		lines++
		if !strings.Contains(squash(string(self)), squash(line)) {
			t.Errorf("README line %q is not in ExampleReplica", line)
		}
	}
	if lines < 8 {
		t.Fatalf("README snippet has only %d lines", lines)
	}
}

// squash collapses runs of blanks, so gofmt's comment alignment does not
// matter.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
