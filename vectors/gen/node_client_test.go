package gen

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
// runner and the full profile (raw registers of register scripts compared
// too), none skipped and none failed. Skipped where node is not
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
	// Under full, named rather than left to the default, so that a
	// NIPRS_PROFILE in the environment cannot narrow what is compared.
	out, ok := runNode(t, node, "NIPRS_CLIENT="+client, "NIPRS_KINDS="+strings.Join(exampleClientKinds, ","), "NIPRS_PROFILE="+ProfileFull)
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

// canonicalStoreAdapter wraps the example client so that its register
// scripts report no raw registers, as a client storing registers
// canonically would leave them out.
const canonicalStoreAdapter = `import { register as full } from "./index.mjs";
export { codec, load } from "./index.mjs";
export function register(input) {
  const out = full(input);
  for (const step of out.after ?? []) delete step.registers;
  return out;
}
`

// TestNodeExampleClientCanonicalStore: the example client without its raw
// registers passes every register vector under the canonical-store profile
// and fails register scripts under full, so the observable members alone
// (contexts, candidate, needs_republish, error) carry the scripts under that
// profile, and full does compare the raw registers.
func TestNodeExampleClientCanonicalStore(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the JavaScript example client is not exercised")
	}
	src := filepath.Join(vectorsDir(t), "examples", "client")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	adapter := filepath.Join(dst, "canonical-store.mjs")
	if err := os.WriteFile(adapter, []byte(canonicalStoreAdapter), 0o644); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, f := range committed(t) {
		if f.Kind == "register" {
			want = len(f.Vectors)
		}
	}
	out, ok := runNode(t, node, "NIPRS_CLIENT="+adapter, "NIPRS_KINDS=register", "NIPRS_PROFILE="+ProfileCanonicalStore)
	pass, fail, skipped := tapCount(t, out, "pass"), tapCount(t, out, "fail"), tapCount(t, out, "skipped")
	if !ok || fail != 0 || skipped != 0 || pass != want || want == 0 {
		t.Fatalf("example client without registers under %s: %d passed, %d failed, %d skipped, want %d passed:\n%s",
			ProfileCanonicalStore, pass, fail, skipped, want, failures(out))
	}
	out, ok = runNode(t, node, "NIPRS_CLIENT="+adapter, "NIPRS_KINDS=register", "NIPRS_PROFILE="+ProfileFull)
	if ok || !bytes.Contains(failures(out), []byte("register/script/")) {
		t.Fatalf("example client without registers passed the register scripts under %s:\n%s", ProfileFull, tail(out))
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
