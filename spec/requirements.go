package spec

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
)

// Kinds of requirement.
const (
	// KindCheck: enforced by the checks the row names.
	KindCheck = "check"
	// KindArgued: reasoning only; the note gives it.
	KindArgued = "argued"
	// KindOutside: nothing this harness models can check it; the note says
	// why.
	KindOutside = "outside"
)

// Requirement is one row of requirements.tsv: one normative sentence of
// the spec, named by fingerprint, and how it is enforced.
type Requirement struct {
	ID          string
	Section     string
	Fingerprint string
	Keyword     string
	Kind        string
	Paraphrase  string
	// Checks are test names (<package dir>.TestX), gate checks
	// (directed:<key>, explore:<universe>, load:<check>) and invariant ids
	// (inv:<id>).
	Checks []string
	// Mutants are catalogue ids each caught by one of Checks.
	Mutants []string
	// Note says why Kind is not KindCheck, or why a check has no mutant.
	Note string
	// Line is the row's line in the data file, for messages.
	Line int
}

//go:embed requirements.tsv
var requirementsTSV []byte

// Requirements returns the embedded requirements table.
func Requirements() ([]Requirement, error) { return ParseRequirements(requirementsTSV) }

var (
	idRE          = regexp.MustCompile(`^R\d{3,}$`)
	fingerprintRE = regexp.MustCompile(`^[0-9a-f]{12}$`)
)

const columns = "id\tsection\tfingerprint\tkeyword\tkind\tparaphrase\tchecks\tmutants\tnote"

// ParseRequirements reads a requirements table: '#' comment lines, the
// header, then one tab-separated row per requirement. Every syntax error
// is reported with its line; ids and fingerprints must be unique.
func ParseRequirements(data []byte) ([]Requirement, error) {
	var out []Requirement
	header := false
	ids, fps := map[string]int{}, map[string]int{}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		n := i + 1
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		if !header {
			if line != columns {
				return nil, fmt.Errorf("line %d: header %q, want %q", n, line, columns)
			}
			header = true
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 9 {
			return nil, fmt.Errorf("line %d: %d columns, want 9", n, len(f))
		}
		r := Requirement{ID: f[0], Section: f[1], Fingerprint: f[2], Keyword: f[3], Kind: f[4], Paraphrase: f[5],
			Checks: strings.Fields(f[6]), Mutants: strings.Fields(f[7]), Note: f[8], Line: n}
		if err := r.valid(); err != nil {
			return nil, fmt.Errorf("line %d: %s: %v", n, r.ID, err)
		}
		if prev, dup := ids[r.ID]; dup {
			return nil, fmt.Errorf("line %d: id %s already on line %d", n, r.ID, prev)
		}
		if prev, dup := fps[r.Fingerprint]; dup {
			return nil, fmt.Errorf("line %d: fingerprint %s already on line %d", n, r.Fingerprint, prev)
		}
		ids[r.ID], fps[r.Fingerprint] = n, n
		out = append(out, r)
	}
	if !header {
		return nil, fmt.Errorf("no header line %q", columns)
	}
	return out, nil
}

// valid checks one row on its own: the shape of each field, and that its
// kind and its fields agree.
func (r Requirement) valid() error {
	switch {
	case !idRE.MatchString(r.ID):
		return fmt.Errorf("id %q is not R and three or more digits", r.ID)
	case !fingerprintRE.MatchString(r.Fingerprint):
		return fmt.Errorf("fingerprint %q is not 12 hex digits", r.Fingerprint)
	case r.Section == "" || r.Paraphrase == "":
		return fmt.Errorf("section and paraphrase must be set")
	}
	found := false
	for _, k := range keywords {
		found = found || r.Keyword == k
	}
	if !found {
		return fmt.Errorf("keyword %q is none of %s", r.Keyword, strings.Join(keywords, ", "))
	}
	switch r.Kind {
	case KindCheck:
		if len(r.Checks) == 0 {
			return fmt.Errorf("kind check names no check")
		}
		if len(r.Mutants) == 0 && r.Note == "" {
			return fmt.Errorf("checks without a mutant need a note saying why none can be")
		}
	case KindArgued, KindOutside:
		if len(r.Checks) != 0 || len(r.Mutants) != 0 {
			return fmt.Errorf("kind %s names checks or mutants", r.Kind)
		}
		if r.Note == "" {
			return fmt.Errorf("kind %s needs a note with the reason", r.Kind)
		}
	default:
		return fmt.Errorf("kind %q is none of %s, %s, %s", r.Kind, KindCheck, KindArgued, KindOutside)
	}
	return nil
}
