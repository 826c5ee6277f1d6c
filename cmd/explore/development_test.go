package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The extension points DEVELOPMENT.md must give a recipe for.
var extensionPoints = []string{"Invariant", "Mutant", "Universe", "Rule set / amendment", "Relay peer", "Relay profile", "Vector kind", "Witness kind", "Observation"}

// DEVELOPMENT.md cannot go stale: its package table has one row per
// package of the module and none for a package that is gone, every
// extension point has a recipe naming a file and a test, every file or
// directory it names exists, every test it names is declared, and
// README.md links it.
func TestDevelopmentMap(t *testing.T) {
	const root = "../.."
	data, err := os.ReadFile(filepath.Join(root, "DEVELOPMENT.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	rows := packageRows(t, section(doc, "## Packages"))
	pkgs := modulePackages(t, root)
	for _, p := range pkgs {
		if !slices.Contains(rows, p) {
			t.Errorf("package %s has no row in DEVELOPMENT.md", p)
		}
	}
	for _, r := range rows {
		if !slices.Contains(pkgs, r) {
			t.Errorf("DEVELOPMENT.md has a row for %s, which is not a package of the module", r)
		}
	}
	tests := declaredTests(t, root)
	ext := section(doc, "## Extension points")
	for _, name := range extensionPoints {
		recipe := section(ext, "### "+name)
		if recipe == "" {
			t.Errorf("no recipe for the extension point %q", name)
			continue
		}
		if !testName.MatchString(recipe) || !strings.Contains(recipe, ".go`") {
			t.Errorf("the recipe for %q names no test or no file", name)
		}
	}
	for _, m := range backticked.FindAllStringSubmatch(doc, -1) {
		tok := m[1]
		switch {
		case testName.MatchString(tok) && testName.FindString(tok) == tok:
			if !tests[tok] {
				t.Errorf("DEVELOPMENT.md names %s, which no test file declares", tok)
			}
		case strings.ContainsAny(tok, " "):
			// a command line, not a path
		case strings.Contains(tok, "/") || strings.HasSuffix(tok, ".go") || strings.HasSuffix(tok, ".md"):
			if _, err := os.Stat(filepath.Join(root, tok)); err != nil {
				t.Errorf("DEVELOPMENT.md names %s: %v", tok, err)
			}
		}
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "(DEVELOPMENT.md)") {
		t.Error("README.md does not link DEVELOPMENT.md")
	}
}

var (
	backticked = regexp.MustCompile("`([^`]+)`")
	testName   = regexp.MustCompile(`Test[A-Z][A-Za-z0-9_]*`)
	packageRow = regexp.MustCompile("^\\| `([^`]+)` \\| [^|]*\\S[^|]* \\|$")
	testDecl   = regexp.MustCompile(`(?m)^func (Test[A-Z][A-Za-z0-9_]*)\(`)
)

// section is the text under heading up to the next heading of the same
// or a higher level ("" when the heading is absent).
func section(doc, heading string) string {
	level := strings.Index(heading, " ") // the number of #s
	lines := strings.Split(doc, "\n")
	var out []string
	in := false
	for _, l := range lines {
		if in && strings.HasPrefix(l, "#") {
			if n := strings.Index(l, " "); n > 0 && n <= level && strings.Trim(l[:n], "#") == "" {
				break
			}
		}
		if in {
			out = append(out, l)
		}
		if l == heading {
			in = true
		}
	}
	return strings.Join(out, "\n")
}

// packageRows are the package table's first cells; a row that is not of
// the form "| `path` | what it is for |" fails the test.
func packageRows(t *testing.T, table string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(table, "\n") {
		if !strings.HasPrefix(l, "| `") {
			continue
		}
		m := packageRow.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("malformed package row: %s", l)
			continue
		}
		out = append(out, m[1])
	}
	return out
}

// modulePackages lists the module's packages as `go list ./...` does:
// every directory holding a non-test .go file, leaving out testdata,
// directories whose name starts with . or _, and nested modules (a
// directory with its own go.mod).
func modulePackages(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); rel != "." && err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") {
			seen[filepath.ToSlash(filepath.Dir(rel))] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	if len(out) == 0 {
		t.Fatal("found no package under the module's root")
	}
	return out
}

// declaredTests are the names of every test function of the module.
func declaredTests(t *testing.T, root string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || (strings.HasPrefix(d.Name(), ".") && p != root)) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range testDecl.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
