package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// tapCount reads a "# <name> N" summary line of node's TAP reporter.
func tapCount(t *testing.T, out []byte, name string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^# ` + name + ` (\d+)$`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no %q line in node's report:\n%s", name, tail(out))
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[len(b)-2000:]
	}
	return b
}

// runNode runs the example runner with env added, returning its TAP
// output and whether it exited 0.
func runNode(t *testing.T, node string, env ...string) ([]byte, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=tap", filepath.Join(vectorsDir(t), "examples"))
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("node did not finish: %v", ctx.Err())
	}
	return out, err == nil
}

// TestNodeExample: the node runner of vectors/examples reads the load and
// history files and compares what an adapter returns with the expected
// output: an adapter whose history function answers nothing fails every
// history vector, and its missing load function skips every load vector.
// Skipped where node is not installed.
func TestNodeExample(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the node runner of vectors/examples is not exercised")
	}
	counts := map[string]int{}
	for _, f := range committed(t) {
		counts[f.Kind] = len(f.Vectors)
	}
	adapter := filepath.Join(t.TempDir(), "adapter.mjs")
	if err := os.WriteFile(adapter, []byte("export function history(input) { return []; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, ok := runNode(t, node, "NIPRS_CLIENT="+adapter, "NIPRS_KINDS=history,load")
	if ok || tapCount(t, out, "fail") != counts["history"] || tapCount(t, out, "skipped") != counts["load"] || tapCount(t, out, "pass") != 0 {
		t.Fatalf("an adapter answering [] to history: want %d failed, %d skipped:\n%s", counts["history"], counts["load"], tail(out))
	}
}

// TestNodeTextOnly: with NIPRS_RULES=spec the node runner skips exactly
// the vectors that carry a proposals member, and runs every other one.
func TestNodeTextOnly(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the node runner of vectors/examples is not exercised")
	}
	var total, proposed int
	for _, f := range committed(t) {
		if f.Kind != "load" {
			continue
		}
		for _, v := range f.Vectors {
			total++
			if len(v.Proposals) > 0 {
				proposed++
			}
		}
	}
	if proposed == 0 || proposed == total {
		t.Fatalf("%d of %d load vectors carry proposals: the test shows nothing", proposed, total)
	}
	adapter := filepath.Join(t.TempDir(), "adapter.mjs")
	if err := os.WriteFile(adapter, []byte("export function load(input) { return {}; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := runNode(t, node, "NIPRS_CLIENT="+adapter, "NIPRS_KINDS=load", "NIPRS_RULES=spec")
	if tapCount(t, out, "skipped") != proposed || tapCount(t, out, "fail") != total-proposed {
		t.Fatalf("NIPRS_RULES=spec: want %d skipped, %d run:\n%s", proposed, total-proposed, tail(out))
	}
}
