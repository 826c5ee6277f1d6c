package vectorgen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// exampleClientKinds are the kinds the JavaScript client of
// vectors/examples/client implements, and minExampleClientPasses the
// fewest of their vectors it must pass: the committed files hold 1,052
// today, and a regeneration that dropped most of them would otherwise
// leave this test passing on little.
var exampleClientKinds = []string{"codec", "register", "load"}

const minExampleClientPasses = 1000

// TestNodeExampleClient: the JavaScript client written from NIP-RS.md and
// the README passes every vector of the kinds it implements under the node
// runner, none skipped and none failed. Skipped where node is not
// installed.
func TestNodeExampleClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the JavaScript example client is not exercised")
	}
	want := 0
	for _, f := range committed(t) {
		for _, k := range exampleClientKinds {
			if f.Kind == k {
				want += len(f.Vectors)
			}
		}
	}
	if want < minExampleClientPasses {
		t.Fatalf("the committed files hold %d vectors of %v, fewer than the %d this test is stated for", want, exampleClientKinds, minExampleClientPasses)
	}
	client := filepath.Join(vectorsDir(t), "examples", "client", "index.mjs")
	out, ok := runNode(t, node, "NIPRS_CLIENT="+client, "NIPRS_KINDS="+strings.Join(exampleClientKinds, ","))
	pass, fail, skipped := tapCount(t, out, "pass"), tapCount(t, out, "fail"), tapCount(t, out, "skipped")
	if !ok || fail != 0 || skipped != 0 || pass != want {
		t.Fatalf("example client over %v: %d passed, %d failed, %d skipped, want %d passed and nothing else:\n%s",
			exampleClientKinds, pass, fail, skipped, want, failures(out))
	}
}

// TestNodeExampleClientTeeth: the same client with clear-wins turned into
// set-wins (S == C live) fails register vectors, so the passing run above
// says something about the rules the client implements.
func TestNodeExampleClientTeeth(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the JavaScript example client is not exercised")
	}
	src := filepath.Join(vectorsDir(t), "examples", "client")
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "register.mjs" {
			const clearWins = `(tie === "set" ? s >= c : s > c)`
			if !bytes.Contains(b, []byte(clearWins)) {
				t.Fatalf("register.mjs no longer spells the tie rule as %s: update the mutation", clearWins)
			}
			b = bytes.Replace(b, []byte(clearWins), []byte(`s >= c`), 1)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, ok := runNode(t, node, "NIPRS_CLIENT="+filepath.Join(dst, "index.mjs"), "NIPRS_KINDS=register")
	if ok || tapCount(t, out, "fail") == 0 {
		t.Fatalf("a set-wins client passed every register vector:\n%s", tail(out))
	}
}

// failures keeps the lines of node's report that name a failed vector.
func failures(out []byte) []byte {
	var b bytes.Buffer
	for _, line := range bytes.Split(out, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("not ok")) {
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	if b.Len() == 0 {
		return tail(out)
	}
	return tail(b.Bytes())
}
