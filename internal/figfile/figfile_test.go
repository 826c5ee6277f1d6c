package figfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTB records failures instead of failing the real test, so the
// comparison's verdicts can be asserted.
type fakeTB struct {
	testing.TB
	errs []string
}

func (f *fakeTB) Helper()                   {}
func (f *fakeTB) Errorf(s string, a ...any) { f.errs = append(f.errs, s) }
func (f *fakeTB) Fatalf(s string, a ...any) { f.errs = append(f.errs, s) }
func (f *fakeTB) Fatal(a ...any)            { f.errs = append(f.errs, "fatal") }

func TestCheckComparesByteForByte(t *testing.T) {
	path := filepath.Join(t.TempDir(), "figures", "x.txt")
	tb := &fakeTB{TB: t}
	Check(tb, path, []byte("a 1\n"), false)
	if len(tb.errs) != 1 {
		t.Fatalf("a missing file must fail once, got %v", tb.errs)
	}
	Check(tb, path, []byte("a 1\n"), true)
	if data, err := os.ReadFile(path); err != nil || string(data) != "a 1\n" {
		t.Fatalf("update wrote %q, %v", data, err)
	}
	tb.errs = nil
	Check(tb, path, []byte("a 1\n"), false)
	if len(tb.errs) != 0 {
		t.Fatalf("equal bytes failed: %v", tb.errs)
	}
	Check(tb, path, []byte("a 1"), false)
	if len(tb.errs) != 1 {
		t.Fatalf("a missing final newline must fail, got %v", tb.errs)
	}
}

func TestDiffNamesTheMovedLine(t *testing.T) {
	d := diff("| a | 1 |\n| b | 2 |\n", "| a | 1 |\n| b | 3 |\n")
	if !strings.Contains(d, "- | b | 2 |") || !strings.Contains(d, "+ | b | 3 |") || strings.Contains(d, "| a |") {
		t.Fatalf("diff:\n%s", d)
	}
}

func TestFiguresOneFilePerTest(t *testing.T) {
	if p := Path("TestX/sub"); p != filepath.Join("testdata", "figures", "TestX-sub.txt") {
		t.Fatalf("path %s", p)
	}
	f := &Figures{}
	f.Line("  | a | 1 |  ")
	f.Line("b 2")
	if got := string(f.Bytes()); got != "| a | 1 |\nb 2\n" {
		t.Fatalf("bytes %q", got)
	}
}
