package spec

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/mutants"
)

// Catalogue is every check a requirement may name and every mutant it may
// cite, with what each mutant is known to be caught by.
type Catalogue struct {
	// Tests holds "<package dir>.TestX" for every Test and Fuzz function of
	// the repository's _test.go files.
	Tests map[string]bool
	// Gate holds the gate's generic checks (directed:, explore:, load:).
	Gate map[string]bool
	// Invariants holds "inv:<id>" for every row of the worlds' tables.
	Invariants map[string]bool
	// CaughtBy holds, per mutant id, the checks known to catch it: the
	// catalogue's declared ExpectedBy, and what its pinned witnesses in
	// mutants/testdata name (their check and invariant). An equivalent
	// mutant is present with no check.
	CaughtBy map[string]map[string]bool
}

// Known reports whether a check name resolves.
func (c *Catalogue) Known(check string) bool {
	return c.Tests[check] || c.Gate[check] || c.Invariants[check]
}

// NewCatalogue builds the catalogue of the repository at root: tests by
// scanning its _test.go files, the rest from the packages' own tables and
// the pinned witnesses under root/mutants/testdata.
func NewCatalogue(root string) (*Catalogue, error) {
	tests, err := ScanTests(root)
	if err != nil {
		return nil, err
	}
	c := &Catalogue{Tests: tests, Gate: map[string]bool{}, Invariants: map[string]bool{}, CaughtBy: map[string]map[string]bool{}}
	cat := exhaustive.NewCatalog()
	for _, ch := range mutants.SuiteChecks(cat) {
		c.Gate[ch.Name] = true
	}
	for _, d := range directed.Checks() {
		c.Gate["directed:"+d.Key] = true
	}
	for _, n := range cat.UniverseNames() {
		u, err := cat.Universe(n)
		if err != nil {
			return nil, err
		}
		for _, inv := range exhaustive.InvariantTable(u) {
			c.Invariants["inv:"+inv.ID] = true
		}
	}
	for _, m := range mutants.All() {
		set := map[string]bool{}
		for _, e := range m.ExpectedBy {
			set[e] = true
		}
		c.CaughtBy[m.ID] = set
	}
	if err := c.readPinned(filepath.Join(root, "mutants", "testdata")); err != nil {
		return nil, err
	}
	return c, nil
}

var testFuncRE = regexp.MustCompile(`^func ((?:Test|Fuzz)[A-Z0-9_]\w*)\(`)

// ScanTests lists "<package dir>.TestX" (and FuzzX) for every test
// function declared at the start of a line in a _test.go file under root,
// the directory relative to root with forward slashes. Hidden directories
// and testdata are skipped.
func ScanTests(root string) (map[string]bool, error) {
	out := map[string]bool{}
	// A checkout reached through a link is walked where it stands (the
	// walk follows no link, the root's own included).
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			if m := testFuncRE.FindStringSubmatch(sc.Text()); m != nil {
				out[filepath.ToSlash(rel)+"."+m[1]] = true
			}
		}
		return sc.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("scan tests under %s: %w", root, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("scan tests under %s: no test functions (is it the repository root?)", root)
	}
	return out, nil
}

// pinnedRE reads the first line of a pinned witness: an explorer or a
// directed witness names its invariant and where it was found; a load
// witness names its check; a liveness lasso its universe; a walk that
// never ends is the walk's liveness check; a community property's lasso
// names its property; an agreement witness its universe.
var pinnedRE = regexp.MustCompile(`^(?:witness (\S+): (?:directed check (\S+)|universe ([^+,\s]+)\S*),|check (\w+), |liveness lasso: universe ([^,\s]+),|(walk that never ends): |liveness (\w+): universe |agreement witness: universe ([^,\s]+),)`)

// readPinned adds what each pinned witness file shows a mutant caught by.
func (c *Catalogue) readPinned(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no pinned witnesses in %s", dir)
	}
	slices.Sort(files)
	for _, f := range files {
		id, _, _ := strings.Cut(filepath.Base(f), ".")
		set, ok := c.CaughtBy[id]
		if !ok {
			return fmt.Errorf("%s: pinned witness of unknown mutant %s", f, id)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		first, _, _ := strings.Cut(string(data), "\n")
		m := pinnedRE.FindStringSubmatch(first)
		if m == nil {
			return fmt.Errorf("%s: first line %q names no check", f, first)
		}
		switch {
		case m[8] != "":
			set["liveness:"+m[8]+"/agreement"] = true
		case m[7] != "":
			set["community-liveness:"+m[7]] = true
		case m[6] != "":
			set["walk-liveness:walk"] = true
		case m[5] != "":
			set["liveness:"+m[5]] = true
		case m[4] != "":
			set["load:"+m[4]] = true
		case m[2] != "":
			set["inv:"+m[1]], set["directed:"+m[2]] = true, true
		default:
			set["inv:"+m[1]], set["explore:"+m[3]] = true, true
		}
	}
	return nil
}
