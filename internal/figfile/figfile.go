package figfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Check compares got with the file at path (relative to the test's
// package directory) byte for byte; with update it writes got there
// instead. A missing file is a failure that names the flag to write it.
func Check(tb testing.TB, path string, got []byte, update bool) {
	tb.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
			return
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run the test with -update to write it)", err)
		return
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("%s differs from what the code computes (run with -update to accept, then review the diff):\n%s", path, diff(string(want), string(got)))
	}
}

// diff lists the lines only one side has, in order, so a failure shows
// which pinned figure moved without a diff tool.
func diff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	in := func(lines []string) map[string]int {
		m := map[string]int{}
		for _, l := range lines {
			m[l]++
		}
		return m
	}
	wm, gm := in(wl), in(gl)
	var b strings.Builder
	for _, l := range wl {
		if gm[l] == 0 {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range gl {
		if wm[l] == 0 {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	if b.Len() == 0 {
		b.WriteString("(the same lines in another order or count)\n")
	}
	return b.String()
}

// Figures collects the figure lines one test computes, in the order it
// computes them, and when the test ends compares them with
// testdata/figures/<test name>.txt (Check). A skipped test compares
// nothing, so a long run left out by a flag keeps its file.
type Figures struct {
	mu    sync.Mutex
	lines []string
}

var (
	recordersMu sync.Mutex
	recorders   = map[testing.TB]*Figures{}
)

// For returns the recorder of tb, creating it (and its comparison at the
// end of tb) on first use, so helpers called several times by one test
// add to one file.
func For(tb testing.TB, update bool) *Figures {
	tb.Helper()
	recordersMu.Lock()
	defer recordersMu.Unlock()
	if f, ok := recorders[tb]; ok {
		return f
	}
	f := &Figures{}
	recorders[tb] = f
	path := Path(tb.Name())
	tb.Cleanup(func() {
		recordersMu.Lock()
		delete(recorders, tb)
		recordersMu.Unlock()
		if tb.Skipped() {
			return
		}
		Check(tb, path, f.Bytes(), update)
	})
	return f
}

// Pinned is the set of lines of the named test's golden file, for a
// smaller run of it (the quick gate) that holds each row it computes to
// the row the full run pinned: rows that do not depend on which others
// run.
func Pinned(tb testing.TB, testName string) map[string]bool {
	tb.Helper()
	data, err := os.ReadFile(Path(testName))
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		out[strings.TrimSpace(l)] = true
	}
	return out
}

// Path is the golden file of the named test: its name with each subtest
// separator replaced, under testdata/figures/.
func Path(testName string) string {
	return filepath.Join("testdata", "figures", strings.ReplaceAll(testName, "/", "-")+".txt")
}

// Line records one figure line (a table row or a sentence with a count),
// trimmed of surrounding white space.
func (f *Figures) Line(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lines = append(f.lines, strings.TrimSpace(s))
}

// Bytes is the file the recorded lines make: one per line, each ended by
// a newline.
func (f *Figures) Bytes() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for _, l := range f.lines {
		b.WriteString(l + "\n")
	}
	return []byte(b.String())
}
