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
	state := model.MergeBlobs(model.Spec(), blob)
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

// TestReadmeParsingExample keeps the README's "Parsing a blob" snippet true:
// every line of it must appear in ExampleParseBlob, which runs as a test.
func TestReadmeParsingExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "### Parsing a blob")
	if !ok {
		t.Fatal(`README.md has no "### Parsing a blob" section`)
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
		if !strings.Contains(string(self), line) {
			t.Errorf("README line %q is not in ExampleParseBlob", line)
		}
	}
	if lines < 5 {
		t.Fatalf("README snippet has only %d lines", lines)
	}
}
