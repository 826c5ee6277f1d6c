package shortrun

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository's top directory, two levels up.
const root = "../.."

// TestEveryShortPathNamesTheFullRun holds the two halves of the quick
// gate together: every test file reaches -short through this package (so
// each skip and each smaller size names where the full run is), and the
// Makefile has that target, running the tests without -short.
func TestEveryShortPathNamesTheFullRun(t *testing.T) {
	var direct []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "shortrun":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("testing.Short()")) {
			direct = append(direct, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range direct {
		t.Errorf("%s calls testing.Short itself: use package shortrun, which names %q", p, Target)
	}
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(Target, "make ")
	rule := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `:.*$`)
	if !rule.Match(mk) {
		t.Fatalf("Makefile has no %q target", name)
	}
	if !regexp.MustCompile(`(?m)^test:.*\bunit-short\b`).Match(mk) || !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(name)+`:.*\bunit\b`).Match(mk) {
		t.Errorf("Makefile: want test to run unit-short and %s to run unit", name)
	}
	if !regexp.MustCompile(`(?m)^unit-short:[^\n]*\n(\t[^\n]*\n)*\t\$\(GO\) test[^\n]* -short `).Match(mk) {
		t.Errorf("Makefile: unit-short does not run go test -short")
	}
}

func TestSize(t *testing.T) {
	got := Size(t, 10, 3)
	want := 10
	if testing.Short() {
		want = 3
	}
	if got != want {
		t.Errorf("Size(10, 3) = %d under short=%t, want %d", got, testing.Short(), want)
	}
}
