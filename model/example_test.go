package model_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
)

// Parsing a decrypted blob: the kept wire entries, what was dropped and why,
// and the merged state they decode to.
func ExampleParseBlob() {
	plaintext := []byte(`{"v":1,"client_id":"phone","contexts":{
		"chan-1":100,
		"ov_s:chan-1":1,"ov_c:chan-1":0,"ov_b:chan-1":100,
		"chan-2":"yesterday",
		"ov_s:chan-3":1
	}}`)
	blob, report, err := model.ParseBlob(plaintext) // decrypted NIP-44 content
	switch {
	case errors.Is(err, model.ErrUnknownVersion):
		return // ignore: a later schema
	case err != nil:
		fmt.Println("discard:", err)
		return
	}
	for _, e := range blob.Contexts {
		fmt.Printf("keep %s = %d\n", e.Key, e.Value)
	}
	for _, d := range report.Drops {
		fmt.Println("drop", d)
	}
	state := model.MergeBlobs(model.Proposed(), blob)
	fmt.Println("chan-1 register:", state.Regs["chan-1"])

	_, _, err = model.ParseBlob([]byte(`{"v":1,"contexts":{}}`))
	fmt.Println(err)
	// Output:
	// keep chan-1 = 100
	// keep ov_b:chan-1 = 100
	// keep ov_c:chan-1 = 0
	// keep ov_s:chan-1 = 1
	// drop chan-2: value is a string, not an integer
	// drop ov_s:chan-3: override group rejected: override group is neither a complete live triple nor a lone ov_c floor
	// chan-1 register: (1,0,100)
	// invalid blob: client_id is missing
}

// TestReadmeSnippets keeps the README's Go snippets true: every line of a
// snippet must appear in the example that runs it as a test (blank runs
// squashed, so gofmt's comment alignment does not matter).
func TestReadmeSnippets(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ heading, file string }{
		{"## Using the core", "example_replica_test.go"},
		{"### Parsing a blob", "example_test.go"},
	} {
		self, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		_, section, ok := strings.Cut(string(readme), tc.heading)
		if !ok {
			t.Fatalf("README.md has no %q section", tc.heading)
		}
		_, code, ok := strings.Cut(section, "```go\n")
		code, _, ok2 := strings.Cut(code, "```")
		if !ok || !ok2 {
			t.Fatalf("%q has no go code block", tc.heading)
		}
		lines := 0
		for _, line := range strings.Split(code, "\n") {
			if line = strings.TrimSpace(line); line == "" {
				continue
			}
			lines++
			if !strings.Contains(squash(string(self)), squash(line)) {
				t.Errorf("README line %q is not in %s", line, tc.file)
			}
		}
		if lines < 5 {
			t.Fatalf("%q snippet has only %d lines", tc.heading, lines)
		}
	}
}

// squash collapses runs of blanks.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
