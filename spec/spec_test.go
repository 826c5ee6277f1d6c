package spec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository root as seen from this package's directory.
const repoRoot = ".."

// SpecPath is where the tests read the spec text: $NIP_RS_SPEC, or
// NIP-RS.md in the shared seeds beside the repository.
func specPath() string {
	if p := os.Getenv("NIP_RS_SPEC"); p != "" {
		return p
	}
	return filepath.Join(repoRoot, DefaultPath)
}

func readSpec(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(specPath())
	if err != nil {
		if os.Getenv("NIP_RS_SPEC") == "" && errors.Is(err, fs.ErrNotExist) {
			// A checkout without the seeds beside it: the rows' checks are
			// still resolved by TestRequirementsChecksResolve.
			t.Skipf("the spec text is not beside this checkout (%v); set NIP_RS_SPEC to its path to trace it", err)
		}
		t.Fatalf("the spec text is needed to trace it (set NIP_RS_SPEC to its path): %v", err)
	}
	return string(data)
}

func catalogue(t *testing.T) *Catalogue {
	t.Helper()
	cat, err := NewCatalogue(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func requirements(t *testing.T) []Requirement {
	t.Helper()
	reqs, err := Requirements()
	if err != nil {
		t.Fatal(err)
	}
	return reqs
}

// TestRequirementsTraceSpec is the traceability gate: every MUST and MUST
// NOT sentence of the spec has a row, every row's sentence is still in the
// spec under its section and keyword, every check a row names exists, and
// every mutant a row names is caught by one of its checks.
func TestRequirementsTraceSpec(t *testing.T) {
	sents := Parse(readSpec(t))
	for _, p := range Audit(requirements(t), sents, catalogue(t)) {
		t.Error(p)
	}
}

// TestRequirementsChecksResolve runs the part of the gate that needs no
// spec text: against the rows' own sentences, every check a row names
// exists and every mutant it names is caught by one of its checks.
func TestRequirementsChecksResolve(t *testing.T) {
	reqs := requirements(t)
	sents := make([]Sentence, 0, len(reqs))
	for _, r := range reqs {
		sents = append(sents, Sentence{Section: r.Section, Fingerprint: r.Fingerprint, Keyword: r.Keyword})
	}
	for _, p := range Audit(reqs, sents, catalogue(t)) {
		t.Error(p)
	}
}

// TestSpecSentencesDistinct: no two normative sentences share a
// fingerprint, so a row names exactly one.
func TestSpecSentencesDistinct(t *testing.T) {
	seen := map[string]int{}
	for _, s := range Parse(readSpec(t)) {
		if prev, dup := seen[s.Fingerprint]; dup {
			t.Errorf("lines %d and %d share fingerprint %s", prev, s.Line, s.Fingerprint)
		}
		seen[s.Fingerprint] = s.Line
	}
}

// TestEditedMustShowsUp: editing one word of a MUST sentence leaves its
// row stale and the edited sentence unlisted, the unlisted one naming the
// stale row; nothing else is reported.
func TestEditedMustShowsUp(t *testing.T) {
	text := readSpec(t)
	const old = "Events with a missing contexts field MUST be discarded."
	if !strings.Contains(text, old) {
		t.Fatalf("the spec no longer holds the sentence this test edits")
	}
	edited := strings.Replace(text, old, "Events with a missing contexts field MUST be ignored.", 1)
	reqs := requirements(t)
	var row Requirement
	for _, r := range reqs {
		if r.Fingerprint == Fingerprint(old) {
			row = r
		}
	}
	if row.ID == "" {
		t.Fatal("no row for the sentence")
	}
	got := Audit(reqs, Parse(edited), catalogue(t))
	if len(got) != 2 {
		t.Fatalf("problems %q, want one stale row and one unlisted sentence", got)
	}
	if got[0].Kind != ProblemStale || got[0].ID != row.ID {
		t.Errorf("first problem %v, want %s stale", got[0], row.ID)
	}
	if got[1].Kind != ProblemUnlisted || !strings.Contains(got[1].Detail, row.ID) || !strings.Contains(got[1].Detail, "MUST be ignored") {
		t.Errorf("second problem %v, want the edited sentence unlisted, naming %s", got[1], row.ID)
	}
}

// TestAuditFindsEachProblem: each kind of disagreement is reported, on a
// small spec, table and catalogue.
func TestAuditFindsEachProblem(t *testing.T) {
	text := "Alpha\n\nClients MUST do a. Clients SHOULD do b.\n\nBeta\n\nClients MUST NOT do c.\n"
	sents := Parse(text)
	if len(sents) != 3 {
		t.Fatalf("parsed %d sentences, want 3: %+v", len(sents), sents)
	}
	fa, fb, fc := sents[0].Fingerprint, sents[1].Fingerprint, sents[2].Fingerprint
	cat := &Catalogue{
		Tests:      map[string]bool{"model.TestA": true},
		Gate:       map[string]bool{"directed:x": true},
		Invariants: map[string]bool{"inv:I1": true},
		CaughtBy:   map[string]map[string]bool{"M1": {"directed:x": true}, "M2": {"load:y": true}},
	}
	row := func(id, section, fp, kw string, checks, muts []string) Requirement {
		return Requirement{ID: id, Section: section, Fingerprint: fp, Keyword: kw, Kind: KindCheck, Paraphrase: "p", Checks: checks, Mutants: muts, Note: "n"}
	}
	good := []Requirement{
		row("R001", "Alpha", fa, "MUST", []string{"directed:x", "model.TestA"}, []string{"M1"}),
		row("R002", "Beta", fc, "MUST NOT", []string{"inv:I1"}, nil),
	}
	tests := []struct {
		name string
		edit func(rs []Requirement) []Requirement
		want []string // problem kinds
	}{
		{"agreeing", func(rs []Requirement) []Requirement { return rs }, nil},
		{"a SHOULD may be listed", func(rs []Requirement) []Requirement {
			return append(rs, row("R003", "Alpha", fb, "SHOULD", []string{"model.TestA"}, nil))
		}, nil},
		{"MUST without a row", func(rs []Requirement) []Requirement { return rs[:1] }, []string{ProblemUnlisted}},
		{"stale fingerprint", func(rs []Requirement) []Requirement {
			rs[0].Fingerprint = "000000000000"
			return rs
		}, []string{ProblemStale, ProblemUnlisted}},
		{"moved section", func(rs []Requirement) []Requirement { rs[1].Section = "Alpha"; return rs }, []string{ProblemSection}},
		{"changed keyword", func(rs []Requirement) []Requirement { rs[1].Keyword = "MUST"; return rs }, []string{ProblemKeyword}},
		{"unknown test", func(rs []Requirement) []Requirement {
			rs[0].Checks = append(rs[0].Checks, "model.TestGone")
			return rs
		}, []string{ProblemUnknownCheck}},
		{"unknown invariant", func(rs []Requirement) []Requirement { rs[1].Checks = []string{"inv:I9"}; return rs }, []string{ProblemUnknownCheck}},
		{"unknown mutant", func(rs []Requirement) []Requirement { rs[0].Mutants = []string{"M9"}; return rs }, []string{ProblemUnknownMutant}},
		{"mutant caught by another check", func(rs []Requirement) []Requirement {
			rs[0].Mutants = []string{"M1", "M2"}
			return rs
		}, []string{ProblemNotCaught}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var kinds []string
			for _, p := range Audit(tc.edit(slices.Clone(good)), sents, cat) {
				kinds = append(kinds, p.Kind)
			}
			if !slices.Equal(kinds, tc.want) {
				t.Errorf("problems %q, want %q", kinds, tc.want)
			}
		})
	}
	if st := cat.Status(good[0]); st != StatusCaught {
		t.Errorf("status %q, want %q", st, StatusCaught)
	}
	if st := cat.Status(good[1]); st != StatusTested {
		t.Errorf("status %q, want %q", st, StatusTested)
	}
}

// TestParseSentences: headings, sentence ends, abbreviations, list
// bullets and numbers, and which sentences count.
func TestParseSentences(t *testing.T) {
	text := strings.Join([]string{
		"Title", "",
		"Intro text MAY be anything. Nothing here counts.", "",
		"d Tag", "",
		"The tag MUST be x (e.g. Y or Z). A client SHOULD NOT do w. Then 3 things MUST hold.", "",
		"• Events without it MUST NOT be kept.", "",
		"4. Every query MUST carry n.", "",
	}, "\n")
	type got struct{ section, keyword, norm string }
	var out []got
	for _, s := range Parse(text) {
		out = append(out, got{s.Section, s.Keyword, Normalise(s.Text)})
	}
	want := []got{
		{"d Tag", "MUST", "the tag must be x e g y or z"},
		{"d Tag", "SHOULD NOT", "a client should not do w"},
		{"d Tag", "MUST", "then 3 things must hold"},
		{"d Tag", "MUST NOT", "events without it must not be kept"},
		{"d Tag", "MUST", "every query must carry n"},
	}
	if !slices.Equal(out, want) {
		t.Errorf("parsed\n %q\nwant\n %q", out, want)
	}
	if Fingerprint("A  client, MUST do x.") != Fingerprint("a client must do x") {
		t.Error("punctuation, case and spacing change the fingerprint")
	}
	if Fingerprint("a client must do x") == Fingerprint("a client must do y") {
		t.Error("a changed word keeps the fingerprint")
	}
}

// TestParseRequirementsRejects: every malformed row is an error naming its
// line, and the embedded table parses.
func TestParseRequirementsRejects(t *testing.T) {
	const ok = "R001\tS\t0123456789ab\tMUST\tcheck\tp\tmodel.TestA\tM1\t"
	tests := []struct{ name, row, msg string }{
		{"columns", "R001\tS", "columns"},
		{"id", strings.Replace(ok, "R001", "X1", 1), "id"},
		{"fingerprint", strings.Replace(ok, "0123456789ab", "xyz", 1), "fingerprint"},
		{"keyword", strings.Replace(ok, "\tMUST\t", "\tMAY\t", 1), "keyword"},
		{"kind", strings.Replace(ok, "\tcheck\t", "\tmaybe\t", 1), "kind"},
		{"check without checks", strings.Replace(ok, "model.TestA", "", 1), "no check"},
		{"check without mutant or note", strings.Replace(ok, "\tM1\t", "\t\t", 1), "note"},
		{"argued with checks", strings.Replace(ok, "\tcheck\t", "\targued\t", 1) + "why", "names checks"},
		{"outside without note", "R001\tS\t0123456789ab\tMUST\toutside\tp\t\t\t", "note"},
		{"duplicate id", ok + "\n" + strings.Replace(ok, "0123456789ab", "0123456789ac", 1), "already"},
		{"duplicate fingerprint", ok + "\n" + strings.Replace(ok, "R001", "R002", 1), "already"},
	}
	for _, tc := range tests {
		_, err := ParseRequirements([]byte(columns + "\n" + tc.row + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "line ") {
			t.Errorf("%s: err %v, want one naming the line and %q", tc.name, err, tc.msg)
		}
	}
	if _, err := ParseRequirements([]byte("# only a comment\n")); err == nil {
		t.Error("a table without a header parsed")
	}
	if _, err := ParseRequirements([]byte(columns + "\n" + ok + "\n")); err != nil {
		t.Errorf("a good row: %v", err)
	}
	requirements(t)
}

// TestScanTestsResolves: the scan finds this very test and a model test,
// and nothing that is not a test function.
func TestScanTestsResolves(t *testing.T) {
	tests, err := ScanTests(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"spec.TestScanTestsResolves", "model.FuzzParseBlob", "cmd/mutate.TestList"} {
		if !tests[want] {
			t.Errorf("%s not found", want)
		}
	}
	for name := range tests {
		if i := strings.LastIndexByte(name, '.'); !strings.HasPrefix(name[i+1:], "Test") && !strings.HasPrefix(name[i+1:], "Fuzz") {
			t.Errorf("%s is not a test", name)
		}
	}
	if _, err := ScanTests(t.TempDir()); err == nil {
		t.Error("a directory without tests scanned clean")
	}
}
