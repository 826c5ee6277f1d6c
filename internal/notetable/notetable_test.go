package notetable

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/mutants"
)

// heading is the note's section that carries the table.
const heading = "## Pinned figures"

// fromGolden is a row whose value is read from a golden file: the first
// submatch of pattern (multi-line) in the file, a path from the module
// root.
type fromGolden struct {
	label, file, pattern string
}

var goldenRows = []fromGolden{
	{"`reference` universe, depth 4, clear-wins", "exhaustive/testdata/figures/TestReferenceStateCounts.txt", `(?m)^\| 4 \| clear \| [^|]+ \| ([0-9,]+) \|`},
	{"`reference` universe, depth 4, set-wins", "exhaustive/testdata/figures/TestReferenceStateCounts.txt", `(?m)^\| 4 \| set \| [^|]+ \| ([0-9,]+) \|`},
	{"`network` universe, depth 6, clear-wins", "exhaustive/testdata/figures/TestNetworkStateSpace.txt", `(?m)^\| network \| 6 \| clear \| on \| [^|]+ \| ([0-9,]+) \|`},
	{"`network` universe, depth 6, set-wins", "exhaustive/testdata/figures/TestNetworkStateSpace.txt", `(?m)^\| network \| 6 \| set \| on \| [^|]+ \| ([0-9,]+) \|`},
	{"`network-whole` universe, depth 6, clear-wins", "exhaustive/testdata/figures/TestNetworkStateSpace.txt", `(?m)^\| network-whole \| 6 \| clear \| on \| [^|]+ \| ([0-9,]+) \|`},
	{"`hierarchy` universe, clear-wins", "exhaustive/testdata/figures/TestHierarchyStateSpace.txt", `(?m)^- clear: (depth \d+, [0-9,]+) distinct states\.$`},
	{"`ceiling` universe, either tie policy", "exhaustive/testdata/figures/TestCeilingUniverse.txt", `(?m)^- ceiling: (depth \d+, [0-9,]+) distinct states`},
	{"`long-id` universe, either tie policy", "exhaustive/testdata/figures/TestLongIDUniverse.txt", `(?m)^- long-id: (depth \d+, [0-9,]+) distinct states`},
	{"paged history walk (`walk`), the text's rules", "history/testdata/figures/TestSpecUniverse.txt", `(?m)^([0-9,]+) distinct states$`},
	{"paged history walk (`walk`), the proposed fix", "history/testdata/figures/TestHealingHealsUnderSameSearch.txt", `(?m)^([0-9,]+) distinct states$`},
}

// communityRows reads every community universe's row: name, depth and
// states.
const communityFile = "history/community/testdata/figures/TestUniversesUnderSpec.txt"

var communityRow = regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\| (\\d+) \\| ([0-9,]+) \\|")

const vectorFile = "vectors/gen/testdata/figures/TestVectorFiguresInNote.txt"

var vectorRow = regexp.MustCompile(`(?m)^\| ([a-z]+) \| ([0-9,]+) \|$`)

func read(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func link(rel string) string { return "[" + filepath.Base(rel) + "](" + rel + ")" }

// want computes the table: one row per headline figure, each naming where
// it is pinned.
func want(t *testing.T) []string {
	t.Helper()
	rows := []string{"| figure | value | pinned in |", "|---|---|---|"}
	for _, g := range goldenRows {
		m := regexp.MustCompile(g.pattern).FindStringSubmatch(read(t, g.file))
		if m == nil {
			t.Fatalf("%s: no match for %s", g.file, g.pattern)
		}
		rows = append(rows, fmt.Sprintf("| %s | %s states | %s |", g.label, m[1], link(g.file)))
	}
	for _, m := range communityRow.FindAllStringSubmatch(read(t, communityFile), -1) {
		rows = append(rows, fmt.Sprintf("| community universe `%s`, depth %s | %s states | %s |", m[1], m[2], m[3], link(communityFile)))
	}
	cat := exhaustive.NewCatalog()
	mutants.Register(cat)
	if err := amendments.Register(cat); err != nil {
		t.Fatal(err)
	}
	rows = append(rows,
		fmt.Sprintf("| generic checks of the mutant gate | %s | computed: `mutants.SuiteChecks` |", num.Commas(len(mutants.SuiteChecks(cat)))),
		fmt.Sprintf("| mutants | %s | computed: `mutants.All`; by layer in %s |", num.Commas(len(mutants.All())), link("mutants/testdata/figures/TestNoteCountsTheCatalogue.txt")))
	vec := vectorRow.FindAllStringSubmatch(read(t, vectorFile), -1)
	if len(vec) == 0 {
		t.Fatalf("%s holds no vector counts", vectorFile)
	}
	for _, m := range vec {
		rows = append(rows, fmt.Sprintf("| vectors, `%s` | %s | %s |", m[1], m[2], link(vectorFile)))
	}
	return rows
}

// table returns the table lines of the note's section.
func table(t *testing.T) []string {
	t.Helper()
	note := read(t, "NOTE.md")
	_, sec, ok := strings.Cut(note, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("NOTE.md has no section %q", heading)
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	var out []string
	for _, l := range strings.Split(sec, "\n") {
		if strings.HasPrefix(l, "|") {
			out = append(out, l)
		}
	}
	return out
}

// TestPinnedFiguresTable: the note's table is the computed one, row for
// row and byte for byte. On failure the computed table is printed, to
// paste into the note.
func TestPinnedFiguresTable(t *testing.T) {
	w, got := want(t), table(t)
	if strings.Join(w, "\n") != strings.Join(got, "\n") {
		t.Errorf("NOTE.md's %q table differs from the pinned figures; the computed table:\n%s", heading, strings.Join(w, "\n"))
	}
}

// TestExtractorsFailOnMissingFigures: a row pattern that matches nothing
// is an error, not an empty cell (a golden file renamed or reworded must
// be noticed).
func TestExtractorsFailOnMissingFigures(t *testing.T) {
	for _, g := range goldenRows {
		if regexp.MustCompile(g.pattern).MatchString("| 5 | clear | 1 | 2 |\n- other: depth 1, 2 distinct states.\n") {
			t.Errorf("%s matches a row of another figure", g.label)
		}
	}
	if communityRow.MatchString("| epochs | 6 | 44,657 |") || !communityRow.MatchString("| `epochs` | 6 | 44,657 | doc |") {
		t.Error("the community row pattern")
	}
}
